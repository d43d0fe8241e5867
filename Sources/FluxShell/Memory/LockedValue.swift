#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value shared between threads, guarded by a pthread mutex.
///
/// NB: not `Synchronization.Mutex`: on Linux it waits on a futex, which the thread sanitizer
/// does not see, so every access to a value it guards is reported as a race (`make tsan`).
@_spi(Engine) public final class LockedValue<Value>: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `value` is only touched between `lock` and `unlock` of
    // `mutex`, which lives on the heap (its address never moves) and is never reassigned.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held.
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
