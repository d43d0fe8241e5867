#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which thread is running: how a live store tells the shell's own actions, delivered on the
/// thread that dispatched them, from the app's, delivered on the app's threads.
@usableFromInline
package struct ThreadIdentity: Equatable {
    @usableFromInline package let thread: pthread_t

    @usableFromInline package init(thread: pthread_t) { self.thread = thread }

    /// The calling thread.
    @inlinable package static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    @inlinable package static func == (left: ThreadIdentity, right: ThreadIdentity) -> Bool {
        pthread_equal(left.thread, right.thread) != 0
    }

    /// The thread as one word, to keep in an atomic; never 0.
    package var word: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: thread)
        #else
            UInt(thread)
        #endif
    }
}
