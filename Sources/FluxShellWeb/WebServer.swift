import Dispatch
import FluxShell
import FluxShellSystem
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The page's server: HTTP and WebSocket on 127.0.0.1, on swift-nio. `GET /?token=TOKEN` is the
/// page; `GET /socket?token=TOKEN` upgrades to the WebSocket a tab speaks the attach protocol
/// on, one text message a line each way. Every request is checked first (``WebAccess``).
///
/// A tab's messages are taken one at a time: the next is read once the session answered the one
/// before, so a tab that floods waits for itself and the server's memory stays bounded.
///
/// Only a tab that showed the token holds a place: at most ``maximumSockets`` sockets at once. A
/// connection that has not made its request within ``requestTime`` is closed, so connections
/// that say nothing (``maximumConnections`` of them at most) never keep the page from a browser
/// for long. A socket is pinged every ``pingInterval``; one that answers nothing, or reads
/// nothing of what it was sent, for two intervals is closed.
struct WebServer: Sendable {
    /// The largest message a tab may send; a larger one closes its socket (status 1009) and is not run.
    static let maximumMessage = 1 << 20
    /// How long a connection may take to make its request.
    static let requestTime = TimeAmount.seconds(3)
    /// At most this many connections at once, a request made or not; more are closed at once
    /// (each holds a descriptor for at most ``requestTime`` before its request).
    static let maximumConnections = 256
    /// At most this many sockets (tabs that showed the token) at once; more are refused (503).
    static let maximumSockets = 64
    /// How often a socket is pinged: 10 s, or the whole seconds `FLUXSH_WEB_PING_SECONDS` gives
    /// (for the tests of the server, which would wait for 20 s otherwise).
    static let pingInterval = TimeAmount.seconds(
        Platform.environment("FLUXSH_WEB_PING_SECONDS").flatMap(Int64.init).map { max(1, $0) } ?? 10)

    let access: WebAccess
    let page: ByteBuffer
    let conversations: any PageConversations

    private enum Upgrade: Sendable {
        case socket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case http(NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)

        func close() {
            switch self {
            case .socket(let channel): channel.channel.close(promise: nil)
            case .http(let channel): channel.channel.close(promise: nil)
            }
        }
    }

    /// Listens on 127.0.0.1:`port` (0: a free one); returns the port and the task that serves,
    /// which ends (throwing) only when connections can no longer be accepted.
    static func listen(port: Int, make: @escaping @Sendable (Int) -> WebServer) async throws
        -> (port: Int, serving: Task<Void, any Error>)
    {
        // NB: set once the port is known, but a connection may come as soon as the socket
        // listens: until then, it is refused as "starting".
        let bound = LockedValue<WebServer?>(nil)
        let sockets = LockedValue(0)
        let channel: NIOAsyncChannel<EventLoopFuture<Upgrade>, Never> = try await ServerBootstrap(
            group: MultiThreadedEventLoopGroup.singleton
        )
        .serverChannelOption(.backlog, value: 64)
        .bind(host: "127.0.0.1", port: port) { channel in configure(channel, bound: bound, sockets: sockets) }
        let actualPort = channel.channel.localAddress?.port ?? port
        let server = make(actualPort)
        bound.withLock { $0 = server }
        let serving = Task {
            try await withThrowingDiscardingTaskGroup { group in
                try await channel.executeThenClose { connections in
                    let open = LockedValue(0)
                    for try await connection in connections {
                        guard
                            open.withLock({
                                $0 += 1
                                return $0
                            }) <= maximumConnections
                        else {
                            open.withLock { $0 -= 1 }
                            connection.whenSuccess { upgrade in upgrade.close() }
                            continue
                        }
                        group.addTask {
                            await server.serve(connection)
                            open.withLock { $0 -= 1 }
                        }
                    }
                }
            }
        }
        return (actualPort, serving)
    }

