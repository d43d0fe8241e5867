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
    /// The session the lines run in: a local one is replaced by a scenario the page opens.
    public private(set) var session: Session
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
    /// What the runner printed for the line being run.
    private let printed: PrintedOutput
    /// The lines the shell sent, as they come in.
    private var received: LineSplitter
    /// How many lines the shell sent that were run (or rejected): the last one's number.
    public private(set) var lineNumber = 0
    private var sawFirstLine = false

    /// What the runner printed for the line being run, as the renderer wrote it: its bytes in
    /// order, in runs of standard output and standard error, and where `save` handed a scenario
    /// over. No line of it becomes a string on its way to the shell.
    private final class PrintedOutput {
        var bytes = OutputBuffer()
        /// Where each run of lines ends in `bytes`, and whether it went to standard error.
        var runs: [(end: Int, isError: Bool)] = []
        /// The scenarios `save` handed over for the shell to write: each with where in `bytes` it
        /// was handed over (the lines that follow are its confirmation, sent in its frame).
        var saves: [(at: Int, file: String, scenario: String)] = []

        func appendOutput(_ write: (inout OutputBuffer) -> Void) {
            write(&bytes)
            endRun(isError: false)
        }

        func appendError(_ line: String) {
            bytes.appendLine(line)
            endRun(isError: true)
        }

        private func endRun(isError: Bool) {
            let start = runs.last?.end ?? 0
            guard bytes.count > start else { return }
            if let last = runs.last, last.isError == isError {
                runs[runs.count - 1].end = bytes.count
            } else {
                runs.append((bytes.count, isError))
            }
        }

        func removeAll() {
            bytes.removeAll()
            runs.removeAll(keepingCapacity: true)
            saves.removeAll()
        }
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
        readsFiles = false
        received = LineSplitter(maximumLineLength: maximumLineLength)
        let printed = PrintedOutput()
        self.printed = printed
        printer = Self.printer(into: printed)
    }

    /// A shell on a session of local stores (the devtools page of `fluxsh web`): the same
    /// protocol, without an app.
    ///
    /// - Parameters:
    ///   - session: the session it runs commands on; one shell at a time.
    ///   - name: what `attached` names.
    /// - Parameter readsFiles: whether `read FILE` runs a file: in the shell's own process (the
    ///   page on local stores, `fluxsh mcp`), not in an app's agent.
    /// Whether `read FILE` runs a file (see ``init(session:name:maximumLineLength:readsFiles:)``).
    private let readsFiles: Bool

    public init(
        session: Session, name: String, maximumLineLength: Int = LineReader.maximumLineLength, readsFiles: Bool = false
    ) {
        self.session = session
        self.name = name
        self.readsFiles = readsFiles
        received = LineSplitter(maximumLineLength: maximumLineLength)
        let printed = PrintedOutput()
        self.printed = printed
        printer = Self.printer(into: printed)
    }

    private static func printer(into printed: PrintedOutput) -> Printer {
        Printer(
            renderer: Renderer(format: .json),
            streams: .init(appendToStandardOutput: printed.appendOutput, standardError: printed.appendError))
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
        if hello != nil { AttachWire.Frame.bye(AttachWire.appExited).writeLine(to: &output) }
    }

    /// Ends the session because the agent gives up on the shell (it left its answers unread):
    /// `reason` is the last line it gets, framed or not.
    public func ends(saying reason: String, to output: inout OutputBuffer) {
        guard !isFinished else { return }
        isFinished = true
        session.detach()
        AttachWire.Frame.bye(reason).writeLine(to: &output)
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
                AttachWire.Frame.attached(name: name, prompt: session.prompt).writeLine(to: &output)
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
        if hello != nil, line.starts(with: Self.stateAfterPrefix) {
            return answerStateAfter(line, to: &output)
        }
        if hello != nil, line.starts(with: Self.openPrefix) {
            return open(line, to: &output)
        }
        writeAppSteps(to: &output)
        lineNumber += 1
        ended(line: lineNumber, runner.feed(line, number: lineNumber, file: hello?.file ?? "<attach>"), to: &output)
    }

    private func rejectTooLong(to output: inout OutputBuffer) {
        if !sawFirstLine {
            sawFirstLine = true
            begin(nil)
        }
        guard let runner else { return }
        lineNumber += 1
        let outcome = runner.reject(
            line: lineNumber, file: hello?.file ?? "<attach>",
            ShellError("line longer than \(maximumLineLength >> 20) MiB, skipped"))
        ended(line: lineNumber, outcome, to: &output)
    }

    /// Sends what line `line` printed, then `done`; ends the session when the line asked to.
    private func ended(line: Int, _ outcome: ScriptRunner.LineOutcome, to output: inout OutputBuffer) {
        // NB: the app's actions taken while the line ran came before its own steps.
        writeAppSteps(to: &output)
        sendPrinted(to: &output)
        if hello != nil {
            AttachWire.Frame.done(line: line, failed: outcome.failed, prompt: session.prompt).writeLine(to: &output)
        }
        if outcome.stops { finish(to: &output) }
    }

    private func begin(_ hello: AttachWire.Hello?) {
        self.hello = hello
        var options = ScriptRunner.Options()
        options.readsFiles = readsFiles
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
            ? { scenario, file in printed.saves.append((printed.bytes.count, file, scenario)) } : nil
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
            AttachWire.Frame.done(line: lineNumber, failed: true, prompt: session.prompt).writeLine(to: &output)
        }
        AttachWire.Frame.bye(AttachWire.detached).writeLine(to: &output)
    }

    /// Sends what the line printed: as it was written to a shell that sent no hello, else each
    /// line in an `out` or `err` frame, and the lines that follow a scenario `save` handed over in
    /// its `save` frame (up to the next error).
    private func sendPrinted(to output: inout OutputBuffer) {
        var saves = printed.saves[...]
        var position = 0
        for run in printed.runs {
            while position < run.end {
                if let save = saves.first, save.at == position {
                    // NB: the lines `save` printed after it handed the scenario over say it was
                    // written: the shell prints them once it wrote the file.
                    saves.removeFirst()
                    let end = run.isError ? position : run.end
                    let saved = printed.bytes.text(in: position..<end)
                        .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                    AttachWire.Frame.save(
                        file: save.file, line: lineNumber, scenario: save.scenario, saved: saved.map(String.init)
                    ).writeLine(to: &output)
                    position = end
                    continue
                }
                let next = saves.first.map(\.at) ?? run.end
                let end = next > position && next < run.end ? next : run.end
                if hello == nil {
                    output.append(contentsOf: printed.bytes, in: position..<end)
                } else {
                    AttachWire.Frame.writeOutput(
                        linesOf: printed.bytes, in: position..<end, isError: run.isError, to: &output)
                }
                position = end
            }
        }
        for save in saves {
            AttachWire.Frame.save(file: save.file, line: lineNumber, scenario: save.scenario, saved: []).writeLine(
                to: &output)
        }
        printed.removeAll()
    }

    private static let completionPrefix = Array(#"{"complete""#.utf8)
    private static let stateAfterPrefix = Array(#"{"stateAfter""#.utf8)
    private static let openPrefix = Array(#"{"open""#.utf8)

    /// `{"open":SCENARIO,"file":NAME}`: the page opens a scenario file (“Devtools in the browser”
    /// in the reference). Its lines run in a new session of the same stores, their expected diff
    /// lines checked; the session is then paused at its first step (later steps are redone from
    /// the states kept, so no effect runs again) and takes this one's place. A line that fails
    /// (a store that does not exist, an action refused) leaves this session as it was; expected
    /// lines that do not hold are told, and the scenario opens, to be inspected.
    private func open(_ line: ArraySlice<UInt8>, to output: inout OutputBuffer) {
        let refuse = { (file: String, message: String, output: inout OutputBuffer) in
            let error = JSONText.compact(.object(JSONObject([("error", .string(message))])))
            AttachWire.Frame.opened(file: file, isOpen: false, steps: 0, errors: [error], prompt: self.session.prompt)
                .writeLine(to: &output)
        }
        guard let text = Self.decode(line), case .object(let object)? = try? JSONParser.parse(text),
            case .string(let scenario)? = object["open"]
        else { return refuse("", "a scenario's text was expected: {\"open\":TEXT,\"file\":NAME}", &output) }
        var file = "<opened>"
        if case .string(let name)? = object["file"], !name.isEmpty { file = name }
        guard readsFiles else {
            return refuse(file, "a scenario opens in a session of the shell's own stores, not in an app's", &output)
        }
        let opened = Session(catalog: session.catalog)
        // NB: a `save FILE` among the scenario's lines writes nothing where the server runs.
        opened.handsSavedScenario = { _, _ in }
        let renderer = Renderer(format: .json)
        let discarded = Printer(
            renderer: renderer, streams: .init(appendToStandardOutput: { _ in }, standardError: { _ in }))
        var options = ScriptRunner.Options()
        options.readsFiles = readsFiles
        let runner = ScriptRunner(session: opened, options: options, output: discarded)
        runner.run(Array(scenario.utf8), file: file)
        runner.finish(file: file)
        var errors = runner.failures.map { JSONText.compact(renderer.json(of: $0)) }
        if runner.failures.contains(where: { $0.kind == .failedLine || $0.kind == .usage }) {
            return AttachWire.Frame.opened(file: file, isOpen: false, steps: 0, errors: errors, prompt: session.prompt)
                .writeLine(to: &output)
        }
        guard !opened.loadedAliases.isEmpty else { return refuse(file, "'\(file)' loads no store", &output) }
        // NB: the effects still running when the scenario ended are cancelled, and the steps
        // after the first undone: the page walks them forward with redo, their states the ones
        // kept, and nothing delivers into the paused session.
        if !opened.runningEffects.isEmpty { _ = try? opened.execute(.cancel(id: nil)) }
        let steps = opened.undoableSteps
        if steps > 1 {
            do throws(ShellError) {
                _ = try opened.execute(.undo(steps: steps - 1))
            } catch {
                // NB: the scenario opens at its end, and says why it is not paused.
                errors.append(
                    JSONText.compact(
                        .object(JSONObject([("error", .string("not paused at the first step: " + error.message))]))))
            }
        }
        session.detach()
        session = opened
        begin(hello)
        AttachWire.Frame.opened(file: file, isOpen: true, steps: steps, errors: errors, prompt: session.prompt)
            .writeLine(to: &output)
    }

    /// `{"stateAfter":N}`: each loaded store's state after step N, from the states kept for undo.
    private func answerStateAfter(_ line: ArraySlice<UInt8>, to output: inout OutputBuffer) {
        guard let text = Self.decode(line), case .object(let object)? = try? JSONParser.parse(text),
            case .int(let step)? = object["stateAfter"]
        else {
            return AttachWire.Frame.stateAfter(step: -1, states: nil, error: "a step number was expected")
                .writeLine(to: &output)
        }
        do throws(ShellError) {
            let states = try session.states(afterStep: step)
            AttachWire.Frame.stateAfter(step: step, states: JSONObject(states.map { ($0.alias, $0.state) }), error: nil)
                .writeLine(to: &output)
        } catch {
            AttachWire.Frame.stateAfter(step: step, states: nil, error: error.message).writeLine(to: &output)
        }
    }

    private func complete(_ line: ArraySlice<UInt8>, to output: inout OutputBuffer) {
        guard let text = Self.decode(line), case .object(let object)? = try? JSONParser.parse(text),
            case .string(let before)? = object["complete"]
        else {
            return AttachWire.Frame.completions(word: "", candidates: []).writeLine(to: &output)
        }
        let completion = Completer(session: session).complete(before)
        AttachWire.Frame.completions(word: completion.word, candidates: completion.candidates).writeLine(to: &output)
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        var bytes = bytes
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        return ScriptRunner.decode(bytes)
    }
}
