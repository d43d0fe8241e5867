import FluxShell
import NIOCore

/// The TCP options of a link between an app and `fluxsh listen`: a peer whose host no longer
/// answers (a network lost, a phone out of range) is noticed, so that the shell says `app
/// disconnected`.
///
/// Both ends send keep-alive probes from 2 s of silence, every second, 3 unanswered: a link lost
/// while idle ends in about 5 s. The listener's end also gives up on data unacknowledged for 6 s
/// (Linux's `TCP_USER_TIMEOUT`, which then also bounds the keep-alive), so a shell whose command
/// was on its way when the link went says so as soon.
///
/// NB: not the app's end: Linux counts a window held shut against that timeout too, and the app's
/// data waits, window shut, for a shell that does not read, which may leave it unread for 60 s
/// before the agent ends its session (reference: "What the app pays"). The app's end notices a
/// link lost while it sends by its system's retransmission limit.
enum LinkOptions {
    static let idleSeconds: Int32 = 2
    static let probeSeconds: Int32 = 1
    static let probes: Int32 = 3
    static let unacknowledgedMilliseconds: Int32 = 6_000

    /// The options of the listener's end (`forListener`) or the app's, as NIO sets them on a socket.
    static func all(forListener: Bool) -> [(ChannelOptions.Types.SocketOption, Int32)] {
        func tcp(_ name: Int32) -> ChannelOptions.Types.SocketOption {
            ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
        }
        let names = Platform.tcpKeepAliveOptions
        var options: [(ChannelOptions.Types.SocketOption, Int32)] = [
            (ChannelOptions.Types.SocketOption(level: .socket, name: .so_keepalive), 1),
            (tcp(names.idle), idleSeconds), (tcp(names.interval), probeSeconds), (tcp(names.count), probes),
        ]
        if forListener, let userTimeout = names.userTimeout {
            options.append((tcp(userTimeout), unacknowledgedMilliseconds))
        }
        return options
    }
}