    /// A connection's pipeline: HTTP, upgraded to a WebSocket for a tab that showed the token, a
    /// request not made whole in time closed.
    private static func configure(_ channel: any Channel, bound: LockedValue<WebServer?>, sockets: LockedValue<Int>)
        -> EventLoopFuture<EventLoopFuture<Upgrade>>
    {
        channel.eventLoop.makeCompletedFuture {
            let upgrader = NIOTypedWebSocketServerUpgrader<Upgrade>(
                maxFrameSize: maximumMessage,
                shouldUpgrade: { channel, head in
                    var decision =
                        bound.withLock { $0 }?.access.check(head) ?? .refused(.serviceUnavailable, "starting")
                    // NB: a place is taken when the token was shown, and given back when the
                    // socket closes (or its upgrade failed).
                    if decision == .socket, !Self.takePlace(in: sockets, for: channel) {
                        decision = .refused(.serviceUnavailable, "too many open tabs")
                    }
                    if decision == .socket { return channel.eventLoop.makeSucceededFuture(HTTPHeaders()) }
                    // NB: a refused upgrade is answered here: NIO's path for a request that
                    // is not upgraded never sees one that asked to be.
                    return refuse(channel, decision).flatMapThrowing { throw Refused() }
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOWebSocketFrameAggregator(
                                minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64,
                                maxAccumulatedFrameSize: maximumMessage))
                        return Upgrade.socket(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                    }
                })
            let configuration = NIOTypedHTTPServerUpgradeConfiguration<Upgrade>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        return Upgrade.http(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
                    }
                })
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(
                configuration: .init(upgradeConfiguration: configuration))
            // NB: after a request that cannot be parsed (answered 400 by NIO's handler), the
            // connection is closed at once: nothing after it on the connection is read.
            try channel.pipeline.syncOperations.addHandler(CloseOnError())
            // NB: a connection that does not make a whole request in time is closed: a
            // client that says nothing (or asks for an upgrade without its key) holds
            // nothing for long.
            let deadline = channel.eventLoop.scheduleTask(in: requestTime) { channel.close(promise: nil) }
            negotiated.whenComplete { _ in deadline.cancel() }
            return negotiated
        }
    }

    private struct Refused: Error {}

    /// Takes one of the ``maximumSockets`` places for `channel` until it closes; `false` when
    /// none is left.
    private static func takePlace(in sockets: LockedValue<Int>, for channel: any Channel) -> Bool {
        let taken = sockets.withLock { count in
            guard count < maximumSockets else { return false }
            count += 1
            return true
        }
        if taken { channel.closeFuture.whenComplete { _ in sockets.withLock { $0 -= 1 } } }
        return taken
    }

    /// Answers a request with its refusal, then closes the connection.
    private static func refuse(_ channel: any Channel, _ decision: WebAccess.Decision) -> EventLoopFuture<Void> {
        let (status, reason) =
            switch decision {
            case .refused(let status, let reason): (status, reason)
            case .page, .socket: (HTTPResponseStatus.badRequest, "not a page request")
            }
        let body = ByteBuffer(string: reason + "\n")
        let head = HTTPResponseHead(
            version: .http1_1, status: status, headers: responseHeaders(for: body, type: "text/plain"))
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(body)), promise: nil)
        return channel.writeAndFlush(HTTPServerResponsePart.end(nil)).flatMap { channel.close() }
    }

    static func responseHeaders(for body: ByteBuffer, type: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "X-Frame-Options", value: "DENY")
        headers.add(name: "Content-Security-Policy", value: WebAccess.contentPolicy)
        headers.add(name: "Connection", value: "close")
        return headers
    }

    private func serve(_ connection: EventLoopFuture<Upgrade>) async {
        switch try? await connection.get() {
        case .socket(let channel)?: await converse(on: channel)
        case .http(let channel)?: try? await answer(on: channel)
        case nil: break
        }
    }

    // MARK: - HTTP

    private func answer(on channel: NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>)
        async throws
    {
        // NB: one request, answered at once: a connection that has not made it in time (one that
        // asked for an upgrade NIO did not take, say) is closed.
        let deadline = channel.channel.eventLoop.scheduleTask(in: Self.requestTime) {
            channel.channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        try await channel.executeThenClose { inbound, outbound in
            // NB: answered once the whole request was read: one that turns out malformed after
            // its head (`Transfer-Encoding: xchunked`) gets NIO's 400 alone, never the page too.
            var request: HTTPRequestHead?
            for try await part in inbound {
                if case .head(let head) = part { request = head }
                guard case .end = part, let head = request else { continue }
                let (status, body, type): (HTTPResponseStatus, ByteBuffer, String) =
                    switch access.check(head) {
                    case .page: (.ok, page, "text/html; charset=utf-8")
                    case .socket: (.badRequest, ByteBuffer(string: "a WebSocket upgrade was expected\n"), "text/plain")
                    case .refused(let status, let reason): (status, ByteBuffer(string: reason + "\n"), "text/plain")
                    }
                let headers = Self.responseHeaders(for: body, type: type)
                try await outbound.write(
                    contentsOf: [
                        .head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)),
                        .body(.byteBuffer(body)), .end(nil),
                    ])
                return
            }
        }
    }

    // MARK: - WebSocket

    private func converse(on channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async {
        try? await channel.executeThenClose { inbound, outbound in
            let writer = FrameWriter(outbound: outbound, channel: channel.channel)
            let heartbeat = Heartbeat(channel: channel.channel, writer: writer)
            let conversation = conversations.open(
                send: { line in writer.send(line) }, end: { writer.close() })
            defer {
                heartbeat.stop()
                conversation.close()
            }
            for try await frame in inbound {
                heartbeat.heard()
                defer { heartbeat.heard() }
                switch frame.opcode {
                case .text:
                    // NB: a text message is UTF-8 (RFC 6455, 8.1): one that is not closes the
                    // socket with 1007, and none of it is run.
                    guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                        writer.close(code: .dataInconsistentWithMessage)
                        await writer.drained()
                        return
                    }
                    // NB: one message a line: a message that holds newlines is several lines.
                    // While they run, no pong can be read: the heartbeat waits for them.
                    heartbeat.isBusy = true
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                        await conversation.receive(String(line))
                    }
                    // NB: the next message is read once this one's answers were taken by the
                    // socket: a tab that sends and does not read holds one message's answers
                    // (and is closed when they do not move, `FrameWriter.isStalled`).
                    await writer.drained()
                    heartbeat.heard()
                    heartbeat.isBusy = false
                case .ping:
                    writer.write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                case .connectionClose:
                    writer.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()))
                    return
                default:
                    continue
                }
            }
        }
    }
}

