import FluxShell
import NIOCore

/// Stops accepting connections for a second when the process is out of descriptors (or memory for
/// them): `accept` would fail again at once, each time the listening socket is ready, and the
/// agent's thread would spin a core.
///
/// NB: NIO's `AcceptBackoffHandler` only delays the next `read`; the listening socket stays
/// registered for reading after a failed `accept`, so the event loop is woken again at once. Turning
/// `autoRead` off unregisters it until it is turned on again.
///
/// It runs on the server channel's event loop only; the timer reaches it through `NIOLoopBound`.
package final class AcceptPause: ChannelInboundHandler {
    package typealias InboundIn = any Channel
    package typealias InboundOut = any Channel

    static let pause = TimeAmount.seconds(1)
    private var isPaused = false

    package init() {}

    package func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError, Platform.isOutOfResources(error.errnoCode) else {
            return context.fireErrorCaught(error)
        }
        guard !isPaused else { return }
        isPaused = true
        let channel = context.channel
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        context.eventLoop.scheduleTask(in: Self.pause) {
            bound.value.isPaused = false
            channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
        }
    }
}
