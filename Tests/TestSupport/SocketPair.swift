#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected pair of stream sockets (`socketpair(2)`): what a test writes to when it needs a
/// connection whose reader can go away. A socket, not a pipe: another test starting a process at
/// the same moment holds a copy of every descriptor until its child runs, which would keep a
/// pipe's reader alive, but a socket's shutdown is the connection's, whoever holds a copy of it.
package enum SocketPair {
    package struct Failed: Error, CustomStringConvertible {
        package let errno: Int32
        package var description: String { "socketpair failed: errno \(errno)" }
    }

    package static func connected() throws -> (reader: Int32, writer: Int32) {
        var ends: [Int32] = [0, 0]
        #if canImport(Darwin)
            let stream = SOCK_STREAM
        #else
            let stream = Int32(SOCK_STREAM.rawValue)
        #endif
        guard socketpair(AF_UNIX, stream, 0, &ends) == 0 else { throw Failed(errno: errno) }
        return (ends[0], ends[1])
    }

    /// Shuts down reading at `reader` and closes it: writes at the other end fail from now on.
    /// Whether the shutdown succeeded.
    package static func breakReading(_ reader: Int32) -> Bool {
        let shutDown = shutdown(reader, Int32(SHUT_RD)) == 0
        close(reader)
        return shutDown
    }
}
