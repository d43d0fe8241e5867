import FluxShell
import NIOCore
import NIOPosix

/// One connection to the agent: checks the peer's user, then moves bytes between the socket and
/// the session (``SessionWorker``, which runs the engine's ``AttachedShell`` off the event loop).
///
/// Flow control, end to end: the shell's bytes are read only while its answers are taken (the
/// socket is writable) and no job of its session runs; a job runs lines until their output reaches
/// 64 KiB, and the next waits until that output is written. Each line's output is written as the
/// line ends (see `SessionWorker.run`), not when the job does. So a shell that does not read holds
/// at most one command's answer and 64 KiB in the app, and nothing it asked is dropped. One that
/// leaves more than `limits.unreadBytes` unread for `limits.unreadSeconds` is told so after what
/// it was sent, and its session ends; if it then reads nothing as long again, it is disconnected.
///
/// Not `Sendable`: every method runs on the channel's event loop (NIO calls a handler there; the
/// session's outcomes, the app's wake and the timers are sent there through `NIOLoopBound`).
final class AgentConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Sent through the pipeline when the agent stops.
    struct Stopping {}

    private enum Phase {
        /// The peer's credentials are being checked: nothing is read.
        case checking
        /// The session runs what the shell sends.
        case serving
        /// The session ended (or never began: refused): its last words are being written, and
        /// what the peer still sends is read and dropped until it leaves.
        ///
        /// NB: a Unix socket closed with unread bytes resets the connection, and the peer would
        /// lose the last lines and the `bye` (a piped script after its `quit`).
        case ending
    }

    private let session: SessionWorker
    private let limits: AgentLimits
    private let connections: AgentConnections
    private var context: ChannelHandlerContext?
    private var phase = Phase.checking
    /// Bytes read and not yet given to the session.
    private var input: ByteBuffer?
    /// A job of the session runs.
    private var isBusy = false
    /// The session was given the shell's first bytes (a connection that only checks the app is
    /// there, `fluxsh attach --list`, costs the app no session).
    private var hasSession = false
    private var inputClosed = false
    private var appStepsWaiting = false
    private var isStopping = false
    /// Bytes handed to the socket and not yet taken by it: what the shell left unread.
    private var held = 0
    /// When the socket last took bytes (or began to hold some).
    private var lastTaken = NIODeadline.now()
    private var unreadCheck: Scheduled<Void>?
    /// The last words are written: the output is closed once `held` is 0.
    private var closesOutput = false
    /// Output is written in pieces of this size, so that what a shell reads is seen as it reads.
    private static let writePiece = 64 << 10
    /// What the running job's lines answered so far (see `SessionWorker.run`), and whether a
    /// write of it is on its way to the event loop.
    private let outbox = LockedValue<(output: ByteBuffer?, isScheduled: Bool)>((nil, false))

    /// Whether the peer's user is checked (a Unix socket's); a link that checked its peer itself
    /// (FluxShellRemote's pinned TLS) serves at once.
    private let checksPeer: Bool

    init(session: SessionWorker, limits: AgentLimits, connections: AgentConnections, checksPeer: Bool = true) {
        self.session = session
        self.limits = limits
        self.connections = connections
        self.checksPeer = checksPeer
    }

    private var bound: NIOLoopBound<AgentConnection>? {
        context.map { NIOLoopBound(self, eventLoop: $0.eventLoop) }
    }

    func channelActive(context: ChannelHandlerContext) {
        begin(context)
    }

    /// Added to a connection that is active already (a link's, once it checked its peer).
    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { begin(context) }
    }

    private func begin(_ context: ChannelHandlerContext) {
        guard self.context == nil else { return }
        self.context = context
        switch connections.add(context.channel) {
        case .admitted: break
        case .stopped: return refuse(context, AttachWire.appExited)
        case .full(let limit): return refuse(context, AttachWire.full(limit: limit), counted: false)
        }
        guard checksPeer else {
            phase = .serving
            return pump()
        }
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
            static let level = SocketOptionLevel(Platform.peerCredentialsOption.level)
            static let name = SocketOptionName(Platform.peerCredentialsOption.name)
            var pid: Int32 = 0
            var uid: UInt32 = 0
            var gid: UInt32 = 0
        }
    #endif

    private func checked(_ result: Result<PeerCredentials, any Error>) {
        guard let context, phase == .checking else { return }
        guard case .success(let peer) = result, peer.uid == Platform.userID else {
            return refuse(context, "refused: the app serves only its own user")
        }
        phase = .serving
        pump()
    }

    /// Says why in one frame, and ends the connection; nothing of the app is read for the peer.
    ///
    /// - Parameter counted: whether the connection was counted among the agent's (not when the
    ///   agent had no room for it).
    private func refuse(_ context: ChannelHandlerContext, _ reason: String, counted: Bool = true) {
        if !counted { connections.remove(context.channel) }
        phase = .ending
        var output = OutputBuffer()
        AttachWire.Frame.bye(reason).writeLine(to: &output)
        var buffer = context.channel.allocator.buffer(capacity: output.count)
        output.write(to: &buffer)
        write(buffer)
        endOutput()
    }

    // MARK: - The session's jobs

    /// Gives the session its next job, if it has none and the shell takes its answers: the bytes
    /// read, the app's actions, the end of its input; with nothing to do, reads more.
    private func pump() {
        guard let context, phase == .serving, !isBusy else { return }
        if isStopping {
            guard hasSession else { return context.close(promise: nil) }
            return submit(.appExits)
        }
        guard context.channel.isWritable else { return watchUnread() }
        if let bytes = input, bytes.readableBytes > 0 {
            input = nil
            hasSession = true
            return submit(.input(bytes))
        }
        if appStepsWaiting, hasSession {
            appStepsWaiting = false
            return submit(.appSteps)
        }
        if inputClosed {
            // NB: a shell that said nothing gets nothing.
            guard hasSession else { return context.close(promise: nil) }
            return submit(.endOfInput)
        }
        context.read()
    }

    private func submit(_ job: SessionWorker.Job) {
        guard let context, let bound else { return }
        isBusy = true
        let loop = context.eventLoop
        let connections = connections
        let outbox = outbox
        session.run(
            job, allocator: context.channel.allocator,
            wake: { connections.execute(on: loop) { bound.value.appStepsArrived() } },
            emit: { piece in
                let schedules = outbox.withLock { outbox in
                    var piece = piece
                    if outbox.output == nil { outbox.output = piece } else { outbox.output!.writeBuffer(&piece) }
                    defer { outbox.isScheduled = true }
                    return !outbox.isScheduled
                }
                // NB: one write for what the lines answered until the event loop takes it.
                if schedules { connections.execute(on: loop) { bound.value.writeOutbox() } }
            },
            done: { outcome in connections.execute(on: loop) { bound.value.jobEnded(outcome) } })
    }

    /// Writes what the running job's lines answered so far (while the session serves: once it
    /// ended, its last words were written).
    private func writeOutbox() {
        let output = outbox.withLock { outbox in
            defer { outbox = (nil, false) }
            return outbox.output
        }
        guard phase == .serving else { return }
        write(output)
    }

    private func jobEnded(_ outcome: SessionWorker.Outcome) {
        isBusy = false
        guard let context, phase == .serving else { return }
        // NB: the lines before the job's last, first.
        writeOutbox()
        if let refusal = outcome.refusal { return refuse(context, refusal) }
        if outcome.isFinished {
            phase = .ending
            input = nil
            write(outcome.output)
            return endOutput()
        }
        if var rest = outcome.rest {
            if var newer = input { rest.writeBuffer(&newer) }
            input = rest
        }
        write(outcome.output)
        pump()
    }

    /// The app's actions arrived: sent as soon as the shell takes its answers (meanwhile they wait
    /// in the session's bounded queue, and the app drops, and counts, what does not fit).
    private func appStepsArrived() {
        appStepsWaiting = true
        pump()
    }

    // MARK: - NIO

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard phase == .serving else { return }
        var bytes = unwrapInboundIn(data)
        if input == nil { input = bytes } else { input?.writeBuffer(&bytes) }
        pump()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case ChannelEvent.inputClosed:
            inputClosed = true
            switch phase {
            case .serving: pump()
            // NB: the shell read what the session said last (or reads it still), and left.
            case .ending: if closesOutput, held == 0 { context.close(promise: nil) }
            case .checking: context.close(promise: nil)
            }
        case is Stopping:
            isStopping = true
            let channel = context.channel
            // NB: a shell that reads no more (stopped) is closed anyway.
            context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
            switch phase {
            case .serving: pump()
            case .checking: context.close(promise: nil)
            case .ending: break
            }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pump() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        unreadCheck?.cancel()
        unreadCheck = nil
        if hasSession {
            session.run(.close, allocator: context.channel.allocator, wake: {}, done: { _ in })
        }
        connections.remove(context.channel)
        self.context = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    // MARK: - Writing

    /// Hands `buffer` to the socket in pieces, each counted in `held` until the socket took it.
    private func write(_ buffer: ByteBuffer?) {
        guard var buffer, buffer.readableBytes > 0, let context, let bound else { return }
        if held == 0 { lastTaken = .now() }
        while let piece = buffer.readSlice(length: min(buffer.readableBytes, Self.writePiece)) {
            let count = piece.readableBytes
            held += count
            let promise = context.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { _ in bound.value.taken(count) }
            context.write(wrapOutboundOut(piece), promise: promise)
            if buffer.readableBytes == 0 { break }
        }
        context.flush()
    }

    /// The socket took `count` bytes (or the connection went, with them).
    private func taken(_ count: Int) {
        held -= count
        lastTaken = .now()
        if held == 0, closesOutput { outputWritten() }
    }

    /// The session's last words are handed to the socket: its side of the connection ends once
    /// they are taken.
    private func endOutput() {
        closesOutput = true
        if held == 0 { outputWritten() } else { watchUnread() }
    }

    private func outputWritten() {
        guard let context else { return }
        let channel = context.channel
        channel.close(mode: .output, promise: nil)
        if inputClosed { return context.close(promise: nil) }
        // NB: what the peer still sends is read and dropped until it leaves, at most 5 s (it has
        // everything it was sent).
        channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        context.read()
        context.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }

    // MARK: - A shell that does not read

    /// Checks, when the shell could have read for the limit's time, whether it did.
    private func watchUnread() {
        guard unreadCheck == nil, held > 0, let context, let bound else { return }
        unreadCheck = context.eventLoop.scheduleTask(deadline: lastTaken + .seconds(limits.unreadSeconds)) {
            bound.value.checkUnread()
        }
    }

    private func checkUnread() {
        unreadCheck = nil
        guard let context, held > 0 else { return }
        guard NIODeadline.now() - lastTaken >= .seconds(limits.unreadSeconds) else { return watchUnread() }
        switch phase {
        case .serving:
            guard held > limits.unreadBytes, !isBusy else { return }
            // NB: told after what it was sent; the clock starts again for what it still leaves.
            lastTaken = .now()
            submit(.leftUnread(held: held, limit: limits.unreadBytes, seconds: limits.unreadSeconds))
        case .ending:
            // NB: its last words were not taken either: they go with the connection.
            context.close(promise: nil)
        case .checking:
            break
        }
    }
}

/// The agent's output is copied into swift-nio's buffers in one piece (`OutputBuffer.write(to:)`).
extension ByteBuffer: ByteSink {}
