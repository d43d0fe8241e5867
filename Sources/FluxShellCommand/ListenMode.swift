import FluxShell

/// `fluxsh listen`: waits on TCP for an app that dials this shell with the pairing code it prints
/// (its agent built with FluxShellRemote's `dialing:`), and is then the session `attach` opens:
/// interactive, piped, or the page (reference: "Attaching across hosts").
struct ListenMode {
    let address: String?
    let port: Int?
    let web: Bool
    let webPort: Int?
    let common: ShellOptions

    func run() -> Int32 {
        let streams = StandardStreams.shared
        guard let pairing = FluxShellMain.pairing else { return Self.missing(ProgramName.current) }
        if web, FluxShellMain.page == nil { return WebMode.missing(ProgramName.current) }
        let listener: any PairingListening
        do throws(ShellError) {
            listener = try pairing.listen(address: address, port: port, refused: Self.sayRefusal())
        } catch {
            streams.err(Diagnostic(.usage, error.message, hint: error.hint))
            return 2
        }
        // NB: on standard error, first and alone on its line, so that a script reads it there
        // while standard output carries the session.
        streams.err(listener.code)
        if Platform.isTerminal(2) {
            streams.err(
                "Waiting for an app to dial it: pass it to the app (FLUXSH_PAIRING in its environment, or as a QR code); Ctrl-C stops."
            )
        }
        streams.flush()
        // NB: the listener carries the session's bytes to the app: it lives until the session ends.
        return withExtendedLifetime(listener) {
            let (descriptor, app) = listener.waitForApp()
            let connection = AttachConnection(descriptor: descriptor)
            if web, let page = FluxShellMain.page {
                return WebMode.serve(AttachRelay(paired: connection), port: webPort, with: page)
            }
            if Platform.isTerminal(2) { streams.err("paired with '\(app)'") }
            return AttachMode.session(on: connection, common: common, ending: SessionEnding(name: app, path: nil))
        }
    }

    /// Says each of the first refusals, then one in a hundred with their count: a flood of
    /// connections is said in a few lines.
    private static func sayRefusal() -> @Sendable (String) -> Void {
        let count = LockedValue(0)
        return { reason in
            let refused = count.withLock { count in
                count += 1
                return count
            }
            guard refused <= 5 || refused.isMultiple(of: 100) else { return }
            // NB: from the listener's thread: written whole, straight to the descriptor.
            Platform.writeWhole(2, refused <= 5 ? reason + "\n" : "\(reason) (\(refused) refused so far)\n")
        }
    }

    /// Says that this shell cannot listen.
    static func missing(_ programName: String) -> Int32 {
        StandardStreams.shared.err(
            Diagnostic(
                .usage, "\(programName) was built without listening for apps across hosts",
                hint: "add the FluxShellRemote product and pass pairing: PairingListener.self to FluxShellMain.run"))
        return 2
    }
}
