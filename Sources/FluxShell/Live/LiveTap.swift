import FluxCore

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
    associatedtype Registration
    /// Calls `handler` with each action applied from now on, after the app's stores applied it.
    func register(_ handler: @escaping (Action) -> Void) -> Registration
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
/// dispatcher of a FluxCore app does.
@usableFromInline
final class LiveHub<Action, State>: LiveTap, @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `deliveries` is a dispatcher (thread-safe); `app`'s
    // closures are the app's own, called as the app's hook and the shell's sends are (see
    // ``AppValue``); `delivering` is read and written only by the delivering thread, between the
    // dispatcher's lock and unlock (handlers run under it).
    @usableFromInline
    struct Delivery: FluxCore.Action, @unchecked Sendable {
        // NB: @unchecked Sendable is safe: the action is delivered on the thread that recorded it.
        @usableFromInline let action: Action
        @usableFromInline let state: State

        @inlinable init(action: Action, state: State) {
            self.action = action
            self.state = state
        }
    }

    @usableFromInline let deliveries = Dispatcher<Delivery>()
    @usableFromInline let app: AppValue<(state: () -> State, send: (Action) -> Void, restore: ((State) -> Void)?)>
    /// The state the action being delivered left, for the feed's copies.
    @usableFromInline var delivering: State?

    @inlinable
    init(state: @escaping () -> State, send: @escaping (Action) -> Void, restore: ((State) -> Void)?) {
        app = AppValue((state, send, restore))
    }

    /// The app's hook: `action` was applied, and `state` is the store's state after it.
    ///
    /// NB: with no shell attached, one read of the handler count (under the dispatcher's lock).
    @inlinable
    func record(_ action: Action, state: State) {
        guard deliveries.handlerCount > 0 else { return }
        deliveries.dispatch(Delivery(action: action, state: state))
    }

    /// The store's state now: as the last delivery left it, while one is delivered; else as the
    /// app's `state` reads it.
    @inlinable
    var state: State { delivering ?? app.value.state() }

    @usableFromInline
    func register(_ handler: @escaping (Action) -> Void) -> Subscription<Delivery> {
        deliveries.register { [unowned self] delivery in
            self.delivering = delivery.state
            handler(delivery.action)
            self.delivering = nil
        }
    }

    @usableFromInline
    func unregister(_ registration: Subscription<Delivery>) { deliveries.unregister(registration) }

    @usableFromInline
    func whileNoDelivery(_ body: () -> Void) { deliveries.betweenDeliveries { body() } }

    @usableFromInline
    var isDeliveringFollowUp: Bool { deliveries.isDeliveringFollowUp }

    @usableFromInline
    func sendOwn(_ action: Action, beginning begin: (_ onAnyThread: Bool) -> Void) {
        deliveries.betweenDeliveries { begin(true) }
        // NB: not between deliveries: the app's `send` may hand the action to a thread of its
        // own (a TCA store's main actor) and wait, and that thread's hook must not wait on us.
        app.value.send(action)
    }
}
