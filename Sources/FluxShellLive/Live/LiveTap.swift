import FluxCore
import FluxShellSession
import FluxShellSystem
import FluxShellValues
import Synchronization

/// Where a running app's applied actions come from, for a ``LiveFeed``: a FluxCore dispatcher,
/// or the hook of a store of another form (a ReSwift middleware, a TCA `Reduce` at the end of the
/// body, a ClassyFlux handler) calling ``LiveStore/record(_:state:)``. The one seam an attached
/// session has to a running app's actions.
///
/// NB: a protocol, so that the feed's per-action path (``LiveFeed/receive(_:)``) is compiled for
/// the app's tap and action type where the store is served, with no indirect call.
@usableFromInline
protocol LiveTap: AnyObject, Sendable {
    associatedtype Action
    associatedtype Handler
    associatedtype Registration
    /// What `register` takes to call `body` with each action, and `missed` for one the listener
    /// cannot place in order (the app's, applied while the shell set the store's state).
    ///
    /// NB: made apart from `register`, by the feed's inlinable initializer, so that the closure
    /// an action goes through is compiled for the app's types, not as generic code.
    func handler(_ body: @escaping (Action) -> Void, missed: @escaping () -> Void) -> Handler
    /// Calls `handler` with each action applied from now on, after the app's stores applied it.
    func register(_ handler: Handler) -> Registration
    func unregister(_ registration: Registration)
    /// Runs `body` while no action is being delivered.
    func whileNoDelivery(_ body: () -> Void)
    /// Whether the action being delivered was dispatched while another was (a follow-up). Read
    /// on the delivering thread.
    var isDeliveringFollowUp: Bool { get }
    /// Sends the shell's action to the app. `begin` runs first, between two deliveries; its
    /// argument says whether what is delivered until the send returns is the shell's on any
    /// thread (the app's store may apply it on a thread of its own), not only on this one.
    func sendOwn(_ action: Action, beginning begin: (_ onAnyThread: Bool) -> Void)
}

extension Dispatcher: LiveTap {
    @inlinable
    func handler(_ body: @escaping (Action) -> Void, missed: @escaping () -> Void) -> (Action) -> Void { body }

    @usableFromInline
    func sendOwn(_ action: Action, beginning begin: (_ onAnyThread: Bool) -> Void) {
        // NB: between two deliveries, so that what was dropped before the shell's action is
        // sealed with the states right before it; the dispatcher delivers it on this thread.
        betweenDeliveries {
            begin(false)
            dispatch(action)
        }
    }

    @usableFromInline
    func whileNoDelivery(_ body: () -> Void) { betweenDeliveries { body() } }
}

/// The tap of a running app's store of any form: the app's hook calls ``record(_:state:)`` after
/// each action was applied, and the shell's actions go to the app's `send`.
///
/// NB: deliveries go through a FluxCore dispatcher of its own: it orders them, queues one recorded
/// while another is delivered (a hook that records from a handler) and tells follow-ups, as the
/// dispatcher of a FluxCore app does. What runs per action is inlinable, compiled for the app's
/// types where the store is served: as generic code, it looked up metadata on every action.
@usableFromInline
final class LiveHub<Action, State>: LiveTap {
    // NB: `deliveries` is a dispatcher (thread-safe); the app's closures are the app's own,
    // called as the app's hook and the shell's sends are (see ``AppValue``); `latest` and the
    // restore's marks are behind their locks; one shell restores at a time (`shellTurn`).
    @usableFromInline
    struct Delivery: FluxCore.Action {
        /// Delivered on the thread that recorded it (see ``AppValue``).
        @usableFromInline let recorded: AppValue<(action: Action, state: State)>

        @inlinable var action: Action { recorded.value.action }
        @inlinable var state: State { recorded.value.state }

        @inlinable init(action: Action, state: State) {
            recorded = AppValue((action, state))
        }
    }

    /// What a restore under way marks (see ``restoreState(_:)``).
    @usableFromInline
    struct RestoreMarks {
        @usableFromInline var restorer: ThreadIdentity?
        @usableFromInline var target: State?
        @usableFromInline var seen = false
        @usableFromInline var seenOn: ThreadIdentity?

        @usableFromInline init() {}
    }

    @usableFromInline let deliveries = Dispatcher<Delivery>()
    /// How many listen (attached sessions, a recorder): with none, recording is one load of it.
    @usableFromInline let listeners = Atomic<Int>(0)
    /// The shell is setting the store's state (`undo`) from `restorer`'s thread: what the hook
    /// records meanwhile on that thread is the restore (an app may restore through an action of
    /// its own); on another, an action of the app's whose place against the restore is unknown.
    @usableFromInline let restoring = Atomic<Bool>(false)
    /// Who restores, to what, and whether the hook recorded reaching it on another thread (the
    /// restore's own action, applied on the app's thread: only that one is not the app's) and on
    /// which (what that thread records after it while the restore runs is the app's reaction to
    /// it, a middleware's, part of the restore).
    ///
    /// NB: under a lock of their own: the shell's thread sets them, and the app's threads that
    /// deliver while the restore runs read and mark them (the handler takes the lock only while
    /// `restoring` is set).
    @usableFromInline let marks = LockedValue(RestoreMarks())
    /// The hook recorded something while the restore ran: the state it left is the newest.
    @usableFromInline let restoreRecorded = Atomic<Bool>(false)
    /// The newest state the hook recorded (or the shell read or set): what the feed copies when
    /// it needs the latest state, without calling the app's `state` (which may wait for the
    /// app's thread, while that thread waits to record).
    @usableFromInline let latest = LockedValue<State?>(nil)
    /// Held while a shell sends an action or sets the state: the sessions of several shells run
    /// on threads of their own, and the restore's marks above, and what the feed tells by how an
    /// action prints, are one shell's at a time.
    @usableFromInline let shellTurn = LockedValue(())
    @usableFromInline let readState: AppValue<() -> State>
    @usableFromInline let send: AppValue<(Action) -> Void>
    @usableFromInline let restore: AppValue<((State) -> Void)?>

