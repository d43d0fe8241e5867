import FluxShell
import FluxShellAgent
import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS

/// The app's side of a pairing: dials the `fluxsh listen` its code names, over TLS 1.3 pinned to
/// the code's fingerprint, sends the token inside it, and once paired serves the session as a
/// Unix socket's connection is served (`AgentConnection`, its flow control and limits).
///
/// It dials again, waiting longer each time (0.5 s doubling to 30 s, each ±20 %), while the
/// listener cannot be reached; never again once the pairing is over: the session it opened ended
/// (the link lost included: the listener's session ends with it), the listener refused the token,
/// or it showed another certificate than the code's. Each message is said once (the app's
/// standard error).
package final class PairingDialer: AgentLink {
    private struct State {
        var loop: (any EventLoop)?
        var serving: (@Sendable () -> any ChannelHandler)?
        var isStopped = false
        /// The pairing can no longer be used.
        var isOver = false
        /// Dials that failed in a row.
        var failures = 0
        /// The connection being paired or served.
        var channel: (any Channel)?
        var retry: Scheduled<Void>?
        /// What was said already: each message once (at most `saidLimit` kept).
        var said: Set<String> = []
    }

    let code: PairingCode
    let app: String
    private let report: @Sendable (String) -> Void
    private let tls: NIOSSLContext
    private let state = LockedValue(State())

    /// - Parameter report: where the agent says what became of its dials (by default, the app's
    ///   standard error, `ShellAgent 'NAME': …`).
    package init(code: PairingCode, app: String, report: (@Sendable (String) -> Void)? = nil) throws(ShellError) {
        self.code = code
        self.app = app
        self.report = report ?? { message in _ = Platform.write(2, "ShellAgent '\(app)': \(message)\n") }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv13
        // NB: the peer's certificate is checked by its fingerprint alone (the custom callback
        // below); no authority's roots are loaded.
        configuration.certificateVerification = .noHostnameVerification
        configuration.trustRoots = .certificates([])
        configuration.shutdownTimeout = TLSClosing.timeout
        do {
            tls = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ShellError("cannot set up TLS to dial \(code.address): \(error)")
        }
    }

    package func start(on loop: any EventLoop, serving: @escaping @Sendable () -> any ChannelHandler) {
        state.withLock { state in
            state.loop = loop
            state.serving = serving
        }
        dial()
    }

    package func stop() {
        let channel = state.withLock { state -> (any Channel)? in
            state.isStopped = true
            state.retry?.cancel()
            state.retry = nil
            return state.channel
        }
        // NB: a connection that is served is ended by the agent (with `app exited`); one still
        // pairing is closed here.
        channel?.pipeline.handler(type: PairingRequest.self).whenSuccess { _ in channel?.close(promise: nil) }
    }

    // MARK: - Dialing

    private func dial() {
        guard
            let (loop, serving) = state.withLock({ state -> (any EventLoop, @Sendable () -> any ChannelHandler)? in
                state.retry = nil
                guard !state.isStopped, !state.isOver, let loop = state.loop, let serving = state.serving else {
                    return nil
                }
                return (loop, serving)
            })
        else { return }
        let attempt = DialAttempt()
        let code = code
        let tls = tls
        let request = PairingWire.request(token: code.token, app: app)
        LinkOptions.all(forListener: false).reduce(ClientBootstrap(group: loop)) {
            $0.channelOption($1.0, value: SocketOptionValue($1.1))
        }
        .connectTimeout(.seconds(5))
        // NB: the served session reads only while the shell takes its answers (`AgentConnection`).
        .channelOption(ChannelOptions.autoRead, value: false)
        .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let pinned = try NIOSSLClientHandler(
                    context: tls, serverHostname: nil,
                    customVerificationCallback: { certificates, verdict in
                        let shown = certificates.first.flatMap { try? $0.toDERBytes() }
                        if let shown, RunCertificate.fingerprint(of: shown) == code.fingerprint {
                            verdict.succeed(.certificateVerified)
                        } else {
                            attempt.value.isOtherCertificate = true
                            verdict.succeed(.failed)
                        }
                    })
                try channel.pipeline.syncOperations.addHandlers([
                    pinned, LinkWatch(attempt: attempt),
                    PairingRequest(request: request, attempt: attempt, serving: serving),
                ])
            }
        }
        .connect(host: code.host, port: code.port)
        .whenComplete { result in
            switch result {
            case .success(let channel):
                let isStopped = self.state.withLock { state in
                    state.channel = channel
                    return state.isStopped
                }
                if isStopped { channel.close(promise: nil) }
                channel.closeFuture.whenComplete { _ in self.ended(attempt.value) }
            case .failure(let error):
                attempt.value.error = attempt.value.error ?? error
                self.ended(attempt.value)
            }
        }
    }

    /// What became of a dial: the pairing is over, or the agent dials again after a while.
    private func ended(_ attempt: DialAttempt.Outcome) {
        let address = code.address
        let (message, delay) = state.withLock { state -> (String?, TimeAmount?) in
            state.channel = nil
            guard !state.isStopped else { return (nil, nil) }
            if attempt.isOtherCertificate {
                state.isOver = true
                return (
                    "the listener at \(address) shows another certificate than the pairing code's; not dialing it again "
                        + "(pass the code of the fluxsh listen running now)", nil
                )
            }
            if let refusal = attempt.refusal {
                state.isOver = true
                return ("\(address) refused the pairing: \(refusal)", nil)
            }
            // NB: the listener's session ends with its link, and its code served once: a
            // link lost is not dialed again.
            if attempt.isPaired {
                state.isOver = true
                guard let error = attempt.error else {
                    return ("the session with \(address) ended; the pairing is used", nil)
                }
                return (
                    "lost the link to \(address) (\(Self.describe(error))); the pairing is used "
                        + "(pass the code of a new fluxsh listen to attach again)", nil
                )
            }
            state.failures += 1
            let delay = Self.backoff(afterFailures: state.failures)
            let reason =
                if attempt.isConnected {
                    // NB: whether it reset the connection or cut TLS short depends on timing:
                    // one message for both.
                    "\(address) closed the connection before pairing (it is not fluxsh listen, or one that has as many apps pairing as it takes)"
                } else {
                    "cannot reach \(address) (\(Self.describe(attempt.error)))"
                }
            return (reason + "; dialing again", delay)
        }
        if let message { say(message) }
        guard let delay else { return }
        state.withLock { state in
            guard !state.isStopped, let loop = state.loop else { return }
            state.retry = loop.scheduleTask(in: delay) { self.dial() }
        }
    }

    /// Says `message`, unless it was said already (a listener down for an hour is said once).
    private func say(_ message: String) {
        let isNew = state.withLock { state in
            if state.said.count >= Self.saidLimit { state.said.removeAll() }
            return state.said.insert(message).inserted
        }
        if isNew { report(message) }
    }

    static let saidLimit = 64

    /// 0.5 s, doubled after each failure up to 30 s, within ±20 %.
    package static func backoff(afterFailures failures: Int) -> TimeAmount {
        let base = min(30_000, 500 << min(failures - 1, 6))
        return .milliseconds(Int64(Double(base) * Double.random(in: 0.8...1.2)))
    }

    /// An error of a dial, in words.
    static func describe(_ error: (any Error)?) -> String {
        switch error {
        case let error as NIOConnectionError:
            return describe(error.connectionErrors.first?.error ?? error.dnsAAAAError ?? error.dnsAError)
        case let error as IOError: return Platform.describe(errorNumber: error.errnoCode)
        case is ChannelError: return "the connection closed"
        case let error as NIOSSLError:
            if case .uncleanShutdown = error { return "the connection closed" }
            return "TLS: \(error)"
        case let error?: return "\(error)"
        case nil: return "the connection closed"
        }
    }
}

