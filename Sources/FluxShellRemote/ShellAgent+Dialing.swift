import FluxCore
import FluxShell
@_exported import FluxShellAgent

extension ShellAgent {
    /// Serves one flux's store to the `fluxsh listen` whose pairing code is `code`: the app dials
    /// it (a phone, a simulator, a container, another machine). With `code` nil, it serves the
    /// Unix socket on this machine, as ``ShellAgent/init(serving:as:queueLimit:)`` does.
    ///
    /// ```swift
    /// #if DEBUG
    /// let agent = try? ShellAgent(
    ///     serving: flux, as: "notes", dialing: ProcessInfo.processInfo.environment["FLUXSH_PAIRING"])
    /// #endif
    /// ```
    ///
    /// The connection is TLS 1.3, and the app trusts only the certificate whose fingerprint the
    /// code carries; the code's token is sent only inside it. While the listener cannot be
    /// reached, and after a link that was lost, the agent dials again, waiting longer each time
    /// (up to 30 s); once the session ends, or the listener refuses the code, it stops. What
    /// becomes of its dials is said on the app's standard error.
    ///
    /// - Throws: ``ShellError`` when the name is not valid, or the code is not one `fluxsh listen`
    ///   prints (the error names the column); the app runs on without the agent.
    @inlinable
    public convenience init<Action, State>(
        serving flux: Flux<Action, State>, as name: String, dialing code: String?, queueLimit: Int = 4_096
    ) throws(ShellError) {
        try self.init(serving: [LiveStore(flux, as: name)], as: name, dialing: code, queueLimit: queueLimit)
    }

    /// Serves several stores that share one dispatcher, each under its alias, to the `fluxsh
    /// listen` whose pairing code is `code` (the Unix socket when it is nil).
    public convenience init(
        serving stores: [LiveStore], as name: String, dialing code: String?, queueLimit: Int = 4_096
    )
        throws(ShellError)
    {
        guard let code else {
            try self.init(serving: stores, as: name, queueLimit: queueLimit)
            return
        }
        let dialer = try PairingDialer(code: PairingCode(parsing: code), app: name)
        try self.init(serving: stores, as: name, queueLimit: queueLimit, limits: AgentLimits(), link: dialer)
    }
}
