import FluxShell
import FluxShellTerminal

/// `fluxsh` on a terminal: prompt, line editing, completion, history across runs, colors.
struct InteractiveMode {
    let catalog: StoreCatalog
    let store: String?
    let common: ShellOptions

    func run() -> Int32 {
        let streams = StandardStreams.shared
        let runMode = RunMode(catalog: catalog, store: store, common: common)
        let (runner, printer) = runMode.makeRunner(interactive: true)
        let session = runner.session
        if let status = RunMode.loadStore(store, into: session) { return status }
        guard let editor = LineEditor(program: session.catalog.programName) else {
            streams.err(Diagnostic(.warning, "line editing is unavailable; reading plain lines"))
            return runMode.runStandardInput()
        }
        let history = HistoryLocation.resolve(program: session.catalog.programName)
        if let history { editor.loadHistory(from: history.path) }
        let completer = Completer(session: session)
        editor.completer = { text in
            let completion = completer.complete(text)
            return (completion.word, completion.candidates)
        }
        if let wake = WakePipe() { Self.printChangesOfTheirOwn(session, printer: printer, editor: editor, wake: wake) }
        streams.out("\(FluxshVersion.text) — type 'help' for commands, Tab to complete, Ctrl-D to quit.")
        if store == nil {
            // NB: a shell of the user's own suggests one of its own stores, not a demonstration.
            let first = catalog.definitions.first { !$0.isDemonstration } ?? catalog.definitions.first
            streams.out("Stores: \(catalog.names.joined(separator: ", ")). Start with: load \(first?.name ?? "NAME")")
        }
        // NB: each line goes through the same runner as a piped one: parsed, run and printed
        // the same way, only without `FILE:LINE:` and with colors.
        var lines = PromptedLines(editor: editor, session: session, printer: printer, history: history)
        runner.run(&lines, file: "<stdin>")
        session.changeSignal.set(nil)
        streams.flush()
        return 0
    }

    /// What a loaded store's hook reports while the user types (its queue, a timer) prints at
    /// once, above the line being typed, a step of the history as before a command; what a store
    /// without a hook, or one on the main queue, does then is looked for four times a second.
    static func printChangesOfTheirOwn(_ session: Session, printer: Printer, editor: LineEditor, wake: WakePipe) {
        session.changeSignal.set { wake.wake() }
        // NB: a wake that finds nothing prints nothing and leaves the line as it is drawn.
        wake.wake(everyMilliseconds: 250)
        editor.watch(wake.readEnd) {
            wake.drain()
            guard session.hasStoresChangingOnTheirOwn else { return false }
            var output = OutputBuffer()
            // NB: what a store queued on the main queue runs now, as an app's run loop would run it.
            for step in session.takeChangesOnTheirOwn(runningMainQueue: true) {
                printer.renderer.write(step, watching: session.watchFilter, to: &output)
            }
            editor.printAboveLine(
                output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
            return false
        }
    }
}

/// The lines typed at the prompt, as a ``LineSource``: each is added to the history (saved after
/// every line), and the printer follows the terminal's width; Ctrl-C abandons a line, Ctrl-D ends.
struct PromptedLines: LineSource {
    let editor: LineEditor
    let session: Session
    let printer: Printer
    let history: HistoryLocation.File?
    var warnedAboutHistory = false
    var maximumLineLength: Int { .max }

    mutating func nextLine(tooLong: inout Bool) -> ArraySlice<UInt8>? {
        let streams = StandardStreams.shared
        while true {
            editor.prompt = session.prompt
            streams.flush()
            switch editor.readLine() {
            case .endOfInput:
                streams.out("")
                return nil
            case .interrupted:
                streams.out("")
            case .line(let line):
                remember(line)
                // NB: read again for each line, so a resized terminal is followed.
                printer.renderer.width = Platform.terminalColumns()
                return Array(line.utf8)[...]
            }
        }
    }

    private mutating func remember(_ line: String) {
        editor.remember(line)
        let streams = StandardStreams.shared
        if let history, !editor.saveHistory(to: history.path), !warnedAboutHistory {
            warnedAboutHistory = true
            streams.err(Diagnostic(.warning, "cannot write history to \(history.path); it will not be kept"))
        }
        if history == nil, !warnedAboutHistory {
            warnedAboutHistory = true
            streams.err(
                Diagnostic(
                    .warning, "no writable history location (set XDG_STATE_HOME or HOME); history will not be kept"))
        }
    }
}

/// `$XDG_STATE_HOME/PROGRAM/history`, else `~/.local/state/PROGRAM/history`, PROGRAM being
/// `fluxsh` or a user's own shell (`notesh` keeps its own history); the folder is created.
enum HistoryLocation {
    struct File { let path: String }

    static func resolve(program: String) -> File? {
        let base: String
        if let state = Platform.environment("XDG_STATE_HOME"), !state.isEmpty {
            base = state
        } else if let home = Platform.environment("HOME"), !home.isEmpty {
            base = home + "/.local/state"
        } else {
            return nil
        }
        let folder = base + "/" + program
        guard Platform.makeDirectories(folder) else { return nil }
        return File(path: folder + "/history")
    }
}
