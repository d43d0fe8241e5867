@_spi(Engine) import FluxShell
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to the agent: checks the peer's user, then moves bytes between the socket and
/// the engine's ``AttachedShell``, which does everything else.
///
/// NB: @unchecked Sendable is safe: every method runs on the channel's event loop (NIO calls a
/// handler there; the app's wake is sent there through `NIOLoopBound`).
final class AgentConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Sent through the pipeline when the agent stops.
    struct Stopping {}

    private let stores: [LiveStore]
    private let name: String
    private let queueLimit: Int
    private let connections: AgentConnections
    private var shell: AttachedShell?
    private var context: ChannelHandlerContext?
    /// The peer was refused: what it sends is dropped unread until it leaves.
    private var refused = false

    init(stores: [LiveStore], name: String, queueLimit: Int, connections: AgentConnections) {
        self.stores = stores
        self.name = name
        self.queueLimit = queueLimit
        self.connections = connections
    }

    func channelActive(context: ChannelHandlerContext) {
        self.context = context
        guard connections.add(context.channel) else { return refuse(context, AttachWire.appExited) }
        guard let provider = context.channel as? any SocketOptionProvider else {
            return refuse(context, "refused: the peer's user cannot be checked")
        }
        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        provider.unsafeGetSocketOption(level: PeerCredentials.level, name: PeerCredentials.name)
            .whenComplete { (result: Result<PeerCredentials, any Error>) in
                loop.assertInEventLoop()
                bound.value.checked(result)
            }
    }

    #if canImport(Darwin)
        /// The peer's credentials, as the kernel keeps them for a Unix socket (`struct xucred`,
        /// `LOCAL_PEERCRED` at level `SOL_LOCAL`).
        struct PeerCredentials {
            static let level = SocketOptionLevel(0)
            static let name = SocketOptionName(0x001)
            var version: UInt32 = 0
            var uid: UInt32 = 0
            var groupCount: Int16 = 0
            var groups:
                (
                    UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                    UInt32, UInt32, UInt32, UInt32
                ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        }
    #else
        /// The peer's credentials, as the kernel keeps them for a Unix socket (`struct ucred`,
        /// `SO_PEERCRED`).
        struct PeerCredentials {
            static let level = SocketOptionLevel(SOL_SOCKET)
            static let name = SocketOptionName(SO_PEERCRED)
            var pid: Int32 = 0
            var uid: UInt32 = 0
            var gid: UInt32 = 0
        }
    #endif

    private func checked(_ result: Result<PeerCredentials, any Error>) {
        guard let context else { return }
        guard case .success(let peer) = result, peer.uid == getuid() else {
            return refuse(context, "refused: the app serves only its own user")
        }
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        context.read()
    }

    /// The session, made when the shell sends its first bytes: a connection that only checks
    /// the app is there (`fluxsh attach --list`) costs the app no session.
    private func attachedShell(_ context: ChannelHandlerContext) -> AttachedShell? {
        if let shell { return shell }
        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        do {
            shell = try AttachedShell(
                serving: stores, name: name, queueLimit: queueLimit,
                wake: { loop.execute { bound.value.appStepsArrived() } })
            connections.sessionStarted()
        } catch {
            refuse(context, "error: \(error.message)")
        }
        return shell
    }

    /// Says why in one frame and closes its side; nothing of the app is read for the peer.
    ///
    /// NB: what the peer sent is then read and dropped until it closes: a Unix socket closed with
    /// unread bytes resets the connection, and the peer would lose the frame that says why.
    private func refuse(_ context: ChannelHandlerContext, _ reason: String) {
        refused = true
        var output = OutputBuffer()
        output.appendLine(AttachWire.Frame.bye(reason).line)
        send(output, close: true)
        context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused, let shell = attachedShell(context), !shell.isFinished else { return }
        let bytes = unwrapInboundIn(data)
        var output = OutputBuffer()
        bytes.withUnsafeReadableBytes { shell.receive($0, to: &output) }
        send(output, close: shell.isFinished)
        // NB: a shell that sends commands without reading their answers is read no more until
        // it does, so that the answers waiting for it do not grow the app's memory.
        if !context.channel.isWritable {
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            // NB: the shell read what a session that ended said last, and left.
            if let shell, shell.isFinished { return context.close(promise: nil) }
            guard !refused, let shell else { return context.close(promise: nil) }
            var output = OutputBuffer()
            shell.endOfInput(to: &output)
            send(output, close: true)
        case is Stopping:
            let channel = context.channel
            // NB: a shell that reads no more (stopped) is closed anyway.
            context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            guard let shell, !shell.isFinished else { return context.close(promise: nil) }
            var output = OutputBuffer()
            shell.writeAppSteps(to: &output)
            shell.appExits(to: &output)
            send(output, close: true)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// The app's actions arrived: sent at once, unless the shell reads too slowly, in which case
    /// they wait in the session's bounded queue until the socket takes more.
    private func appStepsArrived() {
        guard let shell, !shell.isFinished, let context, context.channel.isWritable else { return }
        var output = OutputBuffer()
        shell.writeAppSteps(to: &output)
        send(output, close: false)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, !refused {
            appStepsArrived()
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let shell {
            shell.connectionClosed()
            connections.sessionEnded()
        }
        shell = nil
        connections.remove(context.channel)
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    /// Writes `output`; with `close`, then ends the connection: its side at once, once written,
    /// and the whole of it when the shell leaves too (at most 5 s later).
    ///
    /// NB: what the shell still sends meanwhile is read and dropped (`channelRead` ignores a
    /// finished session): a Unix socket closed with unread bytes resets the connection, and the
    /// shell would lose the last lines and the `bye` (a piped script after its `quit`).
    private func send(_ output: borrowing OutputBuffer, close: Bool) {
        guard let context else { return }
        let channel = context.channel
        var written: EventLoopFuture<Void>?
        if !output.isEmpty {
            var buffer = channel.allocator.buffer(capacity: output.count)
            _ = output.withUnsafeBytes { buffer.writeBytes($0) }
            written = context.writeAndFlush(wrapOutboundOut(buffer))
        }
        guard close else { return }
        channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        let endOutput: @Sendable () -> Void = { channel.close(mode: .output, promise: nil) }
        if let written { written.whenComplete { _ in endOutput() } } else { endOutput() }
        context.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }
}