    @inlinable
    init(state: @escaping () -> State, send: @escaping (Action) -> Void, restore: ((State) -> Void)?) {
        readState = AppValue(state)
        self.send = AppValue(send)
        self.restore = AppValue(restore)
    }

    /// The app's hook: `action` was applied, and `state` is the store's state after it.
    ///
    /// NB: with no shell attached, one relaxed atomic load: a listener that starts meanwhile
    /// takes its first state between two deliveries, so it misses no action it would diff.
    @inlinable
    func record(_ action: Action, state: State) {
        guard listeners.load(ordering: .relaxed) > 0 else { return }
        deliveries.dispatch(Delivery(action: action, state: state))
    }

    /// The store's state as the feed copies it: the newest one known (during a delivery, the one
    /// it left: deliveries are one at a time).
    @inlinable
    var state: State {
        if let latest = latest.withLock({ $0 }) { return latest }
        return stateNow()
    }

    /// The store's state read now through the app's `state` (when a shell attaches).
    @usableFromInline
    func stateNow() -> State {
        let state = readState.value()
        latest.withLock { $0 = state }
        return state
    }

    @inlinable
    func handler(_ body: @escaping (Action) -> Void, missed: @escaping () -> Void) -> (Delivery) -> Void {
        // NB: the handler holds the hub strongly (no unowned check per action); `unregister`,
        // which every listener calls when it stops, breaks the cycle.
        { [self] delivery in
            self.latest.withLock { $0 = delivery.state }
            if self.restoring.load(ordering: .acquiring) {
                self.restoreRecorded.store(true, ordering: .relaxed)
                let isRestores = self.marks.withLock { marks in
                    let thread = ThreadIdentity.current
                    if let restorer = marks.restorer, restorer == thread { return true }
                    if !marks.seen, let target = marks.target, Self.reaches(delivery.state, target) {
                        marks.seen = true
                        marks.seenOn = thread
                        return true
                    }
                    // NB: after the restore's action, on its thread: the app's reaction to it.
                    return marks.seen && marks.seenOn == thread
                }
                if isRestores { return }
                return missed()
            }
            body(delivery.action)
        }
    }

    @inlinable
    func register(_ handler: @escaping (Delivery) -> Void) -> Subscription<Delivery> {
        listeners.add(1, ordering: .relaxed)
        return deliveries.register(handler)
    }

    @inlinable
    func unregister(_ registration: Subscription<Delivery>) {
        deliveries.unregister(registration)
        listeners.subtract(1, ordering: .relaxed)
    }

    /// NB: `body` runs at once, not under the dispatcher's lock: what it does reads and sets the
    /// app's store through the app's closures, which may hop to the store's own thread (a TCA
    /// store's main actor) where the hook records, and must not wait for us there. An action
    /// the app applies meanwhile is diffed from the state read, as any other.
    @usableFromInline
    func whileNoDelivery(_ body: () -> Void) { body() }

    /// Sets the store's state with the app's `restore`. What the hook records meanwhile on this
    /// thread is the restore's own doing and is not delivered, and so is the restore's action
    /// recorded on another thread (the app's, where `restore` may hand the work) and what that
    /// thread records after it (a middleware's reaction to it); anything else the hook records
    /// meanwhile is told as missed: the listener then takes the newest state, rather than diff
    /// actions whose order against the restore it cannot know. The state the restore leaves is
    /// the newest the hook recorded, or `state` when it recorded nothing.
    @usableFromInline
    func restoreState(_ state: State) {
        shellTurn.locked {
            marks.withLock { marks in
                marks = RestoreMarks()
                marks.restorer = .current
                marks.target = state
            }
            restoreRecorded.store(false, ordering: .relaxed)
            restoring.store(true, ordering: .releasing)
            restore.value?(state)
            restoring.store(false, ordering: .releasing)
            marks.withLock { $0.target = nil }
            if !restoreRecorded.load(ordering: .acquiring) { latest.withLock { $0 = state } }
        }
    }

    /// Whether `state` is `target` as values (what the restore's own action left).
    @usableFromInline
    static func reaches(_ state: State, _ target: State) -> Bool {
        ValueDiffer.entries(from: target, to: state).isEmpty
    }

    @inlinable
    var isDeliveringFollowUp: Bool { deliveries.isDeliveringFollowUp }

    @usableFromInline
    func sendOwn(_ action: Action, beginning begin: (_ onAnyThread: Bool) -> Void) {
        shellTurn.locked {
            deliveries.betweenDeliveries { begin(true) }
            // NB: not between deliveries: the app's `send` may hand the action to a thread of its
            // own (a TCA store's main actor) and wait, and that thread's hook must not wait on us.
            send.value(action)
        }
    }
}
