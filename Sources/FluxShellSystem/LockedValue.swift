/// A value shared between threads, guarded by a pthread mutex.
///
/// Public (not only for the package's own modules), because an attached shell's feed takes it
/// on an app's every action, in code compiled where the app serves its stores.
@_documentation(visibility: internal)
public final class _LockedValue<Value>: Sendable {
    @usableFromInline let mutex = PlatformMutex()
    // NB: the value is kept in a cell, which skips the run-time exclusivity checks: the mutex
    // already makes every access exclusive, so one thread at a time uses the cell, and an app
    // served to a stalled shell does not pay the checks on every action.
    @usableFromInline let cell: SingleThreadCell<Value>

    public init(_ value: Value) { cell = SingleThreadCell(value) }

    /// Runs `body` with the value, the lock held.
    ///
    /// NB: inlinable, so that a lock taken on an app's every action (an attached shell's feed)
    /// is compiled for its value's type; always inlined, so that the feed's generic code (what
    /// an attached session takes, several times a line) does not call it and the cell's accessor.
    @inlinable @inline(__always)
    public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&cell.value)
    }

    /// Runs `body` with the lock held, touching no value: a lock alone (`LockedValue(())`).
    ///
    /// NB: the thread sanitizer reports an `inout` access to a value of no size as a race at the
    /// object's address, lock held or not (seen in `make tsan`, and in a 15-line program built
    /// with `-sanitize=thread`): a lock alone is taken without one.
    @inlinable
    public func locked<T>(_ body: () throws -> T) rethrows -> T where Value == Void {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias LockedValue = _LockedValue
