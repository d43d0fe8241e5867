import FluxShell

/// `fluxsh attach [NAME|SOCKET]`: a session on a running app's stores, served by its agent
/// (`ShellAgent`). Interactive on a terminal, piped otherwise; the app runs every command, and
/// this side prints what comes back. `--list` lists the apps that can be attached.
struct AttachMode {
    let app: String?
    let list: Bool
    let common: ShellOptions
    /// `--web`: the devtools page on the app, in a browser, instead of a session here.
    var web = false
    var port: Int?
    /// `--mcp`: the session served to an agent over the Model Context Protocol.
    var mcp = false

    func run() -> Int32 {
        let streams = StandardStreams.shared
        if list { return listApps() }
        let path: String
        do throws(ShellError) {
            path = try socketPath()
        } catch {
            streams.err(Diagnostic(.usage, error.message, hint: error.hint))
            return 2
        }
        let folderExists: Bool
        do throws(ShellError) {
            folderExists = try AttachSockets.checkFolderTrusted(Self.folder(of: path))
        } catch {
            streams.err(Diagnostic(.usage, error.message, hint: error.hint))
            return 2
        }
        guard folderExists, let connection = AttachConnection(path: path) else {
            streams.err(
                Diagnostic(
                    .usage, "no running app serves \(app.map { "'\($0)'" } ?? "its stores") at \(path)",
                    hint:
                        "start the app (it serves its stores with ShellAgent), or see '\(ProgramName.current) attach --list'"
                ))
            return 2
        }
        do throws(ShellError) {
            try connection.checkPeer(path)
        } catch {
            streams.err(Diagnostic(.usage, error.message, hint: error.hint))
            return 2
        }
        if web {
            guard let page = FluxShellMain.page else { return WebMode.missing(ProgramName.current) }
            return WebMode.serve(AttachRelay(path: path), port: port, with: page)
        }
        if mcp {
            guard let tools = FluxShellMain.tools else { return McpMode.missing(ProgramName.current) }
            return McpMode.serve(AttachRelay(path: path), program: ProgramName.current, with: tools)
        }
        return Self.session(on: connection, common: common, ending: SessionEnding(name: app ?? path, path: path))
    }

    /// The session on an app's connection, as this shell's: interactive on a terminal, piped
    /// otherwise; the exit status.
    static func session(on connection: AttachConnection, common: ShellOptions, ending: SessionEnding) -> Int32 {
        var hello = AttachWire.Hello()
        hello.format = common.format
        hello.colors = Platform.colorsOnStandardOutput(noColor: common.noColor)
        hello.echo = common.echo
        hello.bail = common.bail
        hello.program = ProgramName.current
        hello.writesSaves = true
        if Platform.isTerminal(0),
            let status = AttachedPrompt(connection: connection, hello: hello, ending: ending).run()
        {
            return status
        }
        return piped(connection, hello: hello, ending: ending)
    }

    /// The folder a socket is in.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The socket named on the command line; with none, the one app running.
    private func socketPath() throws(ShellError) -> String {
        if let app { return app.contains("/") ? app : try AttachSockets.path(for: app) }
        let running = try runningApps()
        guard running.count == 1 else {
            throw running.isEmpty
                ? ShellError(
                    "no running app serves its stores here (\(AttachSockets.folder))",
                    hint: "an app serves them with ShellAgent(serving: flux, as: \"NAME\")")
                : ShellError(
                    "several apps are running: \(running.map(\.name).joined(separator: ", "))",
                    hint: "\(ProgramName.current) attach NAME")
        }
        return running[0].path
    }

    /// The apps running in the sockets' folder, once it is known to be this user's only.
    private func runningApps() throws(ShellError) -> [(name: String, path: String)] {
        guard try AttachSockets.checkFolderTrusted(AttachSockets.folder) else { return [] }
        return AttachSockets.names().compactMap { name in
            guard let path = try? AttachSockets.path(for: name), AttachSockets.isServed(path) else { return nil }
            return (name, path)
        }
    }

    private func listApps() -> Int32 {
        let streams = StandardStreams.shared
        let running: [(name: String, path: String)]
        do throws(ShellError) {
            running = try runningApps()
        } catch {
            streams.err(Diagnostic(.usage, error.message, hint: error.hint))
            return 2
        }
        switch common.format {
        case .json:
            let apps = running.map {
                JSONValue.object(JSONObject([("name", .string($0.name)), ("socket", .string($0.path))]))
            }
            streams.out(JSONText.compact(.object(JSONObject([("apps", .array(apps))]))))
        case .text:
            let width = (running.map(\.name.count).max() ?? 0) + 2
            for app in running {
                streams.out(app.name + String(repeating: " ", count: width - app.name.count) + app.path)
            }
        }
        return 0
    }

