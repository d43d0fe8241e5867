#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A copy of this process that runs code which may trap, so that a trap ends the copy and not the
/// session: editing the past replays a store's reducer over steps it never saw in that order
/// ("Editing the past" in the reference), and a reducer that traps there (an index out of range
/// once an earlier step is skipped) must refuse the edit, not end the shell.
extension ChildProcess {
    /// Whether this process may be copied to probe code that may trap: set by the shell's
    /// executable (`FluxShellMain.run`). Off elsewhere: a test process runs tests on many threads
    /// at once, each making the runtime's type records for the first time, and a copy made while
    /// one of them holds the lock of such a record waits for it until its time runs out.
    package static var mayProbe: Bool {
        get { probing.withLock { $0 } }
        set { probing.withLock { $0 = newValue } }
    }
    private static let probing = LockedValue(false)

    /// How a probe ended.
    package enum ProbeEnding: Equatable {
        /// The code ran to its end.
        case finished
        /// It trapped: the fatal error line it wrote, else what the signal says; and the last
        /// mark it made before.
        case trapped(cause: String, mark: Int)
        /// It ran past the time limit and was stopped, at its last mark.
        case timedOut(mark: Int)
    }

    /// Runs `body` in a copy of this process (fork(2), which has only the calling thread) and
    /// waits for it, at most `seconds`. `body` passes `mark` a number (the step it replays) that
    /// the ending names. `nil` where the process cannot be copied (Darwin forbids fork(2) to Swift,
    /// and a failed fork): the caller runs without the probe.
    package static func probe(seconds: Int, _ body: (_ mark: (Int) -> Void) -> Void) -> ProbeEnding? {
        #if canImport(Glibc)
            // NB: the mark lives in a page both processes map: the child writes it, the parent
            // reads it once the child has ended. It is one aligned word, written whole.
            guard
                let shared = mmap(
                    nil, MemoryLayout<Int>.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0),
                shared != MAP_FAILED
            else { return nil }
            defer { munmap(shared, MemoryLayout<Int>.size) }
            let markWord = shared.bindMemory(to: Int.self, capacity: 1)
            markWord.pointee = 0
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return nil }
            let pid = fork()
            if pid == 0 {
                // NB: in the child, the one thread left runs only `body` and ends with _exit:
                // no handler of the parent's runs (a trap dies by its signal, the parent reads
                // it), no buffer of the parent's is written out, and what the store prints goes
                // nowhere; standard error, where the runtime writes its fatal error, is the pipe.
                for signal in [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSEGV, SIGBUS, SIGTERM, SIGPIPE] {
                    Glibc.signal(signal, SIG_DFL)
                }
                // NB: Ctrl-C reaches the whole foreground group: the shell decides, not the copy.
                Glibc.signal(SIGINT, SIG_IGN)
                let nowhere = open("/dev/null", O_WRONLY)
                if nowhere >= 0 { dup2(nowhere, 1) }
                dup2(ends[1], 2)
                // NB: no other descriptor stays open in the copy: the write end of another
                // probe's pipe (a scenario beside this one) would hold its end of input back.
                if case .success(let names) = FileSystem.names(in: "/proc/self/fd") {
                    for name in names { if let descriptor = Int32(name), descriptor > 2 { close(descriptor) } }
                }
                body { markWord.pointee = $0 }
                _exit(0)
            }
            close(ends[1])
            defer { close(ends[0]) }
            guard pid > 0 else { return nil }
            var errors: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(seconds)
            var timedOut = false
            // NB: read until the child's end closes the pipe, so that a child that writes much
            // never waits for room.
            while true {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else {
                    timedOut = true
                    kill(pid, SIGKILL)
                    break
                }
                var ready = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
                let milliseconds = Int32(clamping: left.components.seconds * 1000 + 1)
                guard poll(&ready, 1, milliseconds) > 0 else { continue }
                if Platform.read(ends[0], appendingTo: &errors, upTo: 1 << 16) <= 0 { break }
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let mark = markWord.pointee
            if timedOut { return .timedOut(mark: mark) }
            // NB: the wait status: the signal in the low 7 bits, 0 for a normal exit.
            let signal = status & 0x7F
            guard signal != 0 else { return .finished }
            // NB: only a trap or a crash tells of the code; a copy killed otherwise (out of
            // memory) tells nothing.
            guard Platform.isTrap(signal) else { return nil }
            return .trapped(cause: cause(String(decoding: errors, as: UTF8.self), signal: signal), mark: mark)
        #else
            return nil
        #endif
    }
}
