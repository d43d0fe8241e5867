import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The TCP options of a link between an app and `fluxsh listen`, on both ends: a peer whose host
/// no longer answers (a network lost, a phone out of range) is noticed within seconds, idle or
/// not, so that the shell says `app disconnected` and the agent dials again.
///
/// Keep-alive probes from 2 s of silence, every second, 3 unanswered: about 5 s when idle. Data
/// unacknowledged for 6 s ends the connection too (Linux's `TCP_USER_TIMEOUT`; elsewhere the
/// system's retransmission limit applies).
enum LinkOptions {
    static let idleSeconds: Int32 = 2
    static let probeSeconds: Int32 = 1
    static let probes: Int32 = 3
    static let unacknowledgedMilliseconds: Int32 = 6_000

    /// The options, as NIO sets them on a socket.
    static var all: [(ChannelOptions.Types.SocketOption, Int32)] {
        func tcp(_ name: Int32) -> ChannelOptions.Types.SocketOption {
            ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
        }
        var options: [(ChannelOptions.Types.SocketOption, Int32)] = [
            (ChannelOptions.Types.SocketOption(level: .socket, name: .so_keepalive), 1),
            (tcp(TCP_KEEPINTVL), probeSeconds), (tcp(TCP_KEEPCNT), probes),
        ]
        #if canImport(Darwin)
            options.append((tcp(TCP_KEEPALIVE), idleSeconds))
        #else
            options.append((tcp(TCP_KEEPIDLE), idleSeconds))
            options.append((tcp(Int32(TCP_USER_TIMEOUT)), unacknowledgedMilliseconds))
        #endif
        return options
    }
}
