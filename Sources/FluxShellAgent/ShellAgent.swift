import Dispatch
import FluxCore
import FluxShell
import NIOCore
import NIOPosix

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
/// diffs are made on the session's own thread, and written on the agent's. It serves 64
/// connections at most, and holds at most one command's answer (and 64 KiB) for a shell that
/// does not read; one that leaves over 1 MiB unread for 60 s is told so and its session ends.
/// ``stop()`` (or releasing the agent) ends every session with `app exited`.
public final class ShellAgent: Sendable {
    /// The app's name: `fluxsh attach NAME`.
    public let name: String
    /// The socket the agent listens on; empty for an agent that dials a shell (FluxShellRemote's
    /// `dialing:`).
    public let socketPath: String
    private let group: MultiThreadedEventLoopGroup
    private let server: (any Channel)?
    private let link: (any AgentLink)?
    private let connections: AgentConnections
    private let claim: AttachSockets.Claim?

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
    public convenience init(serving stores: [LiveStore], as name: String, queueLimit: Int = 4_096) throws(ShellError) {
        try self.init(serving: stores, as: name, queueLimit: queueLimit, limits: AgentLimits())
    }

    /// One flux's store, with other limits than the documented ones (for the package's own tests).
    package convenience init<Action, State>(
        serving flux: Flux<Action, State>, as name: String, queueLimit: Int = 4_096, limits: AgentLimits
    ) throws(ShellError) {
        try self.init(serving: [LiveStore(flux, as: name)], as: name, queueLimit: queueLimit, limits: limits)
    }

    /// Several stores, with other limits than the documented ones (for the package's own tests).
    package convenience init(serving stores: [LiveStore], as name: String, queueLimit: Int = 4_096, limits: AgentLimits)
        throws(ShellError)
    {
        try self.init(serving: stores, as: name, queueLimit: queueLimit, limits: limits, link: nil)
    }

    /// Several stores, served on the Unix socket (`link` nil) or through `link` (FluxShellRemote's
    /// dialer), with the limits given.
    package init(
        serving stores: [LiveStore], as name: String, queueLimit: Int = 4_096, limits: AgentLimits,
        link: (any AgentLink)?
    ) throws(ShellError) {
        try LiveStore.check(stores)
        try AttachSockets.checkName(name)
        let connections = AgentConnections(limit: limits.connections)
        // NB: a session is made for each connection: one that only checks the app is there, or
        // is refused, costs the app nothing more.
        let connection = { @Sendable (checksPeer: Bool) in
            AgentConnection(
                session: SessionWorker(stores: stores, name: name, queueLimit: queueLimit, connections: connections),
                limits: limits, connections: connections, checksPeer: checksPeer)
        }
        // NB: one thread for the sockets: every session's commands run on a queue of their own
        // (`SessionWorker`), never on it, so that no command holds up another shell's answers.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.name = name
        self.connections = connections
        self.group = group
        self.link = link
        if let link {
            self.socketPath = ""
            self.claim = nil
            self.server = nil
            link.start(on: group.next(), serving: { connection(false) })
            return
        }
        let path: String
        do throws(ShellError) {
            path = try AttachSockets.path(for: name)
            try AttachSockets.prepareFolder()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        // NB: the name is claimed (locked) before the socket is looked at: of two apps started
        // together, one holds the claim and the other is refused, whatever the order of their steps.
        let claim: AttachSockets.Claim
        do throws(ShellError) {
            claim = try AttachSockets.claim(path, name: name)
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        // NB: an app of an earlier version serves without a claim.
        if AttachSockets.isServed(path) {
            claim.release()
            try? group.syncShutdownGracefully()
            throw AttachSockets.servedElsewhere(name, path)
        }
        self.socketPath = path
        self.claim = claim
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 16)
            // NB: when the app runs out of descriptors, `accept` fails at once each time it is
            // tried: this waits a second between tries rather than spin a core.
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPause())
                }
            }
            // NB: nothing is read from a connection before its peer's credentials are checked,
            // and then only while its answers are taken (`AgentConnection.pump`).
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(connection(true))
                }
            }
        do {
            server = try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
        } catch {
            try? group.syncShutdownGracefully()
            claim.release()
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
        // NB: first, so that a link does not dial again as its connections end.
        link?.stop()
        for channel in channels {
            // NB: on the channel's loop, later: called there (from an app observer during a
            // shell's command), it must not run inside that command.
            channel.eventLoop.execute { channel.pipeline.fireUserInboundEventTriggered(AgentConnection.Stopping()) }
        }
        if MultiThreadedEventLoopGroup.currentEventLoop == nil, !SessionWorker.isCurrent, !channels.isEmpty {
            let closed = DispatchSemaphore(value: 0)
            EventLoopFuture.andAllComplete(channels.map(\.closeFuture), on: group.next())
                .whenComplete { _ in closed.signal() }
            _ = closed.wait(timeout: .now() + 2)
        }
        if let server {
            server.close(promise: nil)
            Platform.removeFile(socketPath)
        }
        // NB: after the socket is gone: an app that claims the name next binds its own.
        claim?.release()
        connections.endLoops()
        group.shutdownGracefully { _ in }
    }

    /// How many shells are attached now (each from the first bytes it sends until it leaves).
    public var attachedShells: Int { connections.count }

    deinit { stop() }
}

