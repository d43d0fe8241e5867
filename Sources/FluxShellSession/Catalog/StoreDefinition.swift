import FluxCore
import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// A named store the shell can load: how a session makes it, how text becomes its actions, and
/// what it checks.
///
/// A store is registered in one expression, whatever the app is written with, and its types
/// need no conformance to a FluxCore or FluxShell protocol, nor `Sendable`:
///
/// ```swift
/// StoreDefinition("counter", state: CounterState(), mutation: CounterMutation())          // FluxCore, Prex
/// StoreDefinition("todos", state: Todos.State(), reduce: { state, action in               // TCA, Elm
///     _ = Todos().reduce(into: &state, action: action)
/// })
/// StoreDefinition("redux", state: AppState(), reducer: appReducer)                       // Redux, ReSwift
/// StoreDefinition("typed", state: AppState(), actionTypes: [AddTodo.self, ClearCompleted.self],
///                 reducer: appReducer)                                                    // actions that are types
/// StoreDefinition("vcounter", make: { CounterStore() }, state: { $0.snapshot },
///                 send: { store, action in store.commit(action) })                        // a store object
/// ```
///
/// Text becomes the action case by case (`ActionCases`): `dispatch add 5` is `.add(5)`,
/// `dispatch rename id: 2 title: "x"` is `.rename(id: 2, title: "x")`, `dispatch AddTodo title: "x"`
/// is `AddTodo(title: "x")`, each argument read back from its printed form.
public struct StoreDefinition: Sendable {
    /// The name used by `load` and `--store`.
    public let name: String
    /// One line for `stores`.
    public let summary: String
    /// The action cases with their parameters, for `actions` and completion.
    public var actions: [ActionSignature] { actionCases.signatures }
    /// Why ``actions`` is empty, when it is (its action type is not an enum, or its module was
    /// built without reflection metadata).
    public var actionsUnlistedBecause: String? { actionCases.unlistedBecause }
    /// The names of the invariants it declares.
    public let invariantNames: [String]
    /// Why the store cannot be loaded, found when it was registered (an action type that is a
    /// class, a state that is a class instance given to a reducer); `nil` when it can.
    public let registrationError: ShellError?
    /// How text becomes its actions, case by case (what `explore` makes actions from).
    package var actionCases: ActionCases { lazyActionCases.value }
    /// Read from the action type's metadata when first needed: most of what registering a store
    /// costs, which a process that loads no store (`--version`, a `test` that only supervises its
    /// child) does not pay.
    @usableFromInline let lazyActionCases: ActionCases.Lazy
    /// Makes the store's runtime for `load`, or says why it cannot; `nil` for a running app's
    /// store (`LiveStore`), which is attached, never loaded.
    @usableFromInline let makeRuntime: (@Sendable (StoreLoad) throws(ShellError) -> any StoreRuntime)?
    /// Whether this is one of FluxShell's own demonstration stores (`counter`, `todos`…), which a
    /// shell's banner suggests only when it has no store of its own.
    package private(set) var isDemonstration = false
    /// Whether this is a store object, which its library may bind to the main actor (a TCA
    /// `Store`): `test` and `explore` run its sessions on the main thread (see
    /// ``StoreCatalog/needsMainThread(loading:)``).
    package let isStoreObject: Bool

    /// This store, marked as one of FluxShell's demonstrations.
    package func demonstration() -> StoreDefinition {
        var definition = self
        definition.isDemonstration = true
        return definition
    }

    /// The one initializer every form goes through.
    @usableFromInline
    init(
        name: String, summary: String, actionCases: ActionCases.Lazy, invariantNames: [String],
        registrationError: ShellError?,
        makeRuntime: (@Sendable (StoreLoad) throws(ShellError) -> any StoreRuntime)?, isStoreObject: Bool = false
    ) {
        self.isStoreObject = isStoreObject
        self.name = name
        self.summary = summary
        self.lazyActionCases = actionCases
        self.invariantNames = invariantNames
        self.registrationError = registrationError
        self.makeRuntime = makeRuntime
    }

