import FluxShell

/// What piped mode writes when a store traps (docs/reference.md, "Piped mode and `run`"): the
/// process still ends, but the whole lines printed before the trap reach standard output first,
/// then the last line on standard error is `<stdin>:LINE: error: the store trapped: MESSAGE`,
/// and the status is 1. With `--format json`, the same error is also the last object on standard
/// output (`{"line":LINE,"error":"the store trapped: MESSAGE"}`), as every other error is there.
///
/// It happens in the process itself, from a signal handler on a stack of its own (so a stack
/// overflow is reported too), not in a child process as `run` and `test` do: a piped line costs
/// about a microsecond, and all this costs it is the runner keeping its line number.
///
/// MESSAGE is the runtime's own fatal error line when it printed one (`fatalError`, and every
/// failed check of a debug build: `Swift/IntegerTypes.swift:9012: Fatal error: Division by zero`),
/// else what the signal says (`illegal instruction (SIGILL), a failed runtime check: …`, `stack
/// overflow (SIGSEGV)`): a release build's failed checks print no message.
///
/// A signal handler may neither allocate nor build strings: the lines are rendered here before
/// the first line runs, with marks where the line number and the message go, and the handler
/// fills them into buffers made as large as they can need.
final class TrapReport {
    /// One rendering of the error, cut where the line number and the message go.
    private struct Template {
        var beforeLine: String
        var beforeMessage: String
        var end: String
        var escapesJSON: Bool
        /// 1 (standard output) or 2 (standard error).
        var descriptor: Int32

        init(_ renderer: Renderer, file: String, located: Bool, descriptor: Int32) {
            let line = 987_654_321
            let message = "<message>"
            let diagnostic = Diagnostic(
                .failedLine, TrapReport.lead + message, at: located ? SourceLocation(file: file, line: line) : nil)
            let text = Substring(renderer.lines(of: diagnostic).joined(separator: "\n") + "\n")
            // NB: the renderer writes both marks as they are (neither has a character to escape),
            // once each, the line number first.
            let (beforeLine, afterLine) = located ? Self.cut(text, at: String(line)) : ("", text)
            let (beforeMessage, end) = Self.cut(afterLine, at: message)
            self.beforeLine = String(beforeLine)
            self.beforeMessage = String(beforeMessage)
            self.end = String(end)
            escapesJSON = renderer.format == .json
            self.descriptor = descriptor
        }

        /// `text` before and after the first `mark` in it (all of it before, when there is none).
        private static func cut(_ text: Substring, at mark: String) -> (Substring, Substring) {
            guard let start = text.utf8.indices.first(where: { text.utf8[$0...].starts(with: mark.utf8) }) else {
                return (text, "")
            }
            return (text[..<start], text[text.utf8.index(start, offsetBy: mark.utf8.count)...])
        }
    }

    /// The start of the error's message.
    static let lead = "the store trapped: "

    private let runner: ScriptRunner
    /// For an error at a line, and for one before the first line (a store loaded by `--store`),
    /// each in the order written: standard output's object first with `--format json`.
    private let located: [Template]
    private let unlocated: [Template]
    // NB: written only by the trap handler, on the one thread that trapped (a second trap ends
    // the process): cells whose accesses make no run-time exclusivity checks, which a handler
    // had better not make (see `SingleThreadCell`).
    private let message = SingleThreadCell(OutputBuffer(capacity: Platform.fatalErrorLineLimit + 256))
    /// Room for a message whose every byte is escaped as `\u00XX` (six bytes), and the rest.
    private let output = SingleThreadCell(OutputBuffer(capacity: 6 * (Platform.fatalErrorLineLimit + 256) + 4096))

    private init(runner: ScriptRunner, renderer: Renderer, file: String) {
        self.runner = runner
        var texts = [(Renderer(format: .text), 2)]
        if renderer.format == .json { texts.insert((renderer, 1), at: 0) }
        located = texts.map { Template($0.0, file: file, located: true, descriptor: Int32($0.1)) }
        unlocated = texts.map { Template($0.0, file: file, located: false, descriptor: Int32($0.1)) }
    }

    /// Reports a trap from now on, while `runner` runs lines of `file` printed by `renderer`.
    static func install(for runner: ScriptRunner, file: String, renderer: Renderer) {
        let report = TrapReport(runner: runner, renderer: renderer, file: file)
        Platform.keepFatalErrorLines()
        // NB: the handler reads only what was made before it could run (this report, the
        // streams' buffer, the runtime's last line), allocates nothing and takes no lock (the
        // retains and releases Swift may add are atomic operations), and writes with write(2).
        Platform.onTrapsOnOwnStack { signal, isStackOverflow in
            StandardStreams.shared.flushWholeLines()
            report.write(signal: signal, isStackOverflow: isStackOverflow)
            Platform.exitAtOnce(1)
        }
    }

    /// From the trap handler: writes the error, with write(2) only.
    private func write(signal: Int32, isStackOverflow: Bool) {
        message.value.removeAll()
        if isStackOverflow || !Platform.appendFatalErrorLine(to: &message.value) {
            message.value.append(Platform.trapDescription(signal, isStackOverflow: isStackOverflow))
            if !isStackOverflow, Platform.isRuntimeTrap(signal) { message.value.append(Platform.failedCheck) }
        }
        let line = runner.lineInProgress
        for template in line > 0 ? located : unlocated {
            output.value.removeAll()
            output.value.append(template.beforeLine)
            if line > 0 { output.value.appendDecimal(line) }
            output.value.append(template.beforeMessage)
            if template.escapesJSON {
                JSONText.writeEscaped(message.value, to: &output.value)
            } else {
                output.value.append(contentsOf: message.value)
            }
            output.value.append(template.end)
            _ = output.value.write(to: template.descriptor)
        }
    }
}
