import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// The forms of a store whose state is a value changed by a reducer: in place (`reduce:`), pure
/// (`reducer:`), each with actions that are one enum or several types (`actionTypes:`). They run
/// on the same runtime as the FluxCore form, as fast: the same diff, the same undo history.
extension StoreDefinition {
    /// A store whose reducer changes the state in place: TCA's `reduce(into:action:)`, an Elm
    /// update, a ClassyFlux reducer body.
    ///
    /// ```swift
    /// StoreDefinition("todos", state: Todos.State(), reduce: { state, action in
    ///     _ = Todos().reduce(into: &state, action: action)
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - state: the initial state: a value (a struct or an enum), not a class instance.
    ///   - reduce: applies an action to the state in place. An effect value it returns (TCA's
    ///     `Effect`) is the app's: drop it (`_ = …`) or give the follow-ups to `effect`.
    ///   - validate: called before an action is dispatched; throw a `ShellError` to refuse it.
    ///   - effect: called after an action was applied, with the new state; the actions it returns
    ///     are dispatched next, each announced by a `=> ACTION` line.
    ///   - invariants: what must hold of the state after every action (`explore`, `invariants`).
    ///
    /// NB: disfavored against the form whose `reduce` returns a ``StoreEffect``: a closure of one
    /// expression that returns an effect must not have it dropped unseen. A closure of several
    /// statements that returns nothing says so: `{ (state: inout S, action: A) -> Void in … }`.
    @_disfavoredOverload
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        reduce: @escaping (inout State, Action) -> Void,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: ((Action, State) -> [Action])? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(Action.self),
            reducer: InPlaceReducer(reduce), validate: validate, effect: effect.map(EffectForm.immediate),
            invariants: invariants)
    }

    /// A store whose reducer is pure, `(action, state) -> state`: Redux, ReSwift.
    ///
    /// ```swift
    /// StoreDefinition("todos", state: AppState(), reducer: { action, state in appReducer(action: action, state: state) })
    /// ```
    ///
    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - state: the initial state: a value (a struct or an enum), not a class instance.
    ///   - reducer: returns the state after an action.
    ///   - validate: called before an action is dispatched; throw a `ShellError` to refuse it.
    ///   - effect: called after an action was applied, with the new state; the actions it returns
    ///     are dispatched next, each announced by a `=> ACTION` line.
    ///   - invariants: what must hold of the state after every action (`explore`, `invariants`).
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        reducer: @escaping (Action, State) -> State,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: ((Action, State) -> [Action])? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(Action.self),
            reducer: PureReducer(reducer), validate: validate, effect: effect.map(EffectForm.immediate),
            invariants: invariants)
    }

    /// A store whose actions are types (ReSwift, ClassyFlux, mini-swift), changed in place.
    ///
    /// Each type in `actionTypes` is dispatched by its name: `dispatch AddTodo title: "Milk"` for
    /// `struct AddTodo: Action { let title: String }`, `dispatch ClearCompleted` for a struct with
    /// no stored properties; an enum listed there gives its cases. The reducer's action is the
    /// library's action protocol (`any Action`).
    ///
    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - state: the initial state: a value (a struct or an enum), not a class instance.
    ///   - actionTypes: the action types, structs or enums, in the order `actions` lists them.
    ///   - reduce: applies an action to the state in place. An effect value it returns (TCA's
    ///     `Effect`) is the app's: drop it (`_ = …`) or give the follow-ups to `effect`.
    ///   - validate: called before an action is dispatched; throw a `ShellError` to refuse it.
    ///   - effect: called after an action was applied, with the new state; the actions it returns
    ///     are dispatched next, each announced by a `=> ACTION` line.
    ///   - invariants: what must hold of the state after every action (`explore`, `invariants`).
    ///
    /// NB: disfavored against the form whose `reduce` returns a ``StoreEffect`` (see
    /// `init(_:summary:state:reduce:validate:effect:invariants:)`).
    @_disfavoredOverload
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        actionTypes: [Any.Type],
        reduce: @escaping (inout State, Action) -> Void,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: ((Action, State) -> [Action])? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(types: actionTypes),
            reducer: InPlaceReducer(reduce), validate: validate, effect: effect.map(EffectForm.immediate),
            invariants: invariants,
            actionTypes: actionTypes)
    }

    /// A store whose actions are types, with a pure reducer: ReSwift's
    /// `StoreDefinition("todos", state: AppState(), actionTypes: [AddTodo.self, ToggleTodo.self], reducer: appReducer)`.
    ///
    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - state: the initial state: a value (a struct or an enum), not a class instance.
    ///   - actionTypes: the action types, structs or enums, in the order `actions` lists them.
    ///   - reducer: returns the state after an action.
    ///   - validate: called before an action is dispatched; throw a `ShellError` to refuse it.
    ///   - effect: called after an action was applied, with the new state; the actions it returns
    ///     are dispatched next, each announced by a `=> ACTION` line.
    ///   - invariants: what must hold of the state after every action (`explore`, `invariants`).
    @inlinable
    public init<State, Action>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> State,
        actionTypes: [Any.Type],
        reducer: @escaping (Action, State) -> State,
        validate: ((Action, State) throws -> Void)? = nil,
        effect: ((Action, State) -> [Action])? = nil,
        invariants: [StoreInvariant<State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(types: actionTypes),
            reducer: PureReducer(reducer), validate: validate, effect: effect.map(EffectForm.immediate),
            invariants: invariants,
            actionTypes: actionTypes)
    }

    /// The one path of every reducer form.
    @inlinable
    init<Reducer: StoreReducer>(
        reducing name: String, summary: String, state: @escaping () -> Reducer.State, actionCases: ActionCases.Lazy,
        reducer: Reducer,
        validate: ((Reducer.Action, Reducer.State) throws -> Void)?,
        effect: EffectForm<Reducer.Action, Reducer.State>?,
        invariants: [StoreInvariant<Reducer.State>],
        actionTypes: [Any.Type]? = nil
    ) {
        let app = AppValue((state: state, reducer: reducer, validate: validate, effect: effect))
        self.init(
            name: name, summary: summary, actionCases: actionCases, invariantNames: invariants.map(\.name),
            registrationError: Self.registrationError(
                name, stateType: Reducer.State.self, actionType: Reducer.Action.self, actionTypes: actionTypes),
            makeRuntime: { load throws(ShellError) in
                let initialState = try load.state.map { json throws(ShellError) in
                    try StartingState.build(Reducer.State.self, from: json, store: load.alias)
                }
                let runtime = ReducerRuntime(
                    alias: load.alias, initialState: initialState ?? app.value.state(), reducer: app.value.reducer,
                    actionCases: actionCases.value, validate: app.value.validate, effect: app.value.effect,
                    invariants: invariants, trace: load.trace, historyEntries: load.historyEntries,
                    historyForgetBatch: load.historyForgetBatch, effects: load.effects)
                runtime.attach(to: load.dispatcher)
                return runtime
            })
    }

    /// Why a store of these types cannot be loaded, or `nil`: a state that is a class instance
    /// (changed in place, it has no state before an action to diff against or go back to), or an
    /// action type listed that is not a struct or an enum.
    @usableFromInline
    static func registrationError(
        _ name: String, stateType: Any.Type, actionType: Any.Type, actionTypes: [Any.Type]?, ofStoreObject: Bool = false
    ) -> ShellError? {
        if RuntimeMetadata.kind(of: stateType) == .classInstance {
            if ofStoreObject {
                return ShellError(
                    "store '\(name)': state: returns a class instance (\(TypeNames.display(stateType))): changed in place, "
                        + "it would show no change and no step could be undone",
                    hint: "return a value (a struct) that copies what the store holds, e.g. state: { $0.snapshot }")
            }
            return ShellError(
                "store '\(name)': its state \(TypeNames.display(stateType)) is a class: a reducer changes it in place, "
                    + "so no step could be diffed or undone",
                hint:
                    "register it as a store object (make:, state:, send:), with state: giving a value (a struct) of what it holds"
            )
        }
        if let actionTypes {
            if actionTypes.isEmpty {
                return ShellError(
                    "store '\(name)': actionTypes: lists no type", hint: "list the action types, e.g. [AddTodo.self]")
            }
            for type in actionTypes {
                switch RuntimeMetadata.kind(of: type) {
                case .structure, .enumeration: continue
                case .classInstance:
                    return ShellError(
                        "store '\(name)': the action type \(TypeNames.display(type)) is a class",
                        hint:
                            "actions listed in actionTypes: are structs or enums, which the shell builds from text and keeps"
                    )
                default:
                    return ShellError(
                        "store '\(name)': the action type \(TypeNames.display(type)) is not a struct or an enum",
                        hint: "list the concrete action types, e.g. [AddTodo.self, ToggleTodo.self]")
                }
            }
            // NB: a reducer of one concrete action type takes only that type; of a protocol's
            // existential (`any Action`), whatever conforms, which is checked as each is built.
            if RuntimeMetadata.kind(of: actionType) != .existential,
                let other = actionTypes.first(where: { $0 != actionType })
            {
                return ShellError(
                    "store '\(name)': its reducer takes \(TypeNames.display(actionType)), so it cannot take the action type \(TypeNames.display(other))",
                    hint:
                        "write the reducer's action as the library's action protocol, e.g. { (action: any Action, state: AppState) in … }"
                )
            }
            var seen = Set<ObjectIdentifier>()
            for type in actionTypes where !seen.insert(ObjectIdentifier(type)).inserted {
                return ShellError("store '\(name)': the action type \(TypeNames.display(type)) is listed twice")
            }
        }
        return nil
    }
}
