import FluxCore
import FluxShellValues

/// The reducer forms with an effect that takes time: it runs as a task of the session's after
/// its action was applied, may sleep on the session's clock (`advance` wakes it), send actions
/// while it runs (`context.send`), and the actions it returns are dispatched when it ends. See
/// "Effects over time" in the reference.
///
/// The effect is `@Sendable`, so that a closure written in a shell's `main.swift`, whose code is
/// the main actor's, is not isolated to it: the shell's thread runs the effects, and the main
/// actor's jobs would wait for a thread that is busy reading commands.
extension StoreDefinition {
    /// A FluxCore (or Prex) store whose effect takes time.
    ///
    /// ```swift
    /// StoreDefinition("timer", state: TimerState(), mutation: TimerMutation(),
    ///     effect: { action, state, context in
    ///         guard action == .start else { return [] }
    ///         try await context.environment.clock.sleep(for: .seconds(1))
    ///         return [.tick]
    ///     })
    /// ```
    ///
    /// The parameters are those of `init(_:summary:state:mutation:validate:effect:invariants:)`;
    /// `effect` is given an ``EffectContext`` as its third parameter.
    @inlinable
    public init<M: Mutation>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> M.State,
        mutation: M,
        validate: (@Sendable (M.Action, M.State) throws -> Void)? = nil,
        effect: @escaping @Sendable (M.Action, M.State, EffectContext<M.Action>) async throws -> [M.Action],
        invariants: [StoreInvariant<M.State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(M.Action.self),
            reducer: MutationReducer(mutation), validate: validate, effect: .overTime(effect), invariants: invariants)
    }

    /// A store with an in-place reducer whose effect takes time: a TCA feature's `reduce` with
    /// its `.run` effects written as `effect`.
    ///
    /// ```swift
    /// StoreDefinition("search", state: Search.State(), reduce: { _ = Search().reduce(into: &$0, action: $1) },
    ///     effect: { action, state, context in
    ///         guard case .queryChanged = action else { return [] }
    ///         try await context.environment.clock.sleep(for: .milliseconds(300))
    ///         return [.searchResponse(Search.fixture(state.query))]
    ///     })
    /// ```
    ///
    /// The parameters are those of `init(_:summary:state:reduce:validate:effect:invariants:)`;
    /// `effect` is given an ``EffectContext`` as its third parameter.
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        reduce: @escaping (inout State, Action) -> Void,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: @escaping @Sendable (Action, State, EffectContext<Action>) async throws -> [Action],
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(Action.self),
            reducer: InPlaceReducer(reduce), validate: validate, effect: .overTime(effect), invariants: invariants)
    }

    /// A store with a pure reducer whose effect takes time: a Redux thunk or a ReSwift
    /// middleware's request, written as `effect`.
    ///
    /// The parameters are those of `init(_:summary:state:reducer:validate:effect:invariants:)`;
    /// `effect` is given an ``EffectContext`` as its third parameter.
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        reducer: @escaping (Action, State) -> State,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: @escaping @Sendable (Action, State, EffectContext<Action>) async throws -> [Action],
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(Action.self),
            reducer: PureReducer(reducer), validate: validate, effect: .overTime(effect), invariants: invariants)
    }

    /// A store whose actions are types, changed in place, with an effect that takes time.
    ///
    /// The parameters are those of `init(_:summary:state:actionTypes:reduce:validate:effect:invariants:)`;
    /// `effect` is given an ``EffectContext`` as its third parameter.
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        actionTypes: [Any.Type],
        reduce: @escaping (inout State, Action) -> Void,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: @escaping @Sendable (Action, State, EffectContext<Action>) async throws -> [Action],
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(types: actionTypes),
            reducer: InPlaceReducer(reduce), validate: validate, effect: .overTime(effect), invariants: invariants,
            actionTypes: actionTypes)
    }

    /// A store whose actions are types, with a pure reducer and an effect that takes time: a
    /// ReSwift thunk that answers later.
    ///
    /// The parameters are those of `init(_:summary:state:actionTypes:reducer:validate:effect:invariants:)`;
    /// `effect` is given an ``EffectContext`` as its third parameter.
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        actionTypes: [Any.Type],
        reducer: @escaping (Action, State) -> State,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: @escaping @Sendable (Action, State, EffectContext<Action>) async throws -> [Action],
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(types: actionTypes),
            reducer: PureReducer(reducer), validate: validate, effect: .overTime(effect), invariants: invariants,
            actionTypes: actionTypes)
    }

    /// A store whose in-place reducer returns effects the TCA way (``StoreEffect``): a feature
    /// written `reduce(into:action:) -> Effect<Action>` with `typealias Effect = StoreEffect`.
    ///
    /// ```swift
    /// StoreDefinition("search", state: Search.State(), reduce: { Search().reduce(into: &$0, action: $1) })
    /// ```
    ///
    /// The other parameters are those of `init(_:summary:state:reduce:validate:effect:invariants:)`.
    /// `undo` and `redo` make states again with the reducer and drop the effects it returns then:
    /// an effect runs once, after the action that returned it.
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        reduce: @escaping (inout State, Action) -> StoreEffect<Action>,
        validate: ((Action, State) throws -> Void)? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(Action.self),
            reducer: EffectfulInPlaceReducer(reduce), validate: validate, effect: nil, invariants: invariants)
    }

    /// A store whose pure reducer returns the next state and effects (``StoreEffect``).
    ///
    /// The other parameters are those of `init(_:summary:state:reducer:validate:effect:invariants:)`.
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        reducer: @escaping (Action, State) -> (State, StoreEffect<Action>),
        validate: ((Action, State) throws -> Void)? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(Action.self),
            reducer: EffectfulPureReducer(reducer), validate: validate, effect: nil, invariants: invariants)
    }

    /// A store whose actions are types, with an in-place reducer that returns effects
    /// (``StoreEffect``).
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        actionTypes: [Any.Type],
        reduce: @escaping (inout State, Action) -> StoreEffect<Action>,
        validate: ((Action, State) throws -> Void)? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(types: actionTypes),
            reducer: EffectfulInPlaceReducer(reduce), validate: validate, effect: nil, invariants: invariants,
            actionTypes: actionTypes)
    }

    /// A store whose actions are types, with a pure reducer that returns the next state and
    /// effects (``StoreEffect``).
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        actionTypes: [Any.Type],
        reducer: @escaping (Action, State) -> (State, StoreEffect<Action>),
        validate: ((Action, State) throws -> Void)? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(types: actionTypes),
            reducer: EffectfulPureReducer(reducer), validate: validate, effect: nil, invariants: invariants,
            actionTypes: actionTypes)
    }
}
