#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the Swift tasks go that a thread starts, wakes or hands to the global executor while it
/// runs with a route: a session's thread runs the tasks a store's library starts (a TCA `Store`'s
/// effects, a `Task {}` in a model) itself, in order, as TCA's TestStore runs them on its serial
/// executor, so that what they do is part of the command that started or woke them, the same in
/// every run (see "Stores that change on their own" in the reference).
///
/// NB: the Swift runtime's `swift_task_enqueueGlobal_hook`, the variable swift-concurrency-extras'
/// `withMainSerialExecutor` sets, is set once, and passes every job on as before (to the hook it
/// found, or the runtime's own executor) unless the enqueuing thread has a route. A thread sets
/// its route only around work it runs itself and takes every job routed to it before that work
/// returns; the route's `take` only queues the job, and never runs or enqueues one.
package final class TaskRoute: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `take` is called only on the thread that set the route,
    // while it runs with it (see `TaskRouting.routing(to:_:)`).
    let take: (UnownedJob) -> Void

    /// A route whose jobs `take` gets, on the thread that runs with the route.
    package init(take: @escaping (UnownedJob) -> Void) { self.take = take }
}

package enum TaskRouting {
    /// Runs `body` with the calling thread's tasks going to `route`: each job the thread hands to
    /// the global executor meanwhile (a task started, woken or hopping off an actor) is given
    /// to `route.take`, and the route before it is put back after.
    @inlinable
    package static func routing<R, E: Error>(to route: TaskRoute, _ body: () throws(E) -> R) throws(E) -> R {
        let previous = swap(route)
        defer { _ = restore(previous) }
        return try body()
    }

    /// Sets the calling thread's route, returning the one it had.
    @usableFromInline
    static func swap(_ route: TaskRoute) -> UnsafeMutableRawPointer? {
        _ = hookInstalled
        let previous = pthread_getspecific(routeKey)
        pthread_setspecific(routeKey, Unmanaged.passUnretained(route).toOpaque())
        return previous
    }

    /// Puts back the calling thread's route that ``swap(_:)`` returned.
    @usableFromInline
    static func restore(_ previous: UnsafeMutableRawPointer?) -> Bool {
        pthread_setspecific(routeKey, previous) == 0
    }

    /// Whether the calling thread runs with a route now.
    package static var isRouting: Bool { pthread_getspecific(routeKey) != nil }
}

// NB: the thread's route is a `pthread` key, which the hook reads without a lock: each thread
// reads its own. The route it holds is not retained: `routing(to:_:)` holds the route while it is set.
private let routeKey: pthread_key_t = {
    var key = pthread_key_t()
    guard pthread_key_create(&key, nil) == 0 else { fatalError("no thread-specific key is left for task routes") }
    return key
}()

private typealias EnqueueOriginal = @convention(thin) (UnownedJob) -> Void
private typealias EnqueueHook = @convention(thin) (UnownedJob, EnqueueOriginal) -> Void

/// The hook that was set before this one (swift-concurrency-extras', a test's), which jobs
/// without a route go on to.
// NB: written once, in `hookInstalled`'s initializer, before the hook that reads it is set.
nonisolated(unsafe) private var previousHook: EnqueueHook?

private let hookInstalled: Void = {
    guard let symbol = Platform.symbol("swift_task_enqueueGlobal_hook") else {
        fatalError("the Swift runtime has no swift_task_enqueueGlobal_hook")
    }
    let slot = symbol.assumingMemoryBound(to: EnqueueHook?.self)
    previousHook = slot.pointee
    slot.pointee = { job, original in
        if let route = pthread_getspecific(routeKey) {
            return Unmanaged<TaskRoute>.fromOpaque(route).takeUnretainedValue().take(job)
        }
        if let previousHook { return previousHook(job, original) }
        original(job)
    }
}()
