/// A store, a dispatcher, and the mutation between them.
///
/// ```swift
/// let flux = Flux(state: CounterState(), mutation: CounterMutation())
/// flux.dispatcher.dispatch(.increment)
/// flux.store.state.count  // 1
/// ```
///
/// Several fluxes can share one dispatcher, so one action reaches all of their stores:
/// `Flux(state: ..., mutation: ..., dispatcher: shared)`.
public final class Flux<Action: FluxCore.Action, State: FluxCore.State>: Sendable {
    /// Where actions for this flux's store are dispatched.
    public let dispatcher: Dispatcher<Action>
    /// The store that the mutation changes.
    public let store: Store<State>
    private let subscription: Subscription

    /// Creates a store holding `state` that `mutation` changes for each action of `dispatcher`.
    @inlinable
    public convenience init<M: Mutation>(
        state: State, mutation: M, dispatcher: Dispatcher<Action> = Dispatcher()
    ) where M.Action == Action, M.State == State {
        let store = Store(state: state)
        self.init(
            dispatcher: dispatcher, store: store,
            handler: { action in store.mutate { mutation.mutate(action: action, state: &$0) } })
    }

    /// Creates a store holding `state` that `mutation` changes for each action of `dispatcher`;
    /// an action that leaves the state equal announces no change.
    @inlinable
    public convenience init<M: Mutation>(
        state: State, mutation: M, dispatcher: Dispatcher<Action> = Dispatcher()
    ) where M.Action == Action, M.State == State, State: Equatable {
        let store = Store(state: state)
        self.init(
            dispatcher: dispatcher, store: store,
            handler: { action in store.mutate { mutation.mutate(action: action, state: &$0) } })
    }

    @usableFromInline
    init(dispatcher: Dispatcher<Action>, store: Store<State>, handler: @escaping (Action) -> Void) {
        self.dispatcher = dispatcher
        self.store = store
        self.subscription = dispatcher.register(handler)
    }

    deinit {
        dispatcher.unregister(subscription)
    }
}
