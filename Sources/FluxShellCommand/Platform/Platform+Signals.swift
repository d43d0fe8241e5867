#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A signal handler: it may only do what is async-signal-safe (an atomic store, a write(2)).
typealias SignalHandler = @convention(c) (Int32) -> Void

extension Platform {
    /// Whether a child that died by `number` was asked to stop (Ctrl-C or SIGTERM), rather than
    /// trapped or crashed.
    static func isStopSignal(_ number: Int32) -> Bool { number == SIGINT || number == SIGTERM }

    /// Whether `number` is what a Swift runtime trap raises (an overflow, `nil` force-unwrapped, an
    /// index out of range).
    static func isRuntimeTrap(_ number: Int32) -> Bool { number == SIGILL || number == SIGTRAP }

    /// Calls `handler` on Ctrl-C and on SIGTERM instead of ending the process.
    static func onStopSignals(_ handler: SignalHandler) {
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }

    /// Calls `handler` when the process traps or crashes (SIGILL, SIGTRAP, SIGABRT, SIGFPE,
    /// SIGSEGV, SIGBUS). The handler ends with ``dieBy(_:)``.
    static func onTraps(_ handler: SignalHandler) {
        for trap in [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSEGV, SIGBUS] { signal(trap, handler) }
    }

    /// From a signal handler: dies by signal `number` with its default action, as if unhandled,
    /// so that a parent sees the same signal.
    static func dieBy(_ number: Int32) {
        signal(number, SIG_DFL)
        raise(number)
    }
}