/// Writes a tab's answers in order, from any thread.
final class FrameWriter: Sendable {
    /// How many lines may wait for a tab that reads slowly; the next ``send(_:)`` waits for room.
    static let backlog = 256
    /// How long a send waits for room before the tab is closed.
    static let patience = DispatchTimeInterval.seconds(10)

    private let outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>
    private let channel: any Channel
    private let queue = AsyncLines()
    /// A place for each line given and not yet written to the socket.
    private let room = DispatchSemaphore(value: backlog)

    init(outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>, channel: any Channel) {
        self.outbound = outbound
        self.channel = channel
    }

    /// Sends a line as a text message. NB: waits while ``backlog`` lines wait for the tab (a tab
    /// that reads slowly holds that many and no more): call it from a thread that may wait, not
    /// from an event loop. A tab that made no room for ``patience`` (it reads nothing) is closed,
    /// and a socket that closed takes every line at once (its write fails), so no sender waits
    /// long on a tab that is stuck or gone: a session's next tab takes it over within that time.
    func send(_ line: String) {
        guard room.wait(timeout: .now() + Self.patience) == .success else {
            channel.close(promise: nil)
            return
        }
        let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: line))
        write(frame) { [room] in room.signal() }
    }

    func write(_ frame: WebSocketFrame, then written: @escaping @Sendable () -> Void = {}) {
        willWrite()
        queue.enqueue { [outbound] in
            try? await outbound.write(frame)
            self.wrote()
            written()
        }
    }

    /// Returns once everything sent before was written to the socket.
    func drained() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.enqueue { done.resume() }
        }
    }

    /// Closes the socket after what was sent before, with `code` when given (RFC 6455, 7.4).
    func close(code: WebSocketErrorCode? = nil) {
        var data = ByteBuffer()
        if let code { data.write(webSocketErrorCode: code) }
        queue.enqueue { [outbound, data] in
            try? await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
            outbound.finish()
        }
    }

    /// Whether a frame given to the socket has waited longer than `limit` to be written: the
    /// tab reads nothing.
    func isStalled(longerThan limit: Duration) -> Bool {
        pendingSince.withLock { $0.map { ContinuousClock.now - $0 > limit } ?? false }
    }

    /// Since when frames wait to be written with none written: `nil` when every frame was.
    private let pendingSince = LockedValue<ContinuousClock.Instant?>(nil)
    private let pending = LockedValue(0)

    private func willWrite() {
        pending.withLock { count in
            if count == 0 { pendingSince.withLock { $0 = .now } }
            count += 1
        }
    }

    private func wrote() {
        pending.withLock { count in
            count -= 1
            pendingSince.withLock { $0 = count == 0 ? nil : .now }
        }
    }
}

