import FluxShell

/// `save FILE` in an attached session: the app sends the scenario (``AttachWire/Frame/save(file:line:scenario:saved:)``),
/// and this shell writes it through the one safe-write path, relative to where the shell runs (an
/// absolute path as it is): the file belongs to the user, and nothing is written in the app's
/// working folder.
struct AttachedSave {
    let hello: AttachWire.Hello

    /// Writes `scenario` to `file`; then prints `saved` (what a local `save` prints) with `out`,
    /// or, when the file cannot be written, the error located at `line` with `err`. Returns whether
    /// it was written.
    func write(
        _ file: String, line: Int, scenario: String, saved: [String], out: (String) -> Void, err: (String) -> Void
    ) -> Bool {
        do throws(ShellError) {
            try FileSystem.writeAtomically(scenario, to: file)
        } catch {
            let renderer = Renderer(format: hello.format, colors: hello.colors, locatesErrors: !hello.interactive)
            for text in renderer.lines(of: Diagnostic(error, at: SourceLocation(file: hello.file, line: line))) {
                err(text)
            }
            return false
        }
        for text in saved { out(text) }
        return true
    }
}
