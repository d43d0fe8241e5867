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
    /// The store that the mutation changes. It listens to ``dispatcher`` for as long as it lives,
    /// whether or not this flux does, as a Prex store does: keeping `flux.store` and
    /// `flux.dispatcher` is enough.
    public let store: Store<State>

    /// Creates a store holding `state` that `mutation` changes for each action of `dispatcher`.
    @inlinable
    public init<M: Mutation>(
        state: State, mutation: M, dispatcher: Dispatcher<Action> = Dispatcher()
    ) where M.Action == Action, M.State == State {
        self.dispatcher = dispatcher
        self.store = Store(state: state)
        Self.connect(store, to: dispatcher, through: mutation)
    }

    /// Creates a store holding `state` that `mutation` changes for each action of `dispatcher`;
    /// an action that leaves the state equal announces no change.
    @inlinable
    public init<M: Mutation>(
        state: State, mutation: M, dispatcher: Dispatcher<Action> = Dispatcher()
    ) where M.Action == Action, M.State == State, State: Equatable {
        self.dispatcher = dispatcher
        self.store = Store(state: state)
        Self.connect(store, to: dispatcher, through: mutation)
    }

    /// Registers `store` with `dispatcher` for as long as the store lives: the handler holds the
    /// store's storage, not the store, and the store's `deinit` unregisters the handler, releasing
    /// the mutation with it. A store that is gone mutates nothing.
    @inlinable
    static func connect<M: Mutation>(_ store: Store<State>, to dispatcher: Dispatcher<Action>, through mutation: M)
    where M.Action == Action, M.State == State {
        let storage = store.storage
        let subscription = dispatcher.register { action in
            storage.mutate { mutation.mutate(action: action, state: &$0) }
        }
        // NB: the dispatcher weakly: a middleware or handler that holds the store (a recorder)
        // would otherwise keep the dispatcher, and so the store, alive forever.
        store.onDeinit { [weak dispatcher] in dispatcher?.unregister(subscription) }
    }
}