/// What one dial came to, written on its connection's event loop only.
final class DialAttempt: Sendable {
    struct Outcome {
        /// The TCP connection was made.
        var isConnected = false
        var isOtherCertificate = false
        var isPaired = false
        var refusal: String?
        var error: (any Error)?
    }

    private let outcome = LockedValue(Outcome())

    var value: Outcome {
        get { outcome.withLock { $0 } }
        set { outcome.withLock { $0 = newValue } }
    }
}

/// Keeps the first error of a connection, for what the agent says of it, and passes it on.
final class LinkWatch: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let attempt: DialAttempt

    init(attempt: DialAttempt) { self.attempt = attempt }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if attempt.value.error == nil { attempt.value.error = error }
        context.fireErrorCaught(error)
    }
}

/// Sends the app's pairing line once TLS is up and reads the listener's answer; once paired, puts
/// the agent's connection in its place and hands it what came after the answer.
final class PairingRequest: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let request: String
    private let attempt: DialAttempt
    private let serving: @Sendable () -> any ChannelHandler
    private var answer = FirstLine()
    private var deadline: Scheduled<Void>?
    private var isWaiting = false

    init(request: String, attempt: DialAttempt, serving: @escaping @Sendable () -> any ChannelHandler) {
        self.request = request
        self.attempt = attempt
        self.serving = serving
    }

    func channelActive(context: ChannelHandlerContext) {
        attempt.value.isConnected = true
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: PairingWire.deadline) { channel.close(promise: nil) }
        context.fireChannelActive()
        context.read()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case TLSUserEvent.handshakeCompleted = event {
            isWaiting = true
            var line = context.channel.allocator.buffer(capacity: request.utf8.count + 1)
            line.writeString(request + "\n")
            context.writeAndFlush(NIOAny(line), promise: nil)
            context.read()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard isWaiting else { return }
        var bytes = unwrapInboundIn(data)
        switch answer.take(&bytes) {
        case .waiting:
            break
        case .tooLong:
            return refused(context, "the listener answered a line over \(PairingWire.lineLimit) bytes")
        case .line(let line, let rest):
            switch PairingWire.parseAnswer(line) {
            case .paired:
                isWaiting = false
                deadline?.cancel()
                attempt.value.isPaired = true
                do {
                    try context.pipeline.syncOperations.addHandler(serving(), position: .after(self))
                } catch {
                    return context.close(promise: nil)
                }
                if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            case .refused(let reason):
                refused(context, reason)
            case .garbled:
                refused(context, "what answered is not fluxsh listen")
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if isWaiting { context.read() }
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func refused(_ context: ChannelHandlerContext, _ reason: String) {
        isWaiting = false
        attempt.value.refusal = reason
        context.close(promise: nil)
    }
}
