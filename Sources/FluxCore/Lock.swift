#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex on the heap, so that its address never moves.
///
/// NB: `Synchronization.Mutex` is not recursive, and the dispatcher needs a lock that the
/// delivering thread can take again (a handler that registers, or dispatches a follow-up).
@usableFromInline
final class PlatformLock: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: the only stored property is the mutex itself, which exists
    // to be shared between threads, and it is never reassigned.
    @usableFromInline
    let mutex: UnsafeMutablePointer<pthread_mutex_t>

    @usableFromInline
    init(recursive: Bool) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(
            &attributes, Int32(recursive ? PTHREAD_MUTEX_RECURSIVE : PTHREAD_MUTEX_NORMAL))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inlinable @inline(__always)
    func lock() { pthread_mutex_lock(mutex) }

    @inlinable @inline(__always)
    func unlock() { pthread_mutex_unlock(mutex) }

    @inlinable @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
