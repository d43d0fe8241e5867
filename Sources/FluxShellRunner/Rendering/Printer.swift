import FluxShellLanguage
import FluxShellSession
import FluxShellSystem

/// Writes what a runner reports through a ``Renderer``: results and `> COMMAND` echoes to
/// standard output; diagnostics to standard error in text, and to standard output in JSON, where
/// an error is one of the objects, in order (“Printed values” in the reference).
package final class Printer: RunnerOutput {
    /// Where the printer writes.
    public struct Streams {
        /// Gives the function it is called with standard output's buffer, to append whole lines
        /// of UTF-8 text to (each ending in a newline).
        public var appendToStandardOutput: (((inout OutputBuffer) -> Void) -> Void)
        /// One line (without its newline) for standard error.
        public var standardError: (String) -> Void

        public init(
            appendToStandardOutput: @escaping (((inout OutputBuffer) -> Void) -> Void),
            standardError: @escaping (String) -> Void
        ) {
            self.appendToStandardOutput = appendToStandardOutput
            self.standardError = standardError
        }

        /// Standard output as lines (without their newlines), for callers that want strings.
        public static func lines(standardOutput: @escaping (String) -> Void, standardError: @escaping (String) -> Void)
            -> Streams
        {
            Streams(
                appendToStandardOutput: { write in
                    var buffer = OutputBuffer()
                    write(&buffer)
                    for line in buffer.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                        standardOutput(String(line))
                    }
                }, standardError: standardError)
        }
    }

    /// How results and diagnostics are written; the interactive shell sets its ``Renderer/width``
    /// before each line, so that a resized terminal is followed.
    public var renderer: Renderer
    private let streams: Streams
    /// Whether `output` and `format` may change where and how results are written: the results
    /// of piped mode, `run` and the interactive shell are standard output; an attached shell's
    /// and the page's go over their connection, which reads them in one format.
    public var takesOutputCommands = false
    /// `output FILE`: the file the results go to instead of standard output.
    private var file: (path: String, output: OutputFile)?
    /// Whether the renderer writes colors when it writes text (`format` turns them off for JSON).
    private lazy var colorsInText = renderer.colors

    public init(renderer: Renderer, streams: Streams) {
        self.renderer = renderer
        self.streams = streams
    }

    public func echo(_ command: String) {
        guard resultRenderer.format == .text else { return }
        appendToResults { $0.appendLine("> " + command) }
    }

    public func print(
        _ result: borrowing CommandResult, of command: Command, at location: SourceLocation, in session: Session
    ) {
        let filter = session.watchFilter
        let renderer = resultRenderer
        appendToResults {
            renderer.write(result, command: command, line: location.line, watching: filter, to: &$0)
        }
    }

    public func print(_ steps: [AppStep], in session: Session) {
        let filter = session.watchFilter
        let renderer = resultRenderer
        appendToResults { output in
            for step in steps { renderer.write(step, watching: filter, to: &output) }
        }
    }

    public func report(_ diagnostic: Diagnostic) {
        let lines = renderer.lines(of: diagnostic)
        switch renderer.format {
        case .text:
            for line in lines { streams.standardError(line) }
        case .json:
            appendToResults { output in for line in lines { output.appendLine(line) } }
        }
    }

    public func send(toFile path: String?) throws(ShellError) {
        guard takesOutputCommands else { throw Self.notHere("output") }
        // NB: the new file is made first: one that cannot be leaves the results where they were.
        let next = try path.map { (path: String) throws(ShellError) in (path, try OutputFile.create(path)) }
        let before = file
        file = next
        if let before, let code = before.output.close() {
            throw ShellError("cannot finish writing '\(before.path)': \(OutputFile.reason(code))")
        }
    }

    /// The renderer of the results: a file gets them without colors, at no terminal's width.
    private var resultRenderer: Renderer {
        guard file != nil else { return renderer }
        var plain = renderer
        plain.colors = false
        plain.width = nil
        return plain
    }

    public func write(json: Bool) throws(ShellError) {
        guard takesOutputCommands else { throw Self.notHere("format") }
        _ = colorsInText
        renderer.format = json ? .json : .text
        renderer.colors = json ? false : colorsInText
    }

    public func printTime(_ duration: Duration, at location: SourceLocation) {
        let renderer = resultRenderer
        appendToResults { renderer.writeTime(duration, line: location.line, to: &$0) }
    }

    /// Appends to the results: standard output's buffer, or the file `output` named.
    ///
    /// NB: the common case, no file, costs one check on every line.
    @inline(__always)
    private func appendToResults(_ write: (inout OutputBuffer) -> Void) {
        guard let file else { return streams.appendToStandardOutput(write) }
        var buffer = OutputBuffer()
        write(&buffer)
        guard let code = file.output.write(buffer.text) else { return }
        // NB: a file that cannot be written (a full disk) hands the results back to standard output.
        self.file = nil
        _ = file.output.close()
        streams.standardError(
            "error: cannot write '\(file.path)': \(OutputFile.reason(code)); the results go to standard output again")
        streams.appendToStandardOutput(write)
    }

    private static func notHere(_ word: String) -> ShellError {
        ShellError(
            "\(word) changes how the shell writes its results to standard output: here they go over a connection that reads them one way",
            hint: "the client decides where they go and how")
    }
}
