import FluxShellJSON
import FluxShellRunner
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// One shell attached to a running app, as the app's agent serves it: the bytes the shell sends
/// in, the lines to send back out (``AttachWire``). A session of the engine (``Session``) runs
/// each command line through the one ``ScriptRunner``, and the one ``Renderer`` prints its
/// results and the app's own steps. The agent's socket code only moves bytes.
package final class AttachedShell {
    public let session: Session
    /// The app's name, as the shell attached to it.
    public let name: String
    /// Longer lines are skipped and reported.
    public var maximumLineLength: Int { received.maximumLineLength }
    /// The shell asked to leave (`detach`, `quit`, `--bail`) or its input ended: the agent sends
    /// what is left, then closes the connection.
    public private(set) var isFinished = false

    /// What the shell asked for on its first line; `nil` for a client that sends commands only.
    private var hello: AttachWire.Hello?
    private var runner: ScriptRunner?
    private let printer: Printer
    /// What the runner printed for the line being run, in order: `true` for standard error.
    private let printed: PrintedLines
    /// The lines the shell sent, as they come in.
    private var received: LineSplitter
    /// How many lines the shell sent that were run (or rejected): the last one's number.
    public private(set) var lineNumber = 0
    private var sawFirstLine = false

    private final class PrintedLines {
        var lines: [(isError: Bool, text: String)] = []
        /// The scenarios `save` handed over for the shell to write: each with the number of lines
        /// printed before it (what follows is its confirmation, sent in its frame).
        var saves: [(after: Int, file: String, scenario: String)] = []
    }

    /// - Parameters:
    ///   - stores: the app's stores, sharing one dispatcher.
    ///   - name: the app's name (its socket's).
    ///   - queueLimit: how many of the app's actions wait for this shell at most.
    ///   - wake: called on the app's thread when its actions arrive and the shell has taken the
    ///     ones before: the caller then calls ``writeAppSteps(to:)`` on its own thread.
    public init(
        serving stores: [LiveStore], name: String, queueLimit: Int = 4_096,
        maximumLineLength: Int = LineReader.maximumLineLength, wake: @escaping @Sendable () -> Void
    ) throws(ShellError) {
        session = try Session(attachingTo: stores, queueLimit: queueLimit, wake: wake)
        self.name = name
        received = LineSplitter(maximumLineLength: maximumLineLength)
        let printed = PrintedLines()
        self.printed = printed
        printer = Self.printer(into: printed)
    }

    /// A shell on a session of local stores (the devtools page of `fluxsh web`): the same
    /// protocol, without an app.
    ///
    /// - Parameters:
    ///   - session: the session it runs commands on; one shell at a time.
    ///   - name: what `attached` names.
    public init(session: Session, name: String, maximumLineLength: Int = LineReader.maximumLineLength) {
        self.session = session
        self.name = name
        received = LineSplitter(maximumLineLength: maximumLineLength)
        let printed = PrintedLines()
        self.printed = printed
        printer = Self.printer(into: printed)
    }

    private static func printer(into printed: PrintedLines) -> Printer {
        Printer(
            renderer: Renderer(format: .json),
            streams: .lines(
                standardOutput: { printed.lines.append((false, $0)) },
                standardError: { printed.lines.append((true, $0)) }))
    }

    /// Takes bytes the shell sent; appends the lines to send back, each ending in a newline.
    public func receive(_ bytes: some Sequence<UInt8>, to output: inout OutputBuffer) {
        guard !isFinished else { return }
        received.append(bytes)
        while !isFinished, let (line, tooLong) = received.nextLine() {
            if tooLong { rejectTooLong(to: &output) } else { run(line, to: &output) }
        }
    }

    /// The shell's input ended: the session ends. A last line without its newline is dropped
    /// unread: a shell that crashed mid-line changes nothing (`fluxsh attach` ends what it
    /// sends with a newline).
    public func endOfInput(to output: inout OutputBuffer) {
        guard !isFinished else { return }
        received.discardPartialLine()
        // NB: a shell that said nothing gets nothing, but its session still takes what the app did.
        if sawFirstLine { writeAppSteps(to: &output) } else { _ = session.takeAppSteps() }
        finish(to: &output)
    }

    /// Appends the lines of what the app did by itself since the last call (none before the
    /// shell's first line, which says how it wants them).
    public func writeAppSteps(to output: inout OutputBuffer) {
        guard sawFirstLine else { return }
        let steps = session.takeAppSteps()
        guard !steps.isEmpty else { return }
        var text = OutputBuffer()
        for step in steps { printer.renderer.write(step, watching: session.watchFilter, to: &text) }
        guard hello != nil else { return output.append(contentsOf: text) }
        AttachWire.Frame.writeApp(linesOf: text, to: &output)
    }

    /// Ends the session because the app stops serving: what a framed shell is told last.
    public func appExits(to output: inout OutputBuffer) {
        guard !isFinished else { return }
        isFinished = true
        session.detach()
        if hello != nil { output.appendLine(AttachWire.Frame.bye(AttachWire.appExited).line) }
    }

    /// Ends the session because the agent gives up on the shell (it left its answers unread):
    /// `reason` is the last line it gets, framed or not.
    public func ends(saying reason: String, to output: inout OutputBuffer) {
        guard !isFinished else { return }
        isFinished = true
        session.detach()
        output.appendLine(AttachWire.Frame.bye(reason).line)
    }

    /// Stops following the app, without a word to the shell (its connection is gone).
    public func connectionClosed() {
        isFinished = true
        session.detach()
    }

    // MARK: - Lines

    private func run(_ line: ArraySlice<UInt8>, to output: inout OutputBuffer) {
        if !sawFirstLine {
            sawFirstLine = true
            if let hello = Self.decode(line).flatMap({ AttachWire.Hello(line: $0[...]) }) {
                begin(hello)
                output.appendLine(AttachWire.Frame.attached(name: name, prompt: session.prompt).line)
                // NB: a wake that came before the first line took nothing: what it announced is
                // sent now.
                writeAppSteps(to: &output)
                return
            }
            begin(nil)
        }
        guard let runner else { return }
        if hello != nil, line.starts(with: Self.completionPrefix) {
            return complete(line, to: &output)
        }
        writeAppSteps(to: &output)
        lineNumber += 1
        let failures = runner.failures.count
        runner.feed(line, number: lineNumber, file: hello?.file ?? "<attach>")
        ended(line: lineNumber, failures: failures, to: &output)
    }

    private func rejectTooLong(to output: inout OutputBuffer) {
        if !sawFirstLine {
            sawFirstLine = true
            begin(nil)
        }
        guard let runner else { return }
        lineNumber += 1
        let failures = runner.failures.count
        runner.reject(
            line: lineNumber, file: hello?.file ?? "<attach>",
            ShellError("line longer than \(maximumLineLength >> 20) MiB, skipped"))
        ended(line: lineNumber, failures: failures, to: &output)
    }

    /// Sends what line `line` printed, then `done`; ends the session when the line asked to.
    private func ended(line: Int, failures: Int, to output: inout OutputBuffer) {
        guard let runner else { return }
        // NB: the app's actions taken while the line ran came before its own steps.
        writeAppSteps(to: &output)
        sendPrinted(to: &output)
        if hello != nil {
            output.appendLine(
                AttachWire.Frame.done(line: line, failed: runner.failures.count > failures, prompt: session.prompt)
                    .line)
        }
        if runner.isStopped { finish(to: &output) }
    }

    private func begin(_ hello: AttachWire.Hello?) {
        self.hello = hello
        var options = ScriptRunner.Options()
        if let hello {
            printer.renderer = Renderer(
                format: hello.format, colors: hello.colors, locatesErrors: !hello.interactive, width: hello.width)
            printer.renderer.numbersSteps = hello.numbersSteps
            options.echo = hello.echo
            options.bail = hello.bail
            options.acceptsExpectedLines = !hello.interactive
            // NB: the attaching shell's name, not `fluxsh`: `# Saved by notesh`, `notesh run`.
            if let program = hello.program { session.catalog.programName = program }
        }
        // NB: the file belongs to the user: the shell writes it, relative to where it runs, and
        // nothing is written in the app's working folder. Set whatever the hello says: a session
        // the page's tabs share one after the other (`fluxsh web`) may hold the tab before's.
        let printed = self.printed
        session.handsSavedScenario =
            hello?.writesSaves == true
            ? { scenario, file in printed.saves.append((printed.lines.count, file, scenario)) } : nil
        runner = ScriptRunner(session: session, options: options, output: printer)
    }

    private func finish(to output: inout OutputBuffer) {
        guard !isFinished else { return }
        let failures = runner?.failures.count ?? 0
        runner?.finish()
        sendPrinted(to: &output)
        isFinished = true
        session.detach()
        guard hello != nil else { return }
        // NB: the last command's expected diff lines are checked only now: a failure there is
        // said with one more `done`, so that the shell's exit status counts it.
        if let runner, runner.failures.count > failures {
            output.appendLine(AttachWire.Frame.done(line: lineNumber, failed: true, prompt: session.prompt).line)
        }
        output.appendLine(AttachWire.Frame.bye(AttachWire.detached).line)
    }

    private func sendPrinted(to output: inout OutputBuffer) {
        var saves = printed.saves[...]
        var index = 0
        while index < printed.lines.count {
            let (isError, text) = printed.lines[index]
            if let save = saves.first, save.after == index {
                // NB: the lines `save` printed after it handed the scenario over say it was written:
                // the shell prints them once it wrote the file.
                saves.removeFirst()
                var end = index
                while end < printed.lines.count, !printed.lines[end].isError { end += 1 }
                let saved = printed.lines[index..<end].map(\.text)
                output.appendLine(
                    AttachWire.Frame.save(file: save.file, line: lineNumber, scenario: save.scenario, saved: saved).line
                )
                index = end
                continue
            }
            if hello == nil {
                output.appendLine(text)
            } else {
                output.appendLine((isError ? AttachWire.Frame.err(text) : .out(text)).line)
            }
            index += 1
        }
        for save in saves {
            output.appendLine(
                AttachWire.Frame.save(file: save.file, line: lineNumber, scenario: save.scenario, saved: []).line)
        }
        printed.lines.removeAll(keepingCapacity: true)
        printed.saves.removeAll()
    }

    private static let completionPrefix = Array(#"{"complete""#.utf8)

    private func complete(_ line: ArraySlice<UInt8>, to output: inout OutputBuffer) {
        guard let text = Self.decode(line), case .object(let object)? = try? JSONParser.parse(text),
            case .string(let before)? = object["complete"]
        else {
            return output.appendLine(AttachWire.Frame.completions(word: "", candidates: []).line)
        }
        let completion = Completer(session: session).complete(before)
        output.appendLine(AttachWire.Frame.completions(word: completion.word, candidates: completion.candidates).line)
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var bytes = bytes
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        return ScriptRunner.decode(bytes)
    }
}
