import Synchronization

// NB: @preconcurrency, for the C library's `stderr` stream, a global variable that Swift 6
// refuses to read otherwise; this file only reads it, once, on the main thread
// (``Platform/keepFatalErrorLines()``).
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

/// A signal handler: it may only do what is async-signal-safe (an atomic store, a write(2)).
package typealias SignalHandler = @convention(c) (Int32) -> Void

extension Platform {
    /// Whether a child that died by `number` was asked to stop (Ctrl-C or SIGTERM), rather than
    /// trapped or crashed.
    package static func isStopSignal(_ number: Int32) -> Bool { number == SIGINT || number == SIGTERM }

    /// Whether `number` is what a Swift runtime trap raises (an overflow, `nil` force-unwrapped, an
    /// index out of range).
    package static func isRuntimeTrap(_ number: Int32) -> Bool { number == SIGILL || number == SIGTRAP }

    /// What follows a runtime trap's signal when the runtime printed no message (a release
    /// build's failed check): the one wording of piped mode, `run`, `test` and `explore`.
    package static let failedCheck: StaticString =
        ", a failed runtime check: an overflow, a force-unwrapped nil, an index out of range, … (a debug build names it)"

    /// What a signal that ended a process says when the runtime printed no message: `illegal
    /// instruction (SIGILL), a failed runtime check: …`, `segmentation fault (SIGSEGV)`,
    /// `signal 40`.
    package static func deathDescription(_ number: Int32) -> String {
        let named = "\(trapDescription(number, isStackOverflow: false))"
        guard named != "a signal" else { return "signal \(number)" }
        return named + (isRuntimeTrap(number) ? "\(failedCheck)" : "")
    }

    /// The child being waited for, which ``forwardStopSignals()`` passes SIGINT and SIGTERM on to:
    /// 0 when none. Set by the thread that waits for it, before and after the wait. A stop that
    /// came while no child ran (Ctrl-C while `fluxsh` started one) is passed on to the next child
    /// as soon as it is set, so that no Ctrl-C is lost.
    package static var childToStop: pid_t {
        get { StopForwarding.child.load(ordering: .sequentiallyConsistent) }
        set {
            StopForwarding.child.store(newValue, ordering: .sequentiallyConsistent)
            guard newValue > 0 else { return }
            // NB: after the child is set: a stop from now on is passed on by the handler, and one
            // from before is in `pending`, taken once.
            let pending = StopForwarding.pending.exchange(0, ordering: .sequentiallyConsistent)
            if pending != 0 { kill(newValue, pending) }
        }
    }

    /// Passes SIGINT and SIGTERM on to ``childToStop``, so that stopping `fluxsh` stops its child
    /// too (and `fluxsh` sees it end and cleans up); one that comes while no child runs waits for
    /// the next.
    package static func forwardStopSignals() {
        // NB: touched before the handler that reads them is installed, so that the handler never
        // runs a global's first initialization.
        StopForwarding.child.store(0, ordering: .sequentiallyConsistent)
        StopForwarding.pending.store(0, ordering: .sequentiallyConsistent)
        onStopSignals { signal in
            let child = StopForwarding.child.load(ordering: .sequentiallyConsistent)
            if child > 0 {
                kill(child, signal)
            } else {
                StopForwarding.pending.store(signal, ordering: .sequentiallyConsistent)
            }
        }
        receiveStopSignals()
    }

    /// Unblocks SIGINT and SIGTERM in this thread, which a parent may have left blocked (a
    /// program that starts `fluxsh` with its own signals blocked): else Ctrl-C would wait forever.
    package static func receiveStopSignals() {
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
    }

    /// Calls `handler` on Ctrl-C and on SIGTERM instead of ending the process.
    package static func onStopSignals(_ handler: SignalHandler) {
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }

    /// The signals a trap or a crash raises: a Swift runtime check (SIGILL on x86-64, SIGTRAP on
    /// arm64), `abort()` (SIGABRT), and bad memory or arithmetic (SIGSEGV, SIGBUS, SIGFPE).
    private static let traps = [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSEGV, SIGBUS]

    /// Whether `number` is one a trap or a crash raises.
    package static func isTrap(_ number: Int32) -> Bool { traps.contains(number) }

    /// Calls `handler` when the process traps or crashes (SIGILL, SIGTRAP, SIGABRT, SIGFPE,
    /// SIGSEGV, SIGBUS). The handler ends with ``dieBy(_:)``.
    package static func onTraps(_ handler: SignalHandler) {
        for trap in traps { signal(trap, handler) }
    }

