#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value shared between threads, guarded by a pthread mutex.
///
/// Public (not only for the package's own modules), because an attached shell's feed takes it
/// on an app's every action, in code compiled where the app serves its stores.
///
/// NB: not `Synchronization.Mutex`: on Linux it waits on a futex, which the thread sanitizer
/// does not see, so every access to a value it guards is reported as a race (`make tsan`).
@_documentation(visibility: internal)
public final class LockedValue<Value>: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `value` is only touched between `lock` and `unlock` of
    // `mutex`, which lives on the heap (its address never moves) and is never reassigned.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // NB: no run-time exclusivity checks: the mutex already makes every access exclusive. With
    // them (and the feed's copies called from a copy of their list), an app served to a stalled
    // shell paid 93 ns per action rather than 81-85 (`fluxbench agent stalled`).
    @usableFromInline @exclusivity(unchecked) var value: Value

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
    ///
    /// NB: inlinable, so that a lock taken on an app's every action (an attached shell's feed)
    /// is compiled for its value's type.
    @inlinable
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with the lock held, touching no value: a lock alone (`LockedValue(())`).
    ///
    /// NB: the thread sanitizer reports an `inout` access to a value of no size as a race at the
    /// object's address, lock held or not (seen in `make tsan`, and in a 15-line program built
    /// with `-sanitize=thread`): a lock alone is taken without one.
    @inlinable
    public func locked<T>(_ body: () throws -> T) rethrows -> T where Value == Void {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
