import Dispatch
import FluxShell
import NIOCore
import NIOPosix
import NIOSSL

/// `fluxsh listen`'s side of a pairing: a TCP listener with a certificate made for the run, and
/// the one app that shows the code's token inside TLS joined to a socket the shell reads as it
/// reads an app's Unix socket (reference: "Attaching across hosts").
///
/// A peer is refused, with nothing of the session sent to it, when it does not finish TLS 1.3 and
/// its pairing line within 10 s, sends something else, shows a wrong token, or shows the token
/// once it was used; at most 16 peers are pairing at once, and the rest are closed at once.
public final class PairingListener: PairingServing, PairingListening {
    public let code: String
    package let pairingCode: PairingCode
    private let group: MultiThreadedEventLoopGroup
    private let pairing: Pairing

    public static func listen(address: String?, port: Int?, refused: @escaping @Sendable (String) -> Void)
        throws(ShellError) -> any PairingListening
    {
        try PairingListener(address: address ?? "127.0.0.1", port: port ?? 0, refused: refused)
    }

    package init(address: String, port: Int, refused: @escaping @Sendable (String) -> Void) throws(ShellError) {
        if ["0.0.0.0", "::", "[::]", "*"].contains(address) {
            throw ShellError(
                "--address \(address) is every interface, not an address an app can dial",
                hint: "give this machine's address on the network the app is on (see: ip -4 addr)")
        }
        let certificate = try RunCertificate.make()
        var generator = SystemRandomNumberGenerator()
        let token = (0..<PairingCode.tokenSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let tls: NIOSSLContext
        do {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: [.certificate(certificate.certificate)], privateKey: .privateKey(certificate.key))
            configuration.minimumTLSVersion = .tlsv13
            configuration.shutdownTimeout = TLSClosing.timeout
            tls = try NIOSSLContext(configuration: configuration)
        } catch {
            throw ShellError("cannot set up TLS to listen: \(error)")
        }
        let pairing = Pairing(token: token, refused: refused)
        self.pairing = pairing
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.group = group
        let host = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        let bound: Int
        do {
            let bootstrap = LinkOptions.all(forListener: true).reduce(ServerBootstrap(group: group)) {
                $0.childChannelOption($1.0, value: SocketOptionValue($1.1))
            }
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            // NB: out of descriptors, `accept` fails at once each time: a pause, not a spinning core.
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPause())
                }
            }
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            // NB: a peer is read only while it pairs, and then as fast as the shell reads it (`Splice`).
            .childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandlers([
                        NIOSSLServerHandler(context: tls), PairingGate(pairing, peer: channel.remoteAddress),
                    ])
                }
            }
            let server = try bootstrap.bind(host: host, port: port).wait()
            bound = server.localAddress?.port ?? port
            pairingCode = PairingCode(host: host, port: bound, token: token, fingerprint: certificate.fingerprint)
            code = pairingCode.text
        } catch let error as IOError where Platform.isAddressInUse(error.errnoCode) {
            try? group.syncShutdownGracefully()
            throw ShellError(
                "cannot listen on \(address):\(port): the port is taken", hint: "choose another with --port")
        } catch {
            try? group.syncShutdownGracefully()
            throw ShellError("cannot listen on \(address):\(port): \(PairingDialer.describe(error))")
        }
    }

    public func waitForApp() -> (descriptor: Int32, app: String) { pairing.waitForApp() }

    /// The app paired within `seconds`, or nil (for the package's tests).
    package func waitForApp(seconds: Int) -> (descriptor: Int32, app: String)? { pairing.waitForApp(seconds: seconds) }
}

/// The one pairing a code serves: its token, the connections pairing now, and the app that paired;
/// what each connection's gate asks, made before the listener listens.
final class Pairing: Sendable {
    /// At most this many connections are being paired at once.
    static let limit = 16

    private struct State {
        var pairing = 0
        var isUsed = false
        var paired: (descriptor: Int32, app: String)?
    }

    private let token: [UInt8]
    private let refused: @Sendable (String) -> Void
    private let state = LockedValue(State())
    private let pairedSignal = DispatchSemaphore(value: 0)

    init(token: [UInt8], refused: @escaping @Sendable (String) -> Void) {
        self.token = token
        self.refused = refused
    }

    func waitForApp() -> (descriptor: Int32, app: String) {
        pairedSignal.wait()
        return state.withLock { $0.paired! }
    }

    func waitForApp(seconds: Int) -> (descriptor: Int32, app: String)? {
        guard pairedSignal.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
        return state.withLock { $0.paired }
    }

    /// Counts a connection that begins to pair: false when as many as the limit are pairing.
    func admit() -> Bool {
        state.withLock { state in
            guard state.pairing < Self.limit else { return false }
            state.pairing += 1
            return true
        }
    }

    func leftPairing() { state.withLock { $0.pairing -= 1 } }

    /// The session could not be opened for the app that showed the token: it may pair again.
    func unuse() { state.withLock { $0.isUsed = false } }

    /// Whether `token` is the code's and unused; the first app that shows it uses it.
    func use(_ token: [UInt8]) -> Result<Void, Refusal> {
        guard PairingWire.sameToken(token, self.token) else { return .failure(.wrongToken) }
        return state.withLock { state in
            guard !state.isUsed else { return .failure(.used) }
            state.isUsed = true
            return .success(())
        }
    }

