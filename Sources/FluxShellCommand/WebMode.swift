import FluxShell

/// `fluxsh web`: the devtools page on a session of the shell's own stores, served until the
/// process is interrupted (reference: "Devtools in the browser").
struct WebMode {
    let catalog: StoreCatalog
    let stores: [String]
    let port: Int?

    func run() -> Int32 {
        guard let page = FluxShellMain.page else { return Self.missing(catalog.programName) }
        let conversations: LocalConversations
        do {
            // NB: only the conversations hold the session: one a tab opens in its place ends it.
            let session = Session(catalog: catalog)
            for store in stores {
                if let status = RunMode.loadStore(store, into: session) { return status }
            }
            conversations = LocalConversations(
                session: session, name: catalog.programName, onMainThread: MainQueue.isCurrent)
        }
        return Self.serve(conversations, port: port, with: page)
    }

    /// Serves the page for `conversations` until the process is interrupted; prints its address.
    /// Status 2 when it cannot listen (the port is taken), 1 when it stopped serving after.
    static func serve(_ conversations: any PageConversations, port: Int?, with page: any PageServing.Type) -> Int32 {
        let listened = LockedValue(false)
        do throws(ShellError) {
            try page.serve(conversations, port: port) { address in
                listened.withLock { $0 = true }
                StandardStreams.shared.out("devtools: \(address)")
                StandardStreams.shared.out("Open it in a browser on this machine; Ctrl-C stops serving.")
                StandardStreams.shared.flush()
            }
        } catch {
            let served = listened.withLock { $0 }
            StandardStreams.shared.err(Diagnostic(error, kind: served ? .failedLine : .usage))
            return served ? 1 : 2
        }
        return 0
    }

    /// Says that this shell cannot serve the page.
    static func missing(_ programName: String) -> Int32 {
        StandardStreams.shared.err(
            Diagnostic(
                .usage, "\(programName) was built without the devtools page",
                hint: "add the FluxShellWeb product and pass page: WebPage.self to FluxShellMain.run"))
        return 2
    }
}