    /// A trap handler that runs on a stack of its own: told the signal, and whether the stack of
    /// the thread that installed it ran out (a recursion too deep). It may only do what is
    /// async-signal-safe, and ends the process (``exitAtOnce(_:)``). What it captures is made
    /// before it is installed, and read only.
    package typealias TrapHandler = (_ signal: Int32, _ isStackOverflow: Bool) -> Void

    /// Calls `handler` when the process traps or crashes, as ``onTraps(_:)``, on a stack of its
    /// own for the calling thread, so that it runs even when that thread's stack is exhausted. A
    /// SIGSEGV or SIGBUS at an address in the calling thread's stack, or just past its end, is told
    /// as a stack overflow (where the stack's bounds can be read: Linux). A second trap while the
    /// handler runs ends the process as if unhandled.
    package static func onTrapsOnOwnStack(_ handler: @escaping TrapHandler) {
        #if canImport(Glibc)
            TrapStack.handler = handler
            TrapStack.overflowAddresses = TrapStack.stackAddresses()
            // NB: the handler's stack: allocated once and never freed, as the process may trap at
            // any time until it ends. 64 KiB is ample for a handler that writes a few lines.
            let size = 1 << 16
            var alternate = stack_t()
            alternate.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            alternate.ss_size = size
            alternate.ss_flags = 0
            sigaltstack(&alternate, nil)
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { number, info, _ in
                // NB: the fault's address, read from the kernel's record of the signal: the
                // `si_addr` of a SIGSEGV or SIGBUS (C's macro for this union member).
                let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
                let isStackOverflow =
                    (number == SIGSEGV || number == SIGBUS) && TrapStack.overflowAddresses.contains(address)
                TrapStack.handler?(number, isStackOverflow)
            }
            // NB: every trap is blocked while the handler runs, and its own is reset to the
            // default: a trap in the handler ends the process as if unhandled, never re-enters it.
            action.sa_flags = SA_SIGINFO | SA_ONSTACK | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigemptyset(&action.sa_mask)
            for trap in traps { sigaddset(&action.sa_mask, trap) }
            for trap in traps { sigaction(trap, &action, nil) }
        #else
            TrapStack.handler = handler
            onTraps { number in TrapStack.handler?(number, false) }
        #endif
    }

    /// What a trap's signal says, for a report that has no message of the runtime's: `illegal
    /// instruction (SIGILL)`, `stack overflow (SIGSEGV)`. Async-signal-safe.
    package static func trapDescription(_ number: Int32, isStackOverflow: Bool) -> StaticString {
        if isStackOverflow { return number == SIGBUS ? "stack overflow (SIGBUS)" : "stack overflow (SIGSEGV)" }
        switch number {
        case SIGILL: return "illegal instruction (SIGILL)"
        case SIGTRAP: return "trace trap (SIGTRAP)"
        case SIGABRT: return "abort (SIGABRT)"
        case SIGFPE: return "arithmetic exception (SIGFPE)"
        case SIGSEGV: return "segmentation fault (SIGSEGV)"
        case SIGBUS: return "bus error (SIGBUS)"
        default: return "a signal"
        }
    }

    /// Ends the process with `status` at once, as a signal handler may: no exit handlers run and
    /// no C stream is flushed (`_exit`).
    package static func exitAtOnce(_ status: Int32) -> Never { _exit(status) }

    /// From a signal handler: dies by signal `number` with its default action, as if unhandled,
    /// so that a parent sees the same signal.
    package static func dieBy(_ number: Int32) {
        signal(number, SIG_DFL)
        raise(number)
    }
}

/// What ``Platform/forwardStopSignals()``'s handler reads and writes: atomics, which a signal
/// handler may use (lock-free loads and stores are async-signal-safe).
private enum StopForwarding {
    static let child = Atomic<pid_t>(0)
    /// A stop signal that came while no child ran; 0 when none.
    static let pending = Atomic<Int32>(0)
}

/// What ``Platform/onTrapsOnOwnStack(_:)`` keeps for its handler.
private enum TrapStack {
    /// NB: nonisolated(unsafe) is safe: both are set by the installing thread before the signal
    /// handler that reads them is installed, and never written again.
    nonisolated(unsafe) static var handler: Platform.TrapHandler?
    nonisolated(unsafe) static var overflowAddresses: Range<UInt> = 0..<0