    /// The session with `app` is open on `descriptor`: `waitForApp()` returns it.
    func paired(_ descriptor: Int32, app: String) {
        state.withLock { $0.paired = (descriptor, app) }
        pairedSignal.signal()
    }

    func refuse(_ peer: String, _ reason: String) { refused("refused \(peer): \(reason)") }

    /// Why a peer that showed a token is refused.
    enum Refusal: Error {
        case wrongToken
        case used

        var reason: String {
            switch self {
            case .wrongToken: "refused: the pairing token is wrong"
            case .used: "refused: the pairing code was used already (fluxsh listen prints a new one each time it runs)"
            }
        }
    }
}

/// A connection to the listener until it is paired: reads the app's pairing line inside TLS and
/// checks its token; once paired, joins it to the shell's socket (`Splice`) and goes.
final class PairingGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Where the connection is: pairing (reading its line), refused (its reason said; nothing
    /// more is read), or joined to the shell.
    private enum Phase {
        case pairing
        case refused
        case joined
    }

    private let pairing: Pairing
    private let peer: String
    private var line = FirstLine()
    private var isAdmitted = false
    private var phase = Phase.pairing
    private var deadline: Scheduled<Void>?
    /// What ended the pairing, said when the connection closes (an error, the deadline).
    private var failure: String?

    init(_ pairing: Pairing, peer: SocketAddress?) {
        self.pairing = pairing
        self.peer = peer.map(Self.describe) ?? "a peer"
    }

    static func describe(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return PairingCode.address(host: ip, port: port)
    }

    func channelActive(context: ChannelHandlerContext) {
        guard pairing.admit() else {
            pairing.refuse(peer, "\(Pairing.limit) connections are pairing already")
            phase = .refused
            return context.close(promise: nil)
        }
        isAdmitted = true
        let channel = context.channel
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: PairingWire.deadline) {
            bound.value.failure = bound.value.failure ?? "no pairing line within 10 s"
            channel.close(promise: nil)
        }
        context.fireChannelActive()
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard phase == .pairing else { return }
        var bytes = unwrapInboundIn(data)
        switch line.take(&bytes) {
        case .waiting:
            break
        case .tooLong:
            refuse(context, "a pairing line over \(PairingWire.lineLimit) bytes", tell: "refused: not a pairing line")
        case .line(let text, let rest):
            guard let request = PairingWire.parseRequest(text) else {
                return refuse(context, "not a pairing line", tell: "refused: not a pairing line")
            }
            switch pairing.use(request.token) {
            case .failure(let refusal):
                refuse(context, refusal == .used ? "the code was used already" : "a wrong token", tell: refusal.reason)
            case .success:
                join(context, app: String(request.app.prefix(100)), rest: rest)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if phase == .pairing { context.read() }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if phase == .pairing, failure == nil {
            failure =
                error is NIOSSLError
                ? "no TLS with this listener's certificate (not an app dialing its pairing code): \(error)"
                : PairingDialer.describe(error)
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        if isAdmitted { pairing.leftPairing() }
        isAdmitted = false
        if phase == .pairing { pairing.refuse(peer, failure ?? "it closed the connection before pairing") }
        phase = .refused
        context.fireChannelInactive()
    }

    /// Says why in one frame inside TLS, and closes; nothing more the peer sends is read.
    ///
    /// NB: the close waits for the peer's `close_notify` only as long as `TLSClosing.timeout`, and
    /// reads nothing meanwhile: a peer that keeps sending is not read on.
    private func refuse(_ context: ChannelHandlerContext, _ reason: String, tell: String) {
        phase = .refused
        deadline?.cancel()
        pairing.refuse(peer, reason)
        let line = AttachWire.Frame.bye(tell).line + "\n"
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: line))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    /// Answers the app, and joins its connection to a new socket whose other end the shell reads.
    private func join(_ context: ChannelHandlerContext, app: String, rest: ByteBuffer) {
        let pairing = pairing
        guard let (mine, theirs) = Platform.socketPair() else {
            pairing.unuse()
            return refuse(context, "no socket for the session", tell: "refused: the listener cannot open a session")
        }
        phase = .joined
        deadline?.cancel()
        if isAdmitted { pairing.leftPairing() }
        isAdmitted = false
        let answer = PairingWire.paired(app) + "\n"
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)), promise: nil)
        let appChannel = context.channel
        // NB: the shell's side is made on this event loop, which runs the initializer and the
        // completion below: the ends and the context never leave it.
        let bound = NIOLoopBound(
            (context: context, gate: self, splice: Splice.pair()), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(bound.value.splice.shell)
                }
            }
            .withConnectedSocket(mine)
            .whenComplete { result in
                let (context, gate, splice) = bound.value
                let appSide = splice.app
                // NB: a join that fails uses no token: the app dials again and pairs.
                guard case .success(let shellChannel) = result else {
                    pairing.unuse()
                    Platform.closeDescriptor(theirs)
                    return appChannel.close(promise: nil)
                }
                do {
                    try context.pipeline.syncOperations.addHandler(appSide, position: .after(gate))
                } catch {
                    pairing.unuse()
                    shellChannel.close(promise: nil)
                    Platform.closeDescriptor(theirs)
                    return appChannel.close(promise: nil)
                }
                if rest.readableBytes > 0 { context.fireChannelRead(NIOAny(rest)) }
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                appChannel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
                pairing.paired(theirs, app: app)
            }
    }
}
