import FluxShellTestSupport
import Testing

@testable import FluxShellSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to a pipe whose reader is gone fail with EPIPE: the process is not killed by SIGPIPE,
/// and the thread's signal mask and pending signals are as they were.
struct OutputFileTests {
    /// A connection whose reader has shut down reading: a write to it fails as a write to a
    /// pipe without reader does (EPIPE, and SIGPIPE unless kept away).
    static func brokenPipe() throws -> OutputFile {
        let ends = try SocketPair.connected()
        #expect(SocketPair.breakReading(ends.reader))
        return OutputFile(descriptor: ends.writer)
    }

    @Test func aPipeWithoutReaderIsAFailedWriteNotASignal() throws {
        let file = try Self.brokenPipe()
        defer { file.close() }
        #expect(file.write("load shop\n") == EPIPE)
        #expect(file.write("again\n") == EPIPE)
        #expect(OutputFile.reason(EPIPE) == "broken pipe")
    }

    #if os(Linux)
        static func isBlocked(_ signal: Int32) -> Bool {
            var mask = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &mask)
            return sigismember(&mask, signal) == 1
        }

        static func isPending(_ signal: Int32) -> Bool {
            var pending = sigset_t()
            sigpending(&pending)
            return sigismember(&pending, signal) == 1
        }

        /// Takes a pending SIGPIPE, if there is one, without waiting.
        static func takePendingBrokenPipe() -> Bool {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGPIPE)
            var noWait = timespec(tv_sec: 0, tv_nsec: 0)
            return sigtimedwait(&set, nil, &noWait) == SIGPIPE
        }

        @Test func theThreadsMaskIsRestoredAndNoSignalIsLeftPending() throws {
            let file = try Self.brokenPipe()
            defer { file.close() }
            let wasBlocked = Self.isBlocked(SIGPIPE)
            #expect(file.write("x\n") == EPIPE)
            #expect(Self.isBlocked(SIGPIPE) == wasBlocked)
            #expect(!Self.isPending(SIGPIPE))
        }

        /// An app that blocks SIGPIPE itself (to `sigwait` for it) sees none from the recorder's
        /// writes, but keeps one that was pending before.
        @Test func aThreadBlockingTheSignalGetsNoneFromTheWriteAndKeepsItsOwn() throws {
            let file = try Self.brokenPipe()
            defer { file.close() }
            var brokenPipe = sigset_t()
            sigemptyset(&brokenPipe)
            sigaddset(&brokenPipe, SIGPIPE)
            var previous = sigset_t()
            pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
            defer {
                _ = Self.takePendingBrokenPipe()
                pthread_sigmask(SIG_SETMASK, &previous, nil)
            }

            #expect(file.write("x\n") == EPIPE)
            #expect(Self.isBlocked(SIGPIPE))
            #expect(!Self.isPending(SIGPIPE))

            #expect(pthread_kill(pthread_self(), SIGPIPE) == 0)
            #expect(file.write("y\n") == EPIPE)
            #expect(Self.isBlocked(SIGPIPE))
            #expect(Self.isPending(SIGPIPE))
            #expect(Self.takePendingBrokenPipe())
            #expect(!Self.isPending(SIGPIPE))
        }
    #endif
}
