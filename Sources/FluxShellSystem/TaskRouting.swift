import Synchronization

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
/// `withMainSerialExecutor` sets, is set only while some thread runs with a route, and put back
/// as it was when the last one ends (so that a test's `withMainSerialExecutor` between commands
/// sees it unset, as it left it). Meanwhile every job goes on as before (to the hook found, or the
/// runtime's executor) unless the enqueuing thread has a route whose `take` accepts it. A thread
/// sets its route only around work it runs itself, and runs every job its route took before that
/// work returns, or passes it on (``passOn(_:)``).
package final class TaskRoute {
    /// Called only on the thread that set the route, while it runs with it (see
    /// `TaskRouting.routing(to:_:)`), so the route is never shared between threads.
    let take: (UnownedJob) -> Bool

    /// A route whose jobs `take` gets, on the thread that runs with the route; a job it does not
    /// accept (`false`) goes on to the global executor.
    package init(take: @escaping (UnownedJob) -> Bool) { self.take = take }
}

package enum TaskRouting {
    /// Runs `body` with the calling thread's tasks going to `route`: each job the thread hands to
    /// the global executor meanwhile (a task started, woken or hopping off an actor) is given
    /// to `route.take`, and the route before it is put back after. Where the runtime has no hook
    /// to set (a build without it), `body` runs and the tasks go where they would.
    @inlinable
    package static func routing<R, E: Error>(to route: TaskRoute, _ body: () throws(E) -> R) throws(E) -> R {
        let previous = swap(route)
        defer { restore(previous) }
        return try body()
    }

    /// Sets the calling thread's route, returning the one it had.
    @usableFromInline
    static func swap(_ route: TaskRoute) -> UnsafeMutableRawPointer? {
        let previous = pthread_getspecific(routeKey)
        if previous == nil { EnqueueHook.runtime.begin() }
        // NB: unretained: `routing(to:_:)` holds the route until `restore` takes it out.
        pthread_setspecific(routeKey, Unmanaged.passUnretained(route).toOpaque())
        return previous
    }

    /// Puts back the calling thread's route that ``swap(_:)`` returned.
    @usableFromInline
    static func restore(_ previous: UnsafeMutableRawPointer?) {
        pthread_setspecific(routeKey, previous)
        if previous == nil { EnqueueHook.runtime.end() }
    }

    /// Hands `job`, which a route took, to the global executor after all (a task of a session
    /// that ended, of work given up on): it runs where it would have without the route.
    package static func passOn(_ job: UnownedJob) {
        let route = pthread_getspecific(routeKey)
        pthread_setspecific(routeKey, nil)
        defer { pthread_setspecific(routeKey, route) }
        enqueueGlobal(job)
    }
}

// NB: the runtime's own entry for a job without an executor, which consults the hook: called
// with no route set, it sends the job where it would have gone.
@_silgen_name("swift_task_enqueueGlobal")
private func enqueueGlobal(_ job: UnownedJob)

// NB: the thread's route is a `pthread` key, which the hook reads without a lock: each thread
// reads its own. The route it holds is not retained: `routing(to:_:)` holds the route while it is set.
private let routeKey: pthread_key_t = {
    var key = pthread_key_t()
    guard pthread_key_create(&key, nil) == 0 else { fatalError("no thread-specific key is left for task routes") }
    return key
}()

/// The runtime's global-enqueue hook, set while threads run with routes.
package final class EnqueueHook: Sendable {
    package typealias Original = @convention(thin) (UnownedJob) -> Void
    package typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The runtime's: its variable, and the hook set in it.
    static let runtime: EnqueueHook = EnqueueHook(
        slot: Platform.symbol("swift_task_enqueueGlobal_hook")?.assumingMemoryBound(to: Hook?.self),
        hook: { job, original in
            // NB: a route found is the one `swap` stored on this thread, held while it is set;
            // `before` is the address of a hook of this type, stored by `begin`.
            if let route = pthread_getspecific(routeKey),
                Unmanaged<TaskRoute>.fromOpaque(route).takeUnretainedValue().take(job)
            {
                return
            }
            let before = EnqueueHook.runtime.before.load(ordering: .acquiring)
            guard before != 0 else { return original(job) }
            unsafeBitCast(before, to: Hook.self)(job, original)
        })

    /// The variable the hook is set in; `nil` where the runtime has none.
    ///
    /// NB: written only with `routing`'s lock held; the runtime reads it on every enqueue, and a
    /// pointer-sized store is seen whole.
    nonisolated(unsafe) let slot: UnsafeMutablePointer<Hook?>?
    let hook: Hook
    /// How many threads run with a route.
    private let routing = Mutex(0)
    /// The hook that was set before this one, which jobs without a route go on to.
    ///
    /// NB: read by the hook on any thread without the lock: an atomic word, stored before the
    /// hook that reads it is set.
    let before = Atomic<UInt>(0)

    /// A hook set in `slot` (a test's variable, or the runtime's).
    package init(slot: UnsafeMutablePointer<Hook?>?, hook: Hook) {
        self.slot = slot
        self.hook = hook
    }

    /// A thread begins to run with a route: the first sets the hook, as does one that finds
    /// another set since (swift-concurrency-extras' `withMainSerialExecutor`), which jobs without
    /// a route then go on to.
    package func begin() {
        guard let slot else { return }
        routing.withLock { routing in
            routing += 1
            let current = Self.address(slot.pointee)
            guard current != Self.address(hook) else { return }
            before.store(current, ordering: .releasing)
            slot.pointee = hook
        }
    }

    /// A thread ends running with a route: the last puts back the hook it found, unless another
    /// was set since (which it then leaves).
    package func end() {
        guard let slot else { return }
        routing.withLock { routing in
            routing -= 1
            guard routing == 0, Self.address(slot.pointee) == Self.address(hook) else { return }
            let before = self.before.load(ordering: .acquiring)
            slot.pointee = before == 0 ? nil : unsafeBitCast(before, to: Hook.self)
        }
    }

    /// A hook as one word: 0 for none.
    ///
    /// NB: a thin function is one word, its address: only compared, or made the hook it was.
    package static func address(_ hook: Hook?) -> UInt { hook.map { unsafeBitCast($0, to: UInt.self) } ?? 0 }
}
