import FluxCore

/// How a store registered with a reducer applies one action to its state: the one thing that
/// differs between the `mutation:`, `reduce:` and `reducer:` forms of ``StoreDefinition``, which
/// otherwise share one runtime (``ReducerRuntime``): the same diff, the same undo history.
///
/// NB: a protocol with three small structs, not one closure: ``ReducerRuntime`` is generic over
/// it and `@inlinable`, so a FluxCore mutation is called directly where the store is registered,
/// as it was before the other forms existed.
@usableFromInline
protocol StoreReducer: SendableMetatype {
    associatedtype State
    associatedtype Action
    /// Applies `action` to `state`, dropping any effect it returns: how the history makes a
    /// state again, never firing an effect twice.
    func reduce(_ state: inout State, _ action: Action)
    /// Applies `action` to `state`, and returns the effect the reducer returned with it.
    func reduceReturningEffect(_ state: inout State, _ action: Action) -> StoreEffect<Action>
}

extension StoreReducer {
    /// A reducer that returns no effect.
    @inlinable
    func reduceReturningEffect(_ state: inout State, _ action: Action) -> StoreEffect<Action> {
        reduce(&state, action)
        return .none
    }
}

/// A reducer that changes the state in place and returns effects, as TCA's
/// `reduce(into:action:) -> Effect<Action>`.
@usableFromInline
struct EffectfulInPlaceReducer<State, Action>: StoreReducer {
    @usableFromInline let body: (inout State, Action) -> StoreEffect<Action>

    @inlinable init(_ body: @escaping (inout State, Action) -> StoreEffect<Action>) { self.body = body }

    @inlinable
    func reduce(_ state: inout State, _ action: Action) { _ = body(&state, action) }

    @inlinable
    func reduceReturningEffect(_ state: inout State, _ action: Action) -> StoreEffect<Action> { body(&state, action) }
}

/// A pure reducer that returns the next state and effects.
@usableFromInline
struct EffectfulPureReducer<State, Action>: StoreReducer {
    @usableFromInline let body: (Action, State) -> (State, StoreEffect<Action>)

    @inlinable init(_ body: @escaping (Action, State) -> (State, StoreEffect<Action>)) { self.body = body }

    @inlinable
    func reduce(_ state: inout State, _ action: Action) { state = body(action, state).0 }

    @inlinable
    func reduceReturningEffect(_ state: inout State, _ action: Action) -> StoreEffect<Action> {
        let (next, effect) = body(action, state)
        state = next
        return effect
    }
}

/// A FluxCore (or Prex) ``Mutation``.
@usableFromInline
struct MutationReducer<M: Mutation>: StoreReducer {
    @usableFromInline let mutation: M

    @inlinable init(_ mutation: M) { self.mutation = mutation }

    @inlinable
    func reduce(_ state: inout M.State, _ action: M.Action) { mutation.mutate(action: action, state: &state) }
}

/// A reducer that changes the state in place: TCA's `reduce(into:action:)`, an Elm update, a
/// ClassyFlux reducer body.
@usableFromInline
struct InPlaceReducer<State, Action>: StoreReducer {
    @usableFromInline let body: (inout State, Action) -> Void

    @inlinable init(_ body: @escaping (inout State, Action) -> Void) { self.body = body }

    @inlinable
    func reduce(_ state: inout State, _ action: Action) { body(&state, action) }
}

/// A pure reducer that returns the next state: Redux's and ReSwift's `(action, state) -> state`.
@usableFromInline
struct PureReducer<State, Action>: StoreReducer {
    @usableFromInline let body: (Action, State) -> State

    @inlinable init(_ body: @escaping (Action, State) -> State) { self.body = body }

    @inlinable
    func reduce(_ state: inout State, _ action: Action) { state = body(action, state) }
}
