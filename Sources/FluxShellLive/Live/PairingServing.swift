import FluxShellSystem

/// What listens for an app that dials this shell (`listen`): the FluxShellRemote product's
/// `PairingListener`, which a shell passes to `FluxShellMain.run(catalog:pairing:)`. The command
/// line knows only this, so a shell that does not link TLS builds without it.
@_documentation(visibility: internal)
public protocol PairingServing {
    /// Listens on `address` (127.0.0.1 when nil) and `port` (a free one when nil) with a
    /// certificate made for this run. `refused` is told, in words, of each connection refused.
    static func listen(address: String?, port: Int?, refused: @escaping @Sendable (String) -> Void)
        throws(ShellError) -> any PairingListening
}

/// A listener waiting for the one app its pairing code is for.
@_documentation(visibility: internal)
public protocol PairingListening: Sendable {
    /// The pairing code: `fluxsh://HOST:PORT#SECRET`.
    var code: String { get }
    /// Waits until an app has paired; returns the descriptor of the session's lines with it (a
    /// socket the caller owns, spoken to as an app's Unix socket is) and the app's name.
    func waitForApp() -> (descriptor: Int32, app: String)
}