/// How an agent reaches its shells other than on its Unix socket: FluxShellRemote's dialer.
package protocol AgentLink: Sendable {
    /// Begins to reach shells on `loop`; each connection that is to be served gets a new handler
    /// of `serving()` (its peer was checked by the link), added once the connection is active.
    func start(on loop: any EventLoop, serving: @escaping @Sendable () -> any ChannelHandler)
    /// Reaches no more shells (the agent stops); the connections open are ended by the agent.
    func stop()
}

/// How much an agent lets its shells hold: the documented limits, lowered by the package's tests.
package struct AgentLimits: Sendable {
    /// How many connections are served at once; the rest are refused with a reason.
    package var connections = 64
    /// A shell whose unread answers stay over `unreadBytes` for `unreadSeconds` is told so and
    /// its session ends; what it still leaves unread that long again is dropped with the connection.
    package var unreadBytes = 1 << 20
    package var unreadSeconds: Int64 = 60

    package init() {}
}

/// The agent's open connections, for `stop()` and the limit on their number.
final class AgentConnections: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        /// The connections that hold a session (a shell that said something).
        var sessions = 0
        var isStopped = false
        /// The event loops are shut down (or about to be): nothing more may be scheduled on them.
        var loopsEnded = false
    }

    /// Whether a new connection is served.
    enum Admission {
        case admitted
        /// The agent stopped.
        case stopped
        /// As many connections as the limit are open.
        case full(limit: Int)
    }

    private let state = LockedValue(State())
    let limit: Int

    init(limit: Int) { self.limit = limit }

    /// Adds `channel`, unless the agent stopped or serves as many connections as it may.
    func add(_ channel: any Channel) -> Admission {
        state.withLock { state in
            guard !state.isStopped else { return .stopped }
            guard state.channels.count < limit else { return .full(limit: limit) }
            state.channels[ObjectIdentifier(channel)] = channel
            return .admitted
        }
    }

    func remove(_ channel: any Channel) {
        state.withLock { $0.channels[ObjectIdentifier(channel)] = nil }
    }

    /// How many sessions are open.
    var count: Int { state.withLock { $0.sessions } }

    func sessionStarted() { state.withLock { $0.sessions += 1 } }

    func sessionEnded() { state.withLock { $0.sessions -= 1 } }

    /// Runs `work` on `loop`, unless the agent's loops have ended: a session's thread that
    /// finishes a job after the agent stopped drops its result rather than schedule it on a loop
    /// that is shut down.
    ///
    /// NB: checked and scheduled under the lock that ``endLoops()`` takes: `execute` only queues.
    func execute(on loop: any EventLoop, _ work: @escaping @Sendable () -> Void) {
        state.withLock { state in
            guard !state.loopsEnded else { return }
            loop.execute(work)
        }
    }

    /// Says the loops are about to shut down: ``execute(on:_:)`` schedules nothing more.
    func endLoops() { state.withLock { $0.loopsEnded = true } }

    /// The channels open when the agent stops; `nil` when it had stopped already.
    func stop() -> [any Channel]? {
        state.withLock { state in
            guard !state.isStopped else { return nil }
            state.isStopped = true
            return Array(state.channels.values)
        }
    }
}