    /// Standard input's lines to the app as they come, and what it sends back as it comes: the
    /// answers, and the app's own actions in between.
    private static func piped(_ connection: AttachConnection, hello: AttachWire.Hello, ending: SessionEnding) -> Int32 {
        let streams = StandardStreams.shared
        let output = WireText(toTerminal: Platform.isTerminal(1), colors: hello.colors)
        let errors = WireText(toTerminal: Platform.isTerminal(2), colors: hello.colors)
        guard connection.sendLine(hello.line) else { return ending.withoutAWord() }
        var failed = false
        var inputOpen = true
        // NB: what is read from standard input waits here for the socket: the shell never blocks
        // on a write while the app waits for it to read.
        var outgoing: [UInt8] = []
        var sent = 0
        var endsInNewline = true
        while true {
            let ready = connection.wait(
                alsoOn: inputOpen && outgoing.count < 1 << 20 ? 0 : -1, writing: sent < outgoing.count)
            // NB: what the app said first: after a `quit` or `--bail`, its last lines and its
            // `bye` are read before a write to the closed socket could fail.
            if ready.socket {
                guard let frames = connection.receive() else { return ending.withoutAWord() }
                for frame in frames {
                    switch frame {
                    case .out(let text), .app(let text): streams.out(output.shown(text))
                    case .err(let text): streams.err(errors.shown(text))
                    case .done(_, let lineFailed, _): failed = failed || lineFailed
                    case .save(let file, let line, let scenario, let saved):
                        let written = AttachedSave(hello: hello).write(
                            file, line: line, scenario: scenario, saved: saved,
                            out: { streams.out(output.shown($0)) }, err: { streams.err(errors.shown($0)) })
                        guard written else {
                            failed = true
                            // NB: `--bail` stops here; the lines sent after it may have run in the app.
                            if hello.bail { return 1 }
                            continue
                        }
                    case .bye(AttachWire.detached):
                        streams.flush()
                        return failed ? 1 : 0
                    case .bye(AttachWire.appExited):
                        // NB: the app stopped its agent: a clean end, said in words, status 0
                        // unless a command failed before it.
                        streams.flush()
                        streams.err(AttachWire.appExited)
                        return failed ? 1 : 0
                    case .bye(let reason):
                        return appExited(errors.shown(reason))
                    case .attached, .completions, .stateAfter, .opened: break
                    }
                }
            }
            if ready.other {
                if Platform.read(0, appendingTo: &outgoing, upTo: 1 << 16) <= 0 {
                    inputOpen = false
                    // NB: the agent runs whole lines only: a last line gets its newline.
                    if !endsInNewline { outgoing.append(0x0A) }
                } else {
                    endsInNewline = outgoing.last == 0x0A
                }
            }
            if ready.writable || (ready.other && sent < outgoing.count) {
                if let count = connection.sendAvailable(outgoing[sent...]) {
                    sent += count
                } else {
                    // NB: the app closed its side (it ended the session): what it said last is
                    // still to be read, and nothing more is sent.
                    inputOpen = false
                    sent = outgoing.count
                }
                if sent == outgoing.count {
                    outgoing.removeAll(keepingCapacity: true)
                    sent = 0
                }
            }
            if !inputOpen, outgoing.isEmpty, !connection.isFinishedSending { connection.finishSending() }
            streams.flush()
        }
    }
}

/// The session ended from the app's side without a clean stop: `app exited unexpectedly` (or why
/// it refused, or ended it), status 1.
func appExited(_ reason: String) -> Int32 {
    StandardStreams.shared.err(reason)
    return 1
}

/// What a shell says when the app's side of the connection ends without a last word (`bye`).
struct SessionEnding {
    /// The app, as the shell named it.
    let name: String
    /// The app's socket; nil for an app that dialed `listen` (whose link says how it ended).
    let path: String?

    /// Status 1, and why.
    func withoutAWord() -> Int32 { appExited(reason) }

    /// `app exited unexpectedly` when the app no longer serves its socket (it ended without
    /// stopping its agent: an exit, a crash, a kill); otherwise the app still runs and closed
    /// this connection (a shell that left its answers unread past the app's limit), which is said
    /// as such. For an app that dialed: `app disconnected`.
    var reason: String {
        guard let path else { return AttachWire.appDisconnected }
        return AttachConnection.isStillServed(path)
            ? AttachWire.closedWhileRunning(name) : AttachWire.appExitedUnexpectedly
    }
}
