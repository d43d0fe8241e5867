#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
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

    /// Calls `handler` on Ctrl-C and on SIGTERM instead of ending the process.
    package static func onStopSignals(_ handler: SignalHandler) {
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }

    /// The signals a trap or a crash raises: a Swift runtime check (SIGILL on x86-64, SIGTRAP on
    /// arm64), `abort()` (SIGABRT), and bad memory or arithmetic (SIGSEGV, SIGBUS, SIGFPE).
    private static let traps = [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSEGV, SIGBUS]

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
