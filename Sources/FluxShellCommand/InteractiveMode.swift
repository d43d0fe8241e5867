import FluxShell
import FluxShellTerminal

/// `fluxsh` on a terminal: prompt, line editing, completion, history across runs, colors.
struct InteractiveMode {
    let catalog: StoreCatalog
    let store: String?
    let common: CommonOptions

    func run() -> Int32 {
        let streams = StandardStreams.shared
        let runMode = RunMode(catalog: catalog, store: store, common: common)
        let runner = runMode.makeRunner(interactive: true)
        let session = runner.session
        if let status = RunMode.loadStore(store, into: session) { return status }
        guard let editor = LineEditor(program: session.catalog.programName) else {
            streams.err("warning: line editing is unavailable; reading plain lines")
            return runMode.runStandardInput()
        }
        let historyFile = HistoryLocation.resolve()
        if let historyFile { editor.loadHistory(from: historyFile.path) }
        var warnedAboutHistory = false
        let completer = Completer(session: session)
        editor.completer = { text in
            let completion = completer.complete(text)
            return (completion.word, completion.candidates)
        }
        streams.out("\(session.catalog.programName) \(FluxshVersion.current) — type 'help' for commands, Tab to complete, Ctrl-D to quit.")
        if store == nil { streams.out("Stores: \(catalog.names.joined(separator: ", ")). Start with: load \(catalog.names.first ?? "NAME")") }
        streams.flush()
        var number = 0
        // NB: each line goes through the same runner as a piped one: parsed, run and printed
        // the same way, only without `FILE:LINE:` and with colors.
        loop: while !runner.isStopped {
            editor.prompt = session.prompt
            switch editor.readLine() {
            case .endOfInput:
                streams.out("")
                break loop
            case .interrupted:
                streams.out("")
            case .line(let line):
                number += 1
                editor.remember(line)
                if let historyFile, !editor.saveHistory(to: historyFile.path), !warnedAboutHistory {
                    warnedAboutHistory = true
                    streams.err("warning: cannot write history to \(historyFile.path); it will not be kept")
                }
                if historyFile == nil, !warnedAboutHistory {
                    warnedAboutHistory = true
                    streams.err("warning: no writable history location (set XDG_STATE_HOME or HOME); history will not be kept")
                }
                // NB: read again for each line, so a resized terminal is followed.
                runner.terminalWidth = Platform.terminalColumns()
                runner.feed(Array(line.utf8)[...], number: number, file: "<stdin>")
            }
            streams.flush()
        }
        runner.finish()
        streams.flush()
        return 0
    }
}

/// `$XDG_STATE_HOME/fluxsh/history`, else `~/.local/state/fluxsh/history`; the folder is created.
enum HistoryLocation {
    struct File { let path: String }

    static func resolve() -> File? {
        let base: String
        if let state = Platform.environment("XDG_STATE_HOME"), !state.isEmpty {
            base = state
        } else if let home = Platform.environment("HOME"), !home.isEmpty {
            base = home + "/.local/state"
        } else {
            return nil
        }
        let folder = base + "/fluxsh"
        guard Platform.makeDirectories(folder) else { return nil }
        return File(path: folder + "/history")
    }
}
