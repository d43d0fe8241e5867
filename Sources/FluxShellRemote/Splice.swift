import FluxShell
import NIOCore
import NIOSSL

/// Joins an app's TLS connection to the socket the listening shell reads as an attached session:
/// bytes pass both ways as they come, each side read only while the other takes what it is given,
/// and each end (a half-close, a close) passed on.
///
/// The app's side says how its link ended: when it ends with an error rather than the agent's last
/// word, the shell is sent a `bye` that says `app exited unexpectedly` (the app's host closed it:
/// the app was killed or crashed) or `app disconnected` (its host stopped answering: the network).
///
/// NB: both connections are on one event loop (the listener's): NIO calls each handler, and each
/// handler its partner, on it only.
final class Splice: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Whether this side faces the app (the TLS connection) or the shell.
    private let facesApp: Bool
    private var partner: Splice?
    private var context: ChannelHandlerContext?
    /// A read was asked for while the partner could take no more.
    private var readWaits = false
    /// The last byte the app sent ended a line (what the shell is told after it starts a line).
    private var atLineStart = true
    /// How the app's link ended, when it ended with an error.
    private var failure: String?

    private init(facesApp: Bool) { self.facesApp = facesApp }

    /// The two ends, each the other's partner.
    static func pair() -> (app: Splice, shell: Splice) {
        let app = Splice(facesApp: true)
        let shell = Splice(facesApp: false)
        app.partner = shell
        shell.partner = app
        return (app, shell)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        // NB: the side added first may have been asked to read before this side could take it.
        if let partner, partner.readWaits, context.channel.isWritable {
            partner.readWaits = false
            partner.context?.read()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        partner = nil
    }

    // MARK: - What this side reads, to the partner

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        if facesApp, let last = bytes.readableBytesView.last { atLineStart = last == 0x0A }
        partner?.write(bytes)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        partner?.context?.flush()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event { partner?.close(.output) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // NB: said at once: the end of the app's input, passed on next, closes what the shell reads.
        if facesApp, failure == nil, let shell = partner {
            let failure = Self.reason(error)
            self.failure = failure
            shell.write(ByteBuffer(string: (atLineStart ? "" : "\n") + AttachWire.Frame.bye(failure).line + "\n"))
            shell.context?.flush()
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        partner?.close(.all)
        context.fireChannelInactive()
    }

    /// Closes this side (or its output) once what it was given is written: a close fails the
    /// writes still waiting, and the last of the app's lines (its `bye`) may wait for a shell that
    /// reads slowly.
    private func close(_ mode: CloseMode) {
        guard let context else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in
            channel.close(mode: mode, promise: nil)
        }
    }

    // MARK: - Backpressure

    func read(context: ChannelHandlerContext) {
        if partner?.context?.channel.isWritable ?? false {
            context.read()
        } else {
            readWaits = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let partner, partner.readWaits {
            partner.readWaits = false
            partner.context?.read()
        }
        context.fireChannelWritabilityChanged()
    }

    private func write(_ bytes: ByteBuffer) {
        context?.write(wrapOutboundOut(bytes), promise: nil)
    }

    /// How an app's link that ended with `error` is described to the shell.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let error as NIOSSLError:
            if case .uncleanShutdown = error { AttachWire.appExitedUnexpectedly } else { AttachWire.appDisconnected }
        case let error as IOError where Platform.isConnectionReset(error.errnoCode): AttachWire.appExitedUnexpectedly
        default: AttachWire.appDisconnected
        }
    }
}
