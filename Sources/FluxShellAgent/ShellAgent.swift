import Dispatch
import FluxCore
@_spi(Engine) import FluxShell
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves a running app's stores to `fluxsh attach`: one line in the app's debug build.
///
/// ```swift
/// #if DEBUG
/// let agent = try ShellAgent(serving: flux, as: "notes")
/// #endif
/// ```
///
/// The agent listens on a Unix domain socket, `$XDG_RUNTIME_DIR/fluxsh/NAME.sock` (without
/// `XDG_RUNTIME_DIR`: `/tmp/fluxsh-UID/NAME.sock`), in a folder only the app's user can enter,
/// and accepts only that user's connections. Each attached shell is a session of its own on the
/// app's stores: the app's actions stream to it as they happen, and its commands run in the app.
///
/// The app never waits for a shell: with no shell attached, the agent costs the app's
/// dispatches nothing; with one, it costs a copy of the new state into a bounded queue, and
/// diffs are made and written on the agent's own thread. ``stop()`` (or releasing the agent)
/// ends every session with `app exited`.
public final class ShellAgent: Sendable {
    /// The app's name: `fluxsh attach NAME`.
    public let name: String
    /// The socket the agent listens on.
    public let socketPath: String
    private let group: MultiThreadedEventLoopGroup
    private let server: any Channel
    private let connections: AgentConnections

    /// Serves one flux's store, under the app's name.
    ///
    /// - Parameters:
    ///   - flux: the store and its dispatcher.
    ///   - name: the app's name (letters, digits, `-`, `_`, `.`); the store's alias too.
    ///   - queueLimit: how many of the app's actions wait for a shell that reads slowly; past
    ///     it, the shell is told how many it missed and sent the state again.
    /// - Throws: ``ShellError`` when the name is not valid, its socket cannot be made, or another
    ///   running app serves that name.
    ///
    /// NB: inlinable, so that the app's part (``LiveStore``) is compiled for its own types.
    @inlinable
    public convenience init<Action, State>(serving flux: Flux<Action, State>, as name: String, queueLimit: Int = 4_096)
        throws(ShellError)
    {
        try self.init(serving: [LiveStore(flux, as: name)], as: name, queueLimit: queueLimit)
    }

    /// Serves several stores that share one dispatcher, each under its alias, under the app's name.
    public init(serving stores: [LiveStore], as name: String, queueLimit: Int = 4_096) throws(ShellError) {
        try LiveStore.check(stores)
        let path = try AttachSockets.path(for: name)
        try AttachSockets.prepareFolder()
        if AttachSockets.isServed(path) {
            throw ShellError(
                "another running app is served as '\(name)' (\(path))", hint: "give this one another name")
        }
        self.name = name
        self.socketPath = path
        let connections = AgentConnections()
        self.connections = connections
        // NB: one thread: every session of the app runs on it, one command at a time, off the
        // app's threads.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 16)
            // NB: nothing is read from a connection before its peer's credentials are checked.
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        AgentConnection(stores: stores, name: name, queueLimit: queueLimit, connections: connections))
                }
            }
        do {
            server = try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw ShellError("cannot serve '\(name)' at \(path): \(error)")
        }
    }

    /// Ends every attached session (each shell prints `app exited`) and removes the socket.
    /// Releasing the agent does the same.
    ///
    /// It waits for the shells to be told, at most 2 seconds (a shell that reads no more is
    /// closed without it), and not at all on the agent's own thread. Called while the app's
    /// dispatcher delivers an action on this thread (from a store's observer), it waits the 2
    /// seconds: the sessions must take the dispatcher's lock to leave.
    public func stop() {
        guard let channels = connections.stop() else { return }
        for channel in channels {
            // NB: on the channel's loop, later: called there (from an app observer during a
            // shell's command), it must not run inside that command.
            channel.eventLoop.execute { channel.pipeline.fireUserInboundEventTriggered(AgentConnection.Stopping()) }
        }
        if MultiThreadedEventLoopGroup.currentEventLoop == nil, !channels.isEmpty {
            let closed = DispatchSemaphore(value: 0)
            EventLoopFuture.andAllComplete(channels.map(\.closeFuture), on: group.next())
                .whenComplete { _ in closed.signal() }
            _ = closed.wait(timeout: .now() + 2)
        }
        server.close(promise: nil)
        unlink(socketPath)
        group.shutdownGracefully { _ in }
    }

    /// How many shells are attached now (each from the first bytes it sends until it leaves).
    public var attachedShells: Int { connections.count }

    deinit { stop() }
}

/// The agent's open connections, for `stop()`.
final class AgentConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        /// The connections that hold a session (a shell that said something).
        var sessions = 0
        var isStopped = false
    }

    private let state = LockedValue(State())

    /// Adds `channel`; `false` once the agent stops.
    func add(_ channel: any Channel) -> Bool {
        state.withLock { state in
            guard !state.isStopped else { return false }
            state.channels[ObjectIdentifier(channel)] = channel
            return true
        }
    }

    func remove(_ channel: any Channel) {
        state.withLock { $0.channels[ObjectIdentifier(channel)] = nil }
    }

    /// How many sessions are open.
    var count: Int { state.withLock { $0.sessions } }

    func sessionStarted() { state.withLock { $0.sessions += 1 } }

    func sessionEnded() { state.withLock { $0.sessions -= 1 } }

    /// The channels open when the agent stops; `nil` when it had stopped already.
    func stop() -> [any Channel]? {
        state.withLock { state in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            return Array(state.channels.values)
        }
    }
}
