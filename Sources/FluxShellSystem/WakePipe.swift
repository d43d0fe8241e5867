#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pipe that wakes a thread waiting on its read end (the line editor, in `poll`): any thread
/// may ``wake()`` it, at no cost when it is awake already, and the waiting thread ``drain()``s it
/// before it looks at what woke it.
///
/// NB: both ends are non-blocking and closed on `exec`: a wake never blocks the thread that
/// wakes (a pipe that is full has a wake in it already), and a drain never blocks the one
/// that drains. Only this file touches the descriptors; reads and writes go through `Platform`.
package final class WakePipe: Sendable {
    /// The end to wait on.
    package let readEnd: Int32
    private let writeEnd: Int32

    package init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        _ = close(readEnd)
        _ = close(writeEnd)
    }

    /// Makes the read end ready.
    package func wake() { Platform.write(writeEnd, [1]) }

    /// Makes the read end ready every `milliseconds`, from a thread of its own, for as long as the
    /// process runs (what waits on it looks for something then).
    package func wake(everyMilliseconds milliseconds: UInt32) {
        _ = Platform.startThread { [self] in
            while true {
                usleep(milliseconds * 1000)
                wake()
            }
        }
    }

    /// Reads every wake so far.
    package func drain() {
        var bytes: [UInt8] = []
        while Platform.read(readEnd, appendingTo: &bytes, upTo: 64) > 0 { bytes.removeAll(keepingCapacity: true) }
    }
}