    #if canImport(Glibc)
        /// The addresses whose fault means that the calling thread's stack ran out: its stack, which
        /// faults only where it may not grow, and 1 MiB past its end (a large frame skips past
        /// it); empty when its bounds cannot be read.
        static func stackAddresses() -> Range<UInt> {
            // NB: `pthread_getattr_np` is declared only with _GNU_SOURCE, which the Glibc module is
            // not built with, but every glibc has it: called through its symbol, with its C type.
            // It reads the thread's stack (the main thread's from /proc/self/maps and its limit).
            typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
            guard let symbol = dlsym(nil, "pthread_getattr_np") else { return 0..<0 }
            let getAttributes = unsafeBitCast(symbol, to: GetAttributes.self)
            var attributes = pthread_attr_t()
            guard getAttributes(pthread_self(), &attributes) == 0 else { return 0..<0 }
            defer { pthread_attr_destroy(&attributes) }
            var lowest: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &lowest, &size) == 0, let lowest else { return 0..<0 }
            let low = UInt(bitPattern: lowest)
            let margin: UInt = 1 << 20
            return (low > margin ? low - margin : 0)..<(low + UInt(size))
        }
    #endif
}

// MARK: - The runtime's fatal error line

extension Platform {
    /// How many bytes of the runtime's last line on standard error are kept: a longer line is not
    /// found by ``appendFatalErrorLine(to:)``.
    package static let fatalErrorLineLimit = 4096

    /// Keeps what the Swift runtime writes to standard error, so that a trap handler can read its
    /// fatal error (`Swift/IntegerTypes.swift:9012: Fatal error: Division by zero`, written just
    /// before it traps), which is otherwise only in the pipe: the C library's `stderr` stream, the
    /// runtime's (`fputs` then `fflush`), is made line-buffered into memory of ours.
    ///
    /// Nothing changes in what is written, nor when: each line is written as it ends (the runtime
    /// flushes each message anyway; the shell's own errors never go through `stderr`). A stream's
    /// buffer is not cleared when it is written out, so it still holds the last line, from its
    /// start.
    package static func keepFatalErrorLines() {
        // NB: the stream's buffer: allocated once, zeroed, and never freed, as `stderr` uses it
        // until the process ends. The C stream writes it as `char`, this file reads it as bytes:
        // signed and unsigned bytes may alias.
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: fatalErrorLineLimit)
        buffer.initialize(repeating: 0, count: fatalErrorLineLimit)
        let characters = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self)
        guard setvbuf(stderr, characters, _IOLBF, fatalErrorLineLimit) == 0 else { return }
        FatalErrorLine.buffer = UnsafeBufferPointer(start: buffer, count: fatalErrorLineLimit)
    }

    /// From a trap handler: appends the runtime's last line on standard error (without its
    /// newline) to `message` when it is a fatal error; `false` when there is none, as after a
    /// release build's failed check, which prints nothing, or when the runtime printed its own
    /// stack trace after the message (`SWIFT_BACKTRACE=enable=no`). Async-signal-safe: reads memory
    /// of ours, allocates nothing when `message` has room for ``fatalErrorLineLimit`` bytes.
    package static func appendFatalErrorLine(to message: inout OutputBuffer) -> Bool {
        guard let buffer = FatalErrorLine.buffer else { return false }
        // NB: the line starts the buffer (the stream writes each line from its start); bytes
        // after its newline are left from longer lines before it.
        let end = buffer.firstIndex { $0 == 0x0A || $0 == 0 } ?? buffer.count
        let line = UnsafeBufferPointer(rebasing: buffer[..<end])
        let isFatalError = ("Fatal error" as StaticString).withUTF8Buffer { mark in
            line.count >= mark.count
                && (0...(line.count - mark.count)).contains { start in
                    (0..<mark.count).allSatisfy { line[start + $0] == mark[$0] }
                }
        }
        guard isFatalError else { return false }
        message.append(line)
        return true
    }
}

/// The memory of ``Platform/keepFatalErrorLines()``.
private enum FatalErrorLine {
    /// NB: nonisolated(unsafe) is safe: set once before any trap handler is installed, then only
    /// read; the bytes it points to are written by the C stream on the thread that writes.
    nonisolated(unsafe) static var buffer: UnsafeBufferPointer<UInt8>?
}
