import FluxShell
import FluxShellTerminal

/// `fluxsh attach` on a terminal: the same line editor as the shell, with completion of the
/// app's actions and paths (asked of the app), and the app's own actions printed above the line
/// being typed as they happen.
struct AttachedPrompt {
    let connection: AttachConnection
    let hello: AttachWire.Hello
    let ending: SessionEnding

    /// What the app said last: the prompt, and whether the session ended (and with what status).
    private final class Progress {
        var prompt = "> "
        var name = ""
        var status: Int32?
        /// Lines that came while a completion was asked for: printed at the next chance.
        var held: [String] = []
        /// Command lines sent whose `done` has not come (one left behind by Ctrl-C).
        var awaited = 0
    }

    /// The exit status; `nil` when line editing is unavailable (the caller reads plain lines).
    func run() -> Int32? {
        guard let editor = LineEditor(program: ProgramName.current) else { return nil }
        let streams = StandardStreams.shared
        let progress = Progress()
        var hello = hello
        hello.interactive = true
        hello.width = Platform.terminalColumns()
        guard connection.sendLine(hello.line) else { return ending.withoutAWord() }
        // NB: the app answers the hello first, before anything it dispatched meanwhile.
        if let status = receive(until: { if case .attached = $0 { true } else { false } }, progress, print: streams.out)
        {
            return status
        }
        let history = HistoryLocation.resolve(program: ProgramName.current)
        if let history { editor.loadHistory(from: history.path) }
        editor.completer = { [connection] text in
            guard connection.sendLine(AttachWire.completionRequest(text)) else { return ("", []) }
            var answer: (String, [String]) = ("", [])
            _ = receive(
                until: { frame in
                    guard case .completions(let word, let candidates) = frame else { return false }
                    // NB: completions are typed into the line and listed: no control character.
                    let shown = WireText(toTerminal: true, colors: false)
                    answer = (shown.shown(word), candidates.map(shown.shown))
                    return true
                }, progress, print: { progress.held.append($0) })
            return answer
        }
        editor.watch(connection.descriptor) { [connection] in
            var lines = progress.held
            progress.held = []
            guard let frames = connection.receive() else {
                if progress.status == nil {
                    progress.status = 1
                    lines.append(ending.reason)
                }
                editor.printAboveLine(lines)
                return true
            }
            // NB: errors too are printed above the line being typed, not in the middle of it.
            for frame in frames {
                handle(frame, progress, print: { lines.append($0) }, printError: { lines.append($0) })
            }
            streams.flush()
            editor.printAboveLine(lines)
            return progress.status != nil
        }
        streams.out(
            "Attached to \(progress.name) — its actions print as they happen. Type 'help' for commands, Tab to complete, Ctrl-D or 'detach' to leave."
        )
        while true {
            if let status = progress.status { return status }
            editor.prompt = progress.prompt
            streams.flush()
            switch editor.readLine() {
            case .endOfInput:
                if let status = progress.status { return status }
                streams.out("")
                guard connection.sendLine("detach") else { return ending.withoutAWord() }
                return receive(until: { _ in false }, progress, print: streams.out) ?? 0
            case .interrupted:
                streams.out("")
            case .line(let line):
                editor.remember(line)
                if let history { _ = editor.saveHistory(to: history.path) }
                guard connection.sendLine(AttachWire.typedLine(line)) else { return ending.withoutAWord() }
                progress.awaited += 1
                for held in progress.held { streams.out(held) }
                progress.held = []
                // NB: the `done` of this line: those of lines left behind by Ctrl-C come first.
                if let status = receive(until: { _ in progress.awaited == 0 }, progress, print: streams.out) {
                    return status
                }
            }
        }
    }

    /// Reads frames until `isLast` says one is, handling each; returns the exit status when the
    /// session ends first.
    private func receive(
        until isLast: (AttachWire.Frame) -> Bool, _ progress: Progress, print: (String) -> Void
    ) -> Int32? {
        while true {
            guard let frames = connection.receive() else { return progress.status ?? ending.withoutAWord() }
            if frames.isEmpty, LineEditor.takeInterrupt() {
                // NB: the app goes on with the command; what it prints comes above the next line.
                StandardStreams.shared.err("(interrupted: the app still runs it; its output follows when it ends)")
                return nil
            }
            var done = false
            for frame in frames {
                handle(frame, progress, print: print)
                if isLast(frame) { done = true }
            }
            StandardStreams.shared.flush()
            if let status = progress.status { return status }
            if done { return nil }
        }
    }

    private func handle(
        _ frame: AttachWire.Frame, _ progress: Progress, print: (String) -> Void,
        printError: ((String) -> Void)? = nil
    ) {
        // NB: what the app sends never reaches the terminal as codes it would obey.
        let output = WireText(toTerminal: Platform.isTerminal(1), colors: hello.colors)
        let errors = WireText(toTerminal: Platform.isTerminal(2), colors: hello.colors)
        switch frame {
        case .attached(let name, let prompt):
            progress.name = output.shown(name)
            progress.prompt = output.shown(prompt)
        case .out(let text), .app(let text): print(output.shown(text))
        case .err(let text):
            if let printError { return printError(errors.shown(text)) }
            StandardStreams.shared.flush()
            StandardStreams.shared.err(errors.shown(text))
        case .done(_, _, let prompt):
            progress.prompt = output.shown(prompt)
            progress.awaited = max(0, progress.awaited - 1)
        case .completions, .stateAfter, .opened: break
        case .save(let file, let line, let scenario, let saved):
            // NB: on a terminal, errors are not located, as the app's are not.
            var interactive = hello
            interactive.interactive = true
            _ = AttachedSave(hello: interactive).write(
                file, line: line, scenario: scenario, saved: saved, out: { print(output.shown($0)) },
                err: { text in
                    if let printError { return printError(errors.shown(text)) }
                    StandardStreams.shared.flush()
                    StandardStreams.shared.err(errors.shown(text))
                })
        case .bye(AttachWire.detached): progress.status = 0
        case .bye(AttachWire.appExited):
            // NB: the app stopped its agent: a clean end, said in words, status 0.
            if let printError {
                printError(AttachWire.appExited)
            } else {
                StandardStreams.shared.err(AttachWire.appExited)
            }
            progress.status = 0
        case .bye(let wireReason):
            let reason = errors.shown(wireReason)
            guard let printError else {
                progress.status = appExited(reason)
                return
            }
            printError(reason)
            progress.status = 1
        }
    }
}
