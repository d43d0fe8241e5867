import FluxCore

/// A named store the shell can load: its initial state, its mutation, how text becomes its
/// actions, and optionally a check before each action and effects after it.
///
/// Registering a store takes one line, for any state and any action enum (`Codable` or not):
///
/// ```swift
/// let counter = StoreDefinition("counter", state: CounterState(), mutation: CounterMutation())
/// ```
///
/// Text becomes the action case by case (`ActionCases`): `dispatch add 5` is `.add(5)`,
/// `dispatch rename id: 2 title: "x"` is `.rename(id: 2, title: "x")`, each argument read back
/// from its printed form (SPEC §4).
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
    /// How text becomes its actions, case by case (what `explore` makes actions from).
    var actionCases: ActionCases { lazyActionCases.value }
    /// Read from the action type's metadata when first needed: most of what registering a store
    /// costs, which a process that loads no store (`--version`, a `test` that only supervises its
    /// child) does not pay.
    @usableFromInline let lazyActionCases: ActionCases.Lazy
    /// Makes the store's runtime for `load`; `nil` for a running app's store (``LiveStore``),
    /// which is attached, never loaded.
    @usableFromInline let makeRuntime:
        (
            @Sendable (
                _ alias: String, _ dispatcher: Dispatcher<SessionAction>, _ trace: DispatchTrace, _ historyEntries: Int,
                _ historyForgetsWholeWindows: Bool
            ) -> any StoreRuntime
        )?

    /// - Parameters:
    ///   - name: the name for `load NAME`.
    ///   - summary: one line for `stores`.
    ///   - state: the initial state.
    ///   - mutation: applies actions to the state.
    ///   - validate: called before an action is dispatched; throw a ``ShellError`` to refuse it
    ///     (the command fails and nothing changes), e.g. for an unknown id.
    ///   - effect: called after an action was applied, with the new state; the actions it returns
    ///     are dispatched next, each announced by a `=> ACTION` line.
    ///   - invariants: what must hold of the state after every action; `fluxsh explore` checks
    ///     them, and so does the command `invariants`.
    @inlinable
    public init<M: Mutation & Sendable>(
        _ name: String,
        summary: String = "",
        state: M.State,
        mutation: M,
        validate: (@Sendable (M.Action, M.State) throws -> Void)? = nil,
        effect: (@Sendable (M.Action, M.State) -> [M.Action])? = nil,
        invariants: [StoreInvariant<M.State>] = []
    ) {
        self.name = name
        self.summary = summary
        let actionCases = ActionCases.Lazy(M.Action.self)
        self.lazyActionCases = actionCases
        self.invariantNames = invariants.map(\.name)
        self.makeRuntime = { alias, dispatcher, trace, historyEntries, historyForgetsWholeWindows in
            let runtime = TypedStoreRuntime(
                alias: alias, initialState: state, mutation: mutation,
                actionCases: actionCases.value, validate: validate, effect: effect, invariants: invariants,
                trace: trace, historyEntries: historyEntries,
                historyForgetsWholeWindows: historyForgetsWholeWindows)
            runtime.attach(to: dispatcher)
            return runtime
        }
    }
}

extension StoreDefinition {
    /// A running app's store, as a shell attached to it lists it: its actions, no maker.
    @usableFromInline
    init(live actionType: Any.Type, name: String) {
        self.name = name
        self.summary = "the running app's store"
        self.lazyActionCases = ActionCases.Lazy(actionType)
        self.invariantNames = []
        self.makeRuntime = nil
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
}
