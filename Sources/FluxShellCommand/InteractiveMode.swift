import FluxShell
import FluxShellTerminal

/// `fluxsh` on a terminal: prompt, line editing, completion, history across runs, colors.
struct InteractiveMode {
    let catalog: StoreCatalog
    let store: String?
    let common: CommonOptions

    func run() -> Int32 {
        let streams = StandardStreams.shared
        let session = Session(catalog: catalog)
        session.recordsJSON = common.format == .json
        let colors = Colors.forStandardOutput(noColor: common.noColor || common.format == .json)
        if let status = RunMode.loadStore(store, into: session) { return status }
        guard let editor = LineEditor(program: session.catalog.programName) else {
            streams.err("warning: line editing is unavailable; reading plain lines")
            return RunMode(catalog: catalog, store: store, common: common).runStandardInput()
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
        loop: while true {
            editor.prompt = session.prompt
            switch editor.readLine() {
            case .endOfInput:
                streams.out("")
                break loop
            case .interrupted:
                streams.out("")
                streams.flush()
                continue
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
                if execute(line, session: session, colors: colors, number: number) { break loop }
                streams.flush()
            }
        }
        streams.flush()
        return 0
    }

    /// Runs one line; returns whether the shell should quit.
    private func execute(_ line: String, session: Session, colors: Colors, number: Int) -> Bool {
        let streams = StandardStreams.shared
        let parsed: ParsedLine
        do {
            parsed = try CommandParser.parse(line)
        } catch {
            streams.err(colors.line(ErrorText.render(error, at: nil)))
            return false
        }
        guard let command = parsed.command else { return false }
        do {
            let result = try session.execute(command)
            if parsed.expectsFailure {
                streams.err(colors.line("error: expected this command to fail, but it succeeded"))
            }
            if common.format == .json {
                streams.out(result.jsonLine(command: command, line: number))
            } else {
                for output in result.lines { streams.out(colors.line(output)) }
            }
            return result.quits
        } catch {
            if !parsed.expectsFailure { streams.err(colors.line(ErrorText.render(error, at: nil))) }
            return false
        }
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