    /// A store of the FluxCore (or Prex) form: a state and a `Mutation`.
    ///
    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - state: the initial state.
    ///   - mutation: applies actions to the state.
    ///   - validate: called before an action is dispatched; throw a `ShellError` to refuse it
    ///     (the command fails and nothing changes), e.g. for an unknown id.
    ///   - effect: called after an action was applied, with the new state; the actions it returns
    ///     are dispatched next, each announced by a `=> ACTION` line.
    ///   - invariants: what must hold of the state after every action; `fluxsh explore` checks
    ///     them, and so does the command `invariants`.
    @inlinable
    public init<M: Mutation>(
        _ name: String,
        summary: String = "",
        state: @autoclosure @escaping () -> M.State,
        mutation: M,
        validate: (@Sendable (M.Action, M.State) throws -> Void)? = nil,
        effect: (@Sendable (M.Action, M.State) -> [M.Action])? = nil,
        invariants: [StoreInvariant<M.State>] = []
    ) {
        self.init(
            reducing: name, summary: summary, state: state, actionCases: ActionCases.Lazy(M.Action.self),
            reducer: MutationReducer(mutation), validate: validate, effect: effect.map(EffectForm.immediate),
            invariants: invariants)
    }
}

/// The state a session gives a store's runtime when it loads the store.
@usableFromInline
struct StoreLoad {
    @usableFromInline let alias: String
    @usableFromInline let dispatcher: Dispatcher<SessionAction>
    @usableFromInline let trace: DispatchTrace
    /// How many entries the session's history has already: undoing past the load gives the
    /// store's initial state.
    @usableFromInline let historyEntries: Int
    /// How many entries the history forgets at once, a whole number of windows; 0 when it does
    /// not forget whole windows (a short history), so that no store drops states.
    @usableFromInline let historyForgetBatch: Int
    /// The session's effects: where an effect that takes time runs.
    @usableFromInline let effects: EffectScheduler
    /// The state the store begins from instead of its initial one (`load NAME with STATE`).
    @usableFromInline let state: JSONValue?
    /// The session's environment, which `make` and effects are given.
    @usableFromInline var environment: ShellEnvironment { effects.environment }
}

extension StoreDefinition {
    /// A running app's store, as a shell attached to it lists it: its actions, no maker.
    @usableFromInline
    package init(live actionCases: ActionCases.Lazy, name: String) {
        self.init(
            name: name, summary: "the running app's store", actionCases: actionCases, invariantNames: [],
            registrationError: nil, makeRuntime: nil)
    }
}

/// What must hold of a store's state after every action, with a name for reports:
///
/// ```swift
/// StoreInvariant("ids are unique") { state in Set(state.todos.map(\.id)).count == state.todos.count }
/// ```
public struct StoreInvariant<State>: Sendable {
    public let name: String
    @usableFromInline let holds: @Sendable (State) -> Bool

    public init(_ name: String, holds: @escaping @Sendable (State) -> Bool) {
        self.name = name
        self.holds = holds
    }
}

/// The stores a shell can load, by name, in the order they were registered.
public struct StoreCatalog: Sendable {
    public private(set) var definitions: [StoreDefinition]
    /// The shell's own name in what it prints (`run 'notesh test --update'`, a saved file's
    /// header): a user's executable is not `fluxsh`. `FluxShellMain.run` sets it from the
    /// command line.
    public var programName = "fluxsh"
    /// What every command runs inside, so that the stores' code (`make`, reducers, `send`,
    /// `state`, effects) reads the session's environment: `pinningDependencies()` of the
    /// FluxShellDependencies library sets swift-dependencies' values from it.
    public var scope: (any SessionScope)?

    public init(_ definitions: [StoreDefinition] = []) {
        self.definitions = []
        for definition in definitions { register(definition) }
    }

    /// Adds a store; a later definition with the same name replaces the earlier one.
    public mutating func register(_ definition: StoreDefinition) {
        if let index = definitions.firstIndex(where: { $0.name == definition.name }) {
            definitions[index] = definition
        } else {
            definitions.append(definition)
        }
    }

    public subscript(name: String) -> StoreDefinition? {
        definitions.first { $0.name == name }
    }

    public var names: [String] { definitions.map(\.name) }

    /// Whether a session that loads the stores `names` runs on the main thread: a store object's
    /// library may bind it to the main actor (a TCA `Store`), used with `MainActor.assumeIsolated`.
    package func needsMainThread(loading names: some Sequence<String>) -> Bool {
        names.contains { self[$0]?.isStoreObject == true }
    }
}
