#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which thread is running: how a live store tells the shell's own actions, delivered on the
/// thread that dispatched them, from the app's, delivered on the app's threads.
struct ThreadIdentity: Equatable {
    private let thread: pthread_t

    /// The calling thread.
    static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    static func == (left: ThreadIdentity, right: ThreadIdentity) -> Bool {
        pthread_equal(left.thread, right.thread) != 0
    }
}