/// Pings a socket every ``WebServer/pingInterval`` and closes it when, for two intervals, it
/// answered nothing (a half-open connection, a tab gone) or read nothing of what it was sent.
final class Heartbeat: Sendable {
    private let channel: any Channel
    private let writer: FrameWriter
    private let lastHeard = LockedValue(ContinuousClock.now)
    private let busy = LockedValue(false)
    private let task: LockedValue<RepeatedTask?> = LockedValue(nil)

    /// Whether the tab's commands are running: its pongs cannot be read meanwhile, so its silence
    /// says nothing.
    var isBusy: Bool {
        get { busy.withLock { $0 } }
        set { busy.withLock { $0 = newValue } }
    }

    init(channel: any Channel, writer: FrameWriter) {
        self.channel = channel
        self.writer = writer
        let interval = WebServer.pingInterval
        let limit = Duration.nanoseconds(2 * interval.nanoseconds)
        let repeated = channel.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) {
            [lastHeard, busy, writer, channel] _ in
            let silent = !busy.withLock { $0 } && lastHeard.withLock { ContinuousClock.now - $0 > limit }
            if silent || writer.isStalled(longerThan: limit) {
                channel.close(promise: nil)
            } else {
                writer.write(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer()))
            }
        }
        task.withLock { $0 = repeated }
    }

    /// A frame came from the tab (a pong, a message).
    func heard() { lastHeard.withLock { $0 = .now } }

    func stop() { task.withLock { $0?.cancel() } }
}

/// Closes a connection on the first error its pipeline meets (a request that cannot be parsed,
/// after NIO's handler answered it 400).
final class CloseOnError: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // NB: closed once the event that failed is handled, so that the 400 NIO's handler wrote
        // for it is out before the connection closes.
        let channel = context.channel
        context.eventLoop.execute { channel.close(promise: nil) }
    }
}

/// Runs the work given to it one piece after the other, in the order given.
final class AsyncLines: Sendable {
    private let continuation: AsyncStream<@Sendable () async -> Void>.Continuation

    init() {
        let (stream, continuation) = AsyncStream<@Sendable () async -> Void>.makeStream()
        self.continuation = continuation
        Task {
            for await work in stream { await work() }
        }
    }

    func enqueue(_ work: @escaping @Sendable () async -> Void) {
        continuation.yield(work)
    }

    deinit { continuation.finish() }
}
