/// A task suspended until something resumes it: what ``wait(_:)`` hands to the code that keeps
/// it. It cannot be copied, and resuming it consumes it, so a task is never resumed twice: code
/// that tries does not compile. One that is dropped unresumed leaves its task waiting for ever,
/// as a forgotten continuation does.
///
/// NB: the concurrency runtime's unchecked continuation inside, which this type's consuming
/// methods make safe to resume. A checked continuation allocates and checks at each wait, and a
/// sleep on the session's clock is such a wait, on every tick of a timer. Public and inlinable
/// (a `package` body is not inlined into another module): called, not inlined, the wait switched
/// tasks and allocated a frame.
@_documentation(visibility: internal)
@frozen
public struct _Waiter<Value, Failure: Error>: ~Copyable {
    @usableFromInline let continuation: UnsafeContinuation<Value, Failure>

    @inlinable init(_ continuation: UnsafeContinuation<Value, Failure>) { self.continuation = continuation }

    /// Resumes the task with `value`.
    @inlinable
    public consuming func resume(returning value: sending Value) { continuation.resume(returning: value) }

    /// Resumes the task with `error`.
    @inlinable
    public consuming func resume(throwing error: Failure) { continuation.resume(throwing: error) }
}

extension Waiter: Sendable {}

extension Waiter where Failure == Never {
    /// Suspends the current task and hands its waiter to `keep`, which keeps it or resumes it.
    @inlinable
    public static func wait(
        isolation: isolated (any Actor)? = #isolation, _ keep: (consuming Self) -> Void
    ) async -> Value {
        await withUnsafeContinuation(isolation: isolation) { keep(Waiter($0)) }
    }
}

extension Waiter where Value == Void {
    /// Resumes the task.
    @inlinable
    public consuming func resume() { continuation.resume(returning: ()) }
}

extension Waiter where Failure == any Error {
    /// Suspends the current task and hands its waiter to `keep`, which keeps it or resumes it.
    @inlinable
    public static func wait(
        isolation: isolated (any Actor)? = #isolation, _ keep: (consuming Self) -> Void
    ) async throws -> Value {
        try await withUnsafeThrowingContinuation(isolation: isolation) { keep(Waiter($0)) }
    }
}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias Waiter = _Waiter
