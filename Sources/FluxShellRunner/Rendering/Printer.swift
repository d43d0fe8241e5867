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

    public init(renderer: Renderer, streams: Streams) {
        self.renderer = renderer
        self.streams = streams
    }

    public func echo(_ command: String) {
        guard renderer.format == .text else { return }
        streams.appendToStandardOutput { $0.appendLine("> " + command) }
    }

    public func print(
        _ result: borrowing CommandResult, of command: Command, at location: SourceLocation, in session: Session
    ) {
        let filter = session.watchFilter
        let renderer = renderer
        streams.appendToStandardOutput {
            renderer.write(result, command: command, line: location.line, watching: filter, to: &$0)
        }
    }

    public func print(_ steps: [AppStep], in session: Session) {
        let filter = session.watchFilter
        let renderer = renderer
        streams.appendToStandardOutput { output in
            for step in steps { renderer.write(step, watching: filter, to: &output) }
        }
    }

    public func report(_ diagnostic: Diagnostic) {
        let lines = renderer.lines(of: diagnostic)
        switch renderer.format {
        case .text:
            for line in lines { streams.standardError(line) }
        case .json:
            streams.appendToStandardOutput { output in for line in lines { output.appendLine(line) } }
        }
    }
}
