import FluxShellLanguage
import FluxShellSession
import FluxShellSystem

/// The shell's own commands (“The shell's own commands” in the reference): `read` runs a command
/// file in the session; `output`, `format` and `timer` change where, how and with what the
/// results are written. The session never sees them.
extension ScriptRunner {
    /// How many files deep `read` may go: a chain of files that read each other ends here.
    static let readDepthLimit = 16

    /// Runs one of the shell's own commands, typed as `line` at `location`.
    func runShellsOwn(_ command: Command, line: String?, expectsFailure: Bool, at location: SourceLocation) {
        let failures = failures.count
        do throws(ShellError) {
            switch command {
            case .read(let file): try read(file)
            case .output(let file): try output?.send(toFile: file)
            case .format(let json): try output?.write(json: json)
            case .timer(let on): timesCommands = on
            default: break
            }
        } catch {
            if !expectsFailure { fail(at: location, error, line: line) }
            return
        }
        guard expectsFailure, self.failures.count == failures else { return }
        fail(
            at: location,
            ShellError("expected this command to fail, but it succeeded", hint: "remove the '! ' if it should succeed"))
    }

    /// `read FILE`: the file's lines run in this session as a script's do, with their expected
    /// diff lines checked and their errors located in the file; what they change stays.
    private func read(_ file: String) throws(ShellError) {
        guard options.readsFiles else {
            throw ShellError(
                "read runs a file where the session runs, here in the app: an attached shell sends its lines instead",
                hint: "pipe the file into the attached shell: \(session.catalog.programName) attach NAME < \(file)")
        }
        let path = FileSystem.resolvedPath(file)
        guard !readChain.contains(path) else {
            throw ShellError(
                "'\(file)' is being read already: reading it again would never end",
                hint: "a file run with read may read other files, not itself")
        }
        guard readChain.count < Self.readDepthLimit else {
            throw ShellError(
                "read goes \(Self.readDepthLimit) files deep here",
                hint: "files that read each other must end somewhere")
        }
        let bytes = try FileSystem.read(file)
        if filesRead[file] == nil { filesRead[file] = bytes }
        var options = self.options
        options.acceptsExpectedLines = true
        options.failsWithRunningEffects = false
        let nested = ScriptRunner(session: session, options: options, output: output)
        nested.readChain = readChain
        nested.isReading = true
        nested.timesCommands = timesCommands
        nested.beforeEachLine = beforeEachLine
        nested.run(bytes, file: file)
        // NB: the nested runner reported its failures as they came; they count here too.
        take(nested)
    }
}
