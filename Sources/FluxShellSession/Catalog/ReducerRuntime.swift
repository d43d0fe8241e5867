import FluxCore
import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// A store registered with a reducer (a FluxCore mutation, `reduce:` or `reducer:`), as the
/// session sees it: its state is a value the runtime holds, each action is applied by the
/// reducer, and each state is diffed with the one before, in place.
///
/// NB: the parts an action goes through (the dispatcher's handler, the reducer, the diff step)
/// are `@inlinable`, and so are the initializers of ``StoreDefinition`` that create the runtime:
/// they are compiled for the concrete store types where the store is registered, rather than as
/// generic code that looks up type metadata on every action.
@usableFromInline
final class ReducerRuntime<Reducer: StoreReducer>: StoreRuntime {
    @usableFromInline typealias State = Reducer.State
    @usableFromInline typealias Action = Reducer.Action

    @usableFromInline let alias: String
    @usableFromInline let actionCases: ActionCases
    @usableFromInline let initialState: State
    @usableFromInline let reducer: Reducer
    @usableFromInline let validateAction: ((Action, State) throws -> Void)?
    @usableFromInline let effect: EffectForm<Action, State>?
    /// Where an effect that takes time runs: the session's.
    @usableFromInline let effects: EffectScheduler
    /// The session's time, ids and random numbers, which the reducer may read.
    @usableFromInline let environment: EnvironmentCore
    @usableFromInline let invariants: [StoreInvariant<State>]
    @usableFromInline let differ = ValueDiffer()
    @usableFromInline let stateShape = TypeShape.of(State.self)
    /// Where each handled action's diff goes: the session's, lent at load.
    @usableFromInline let trace: DispatchTrace

    // NB: a runtime belongs to one session, used from one thread at a time: what every action
    // touches is in cells, whose accesses skip the run-time exclusivity checks (see
    // `SingleThreadCell`). No lock: only the session's thread reads and changes the state. One
    // cell each, not one for all: the runtime's protocol methods are not compiled for the
    // store's types, and a member of a struct of those types, read there, costs a look-up of the
    // struct's metadata on every action of a store that validates; a cell of the state alone
    // does not.
    /// The current state.
    @usableFromInline let state: SingleThreadCell<State>
    /// The state as of the last recorded step.
    @usableFromInline let recorded: SingleThreadCell<State>
    @usableFromInline let history: SingleThreadCell<StateHistory<State, Action>>
    /// How this store's effects hand their actions to the session; made at the first one.
    @usableFromInline let sink = SingleThreadCell<EffectSink<Action>?>(nil)
    @usableFromInline let parts = SingleThreadCell(ReducerRuntimeParts())

    @usableFromInline var onFollowUp: ((ActionInvocation, any TypedAction, ObjectIdentifier) -> Void)? {
        get { parts.value.onFollowUp }
        set { parts.value.onFollowUp = newValue }
    }

    @usableFromInline
    init(
        alias: String, initialState: State, reducer: Reducer,
        actionCases: ActionCases,
        validate: ((Action, State) throws -> Void)?,
        effect: EffectForm<Action, State>?,
        invariants: [StoreInvariant<State>],
        trace: DispatchTrace, historyEntries: Int, historyForgetBatch: Int, effects: EffectScheduler
    ) {
        self.trace = trace
        self.effects = effects
        self.invariants = invariants
        self.alias = alias
        self.initialState = initialState
        self.reducer = reducer
        self.actionCases = actionCases
        self.validateAction = validate
        self.effect = effect
        self.state = SingleThreadCell(initialState)
        self.recorded = SingleThreadCell(initialState)
        var history = StateHistory<State, Action>(
            initial: initialState, entries: historyEntries, forgetBatch: historyForgetBatch)
        history.environment = effects.environment.core
        self.history = SingleThreadCell(history)
        self.environment = effects.environment.core
    }

    /// Starts taking this store's actions from the dispatcher.
    @inlinable
    func attach(to dispatcher: Dispatcher<SessionAction>) {
        // NB: the runtime holds these closures, which hold it until the session ends
        // (``end()``): a strong reference costs a call nothing, where an unowned one checks the
        // object on every call.
        parts.value.recordHistoryStep = { cursor, dropped in
            // NB: `recorded` is the store's state once its steps are recorded, as they are when
            // the session records history; reading it takes no lock.
            self.history.value.record(
                self.recorded.value, cursor: cursor, forgetting: dropped,
                pinned: self.parts.value.restoredWithoutAction,
                apply: { action, state in self.apply(action, to: &state) })
            self.parts.value.restoredWithoutAction = false
        }
        parts.value.decodeAction = { invocation in self.makeAction(invocation) }
        if let validateAction {
            parts.value.validateAction = { action in
                // NB: the session hands a store only the actions its own runtime decoded (see
                // `TypedAction`). `recorded` is the store's state: every change to it is recorded
                // before the session takes the next command.
                try validateAction((action as! TypedActionBox<Action>).action, self.recorded.value)
            }
        }
        // NB: the dispatcher holds this runtime, and the runtime holds nothing of the dispatcher:
        // both are the session's, which keeps every runtime it made for as long as it lives.
        let id = ObjectIdentifier(self)
        dispatcher.register { envelope in
            guard let payload = envelope.payload(for: id) else { return }
            // NB: a payload is only ever delivered to the store whose runtime decoded it.
            self.apply((payload as! TypedActionBox<Action>).action)
        }
    }

    @inlinable
    func apply(_ action: Action) {
        // NB: a reducer that reads the session's time, ids or random numbers (TCA's
        // `@Dependency(\.uuid)` in `reduce`) has what it drew from kept with its action, so that
        // an edit of the past replays it with the same ones.
        let reads = environment.reads
        let returned = reducer.reduceReturningEffect(&state.value, action)
        let entries = recordStep()
        if history.value.keepsActions {
            if environment.reads != reads, let recorded = environment.recorded(beforeRead: reads &+ 1) {
                history.value.noteDraws(recorded)
            }
            history.value.note(action, diff: entries)
        }
        trace.add(entries, of: alias)
        if !returned.isNone { perform(returned, after: action) }
        guard let effect else { return }
        switch effect {
        case .immediate(let effect):
            guard let onFollowUp = parts.value.onFollowUp else { return }
            for followUp in effect(action, state.value) {
                // NB: this store gets the action as the effect made it, not rebuilt from its text: an
                // `Error` or a closure in it has no text form, and a date would lose its sub-milliseconds.
                onFollowUp(actionCases.announcement(of: followUp), TypedActionBox(followUp), ObjectIdentifier(self))
            }
        case .overTime(let effect):
            start(effect, after: action)
        }
    }

    /// Starts an effect that takes time, with the state after `action`; it runs when the session
    /// runs its effects, at the end of the command.
    ///
    /// NB: inlinable, as the handler is: compiled for the store's types where it is registered,
    /// it starts an effect without looking up generic metadata on every action, and with one
    /// object for the effect (see ``EffectOf``). Generic, with a closure per part, an effect that
    /// ends at once cost more than the rest of its line (see "Effects over time" in
    /// docs/performance.md).
    @inlinable @inline(never)
    func start(
        _ effect: @escaping (Action, State, EffectContext<Action>) async throws -> [Action], after action: Action,
        ids: [AnyHashable] = []
    ) {
        let record = EffectOf(
            scheduler: effects, effect: effect, action: action, state: state.value,
            sink: sink.value ?? makeSink(),
            actionCases: actionCases)
        record.cancelIDs = ids
        record.owner = ObjectIdentifier(self)
        effects.start(record)
    }

    @usableFromInline
    func makeSink() -> EffectSink<Action> {
        let actionCases = self.actionCases
        let sink = EffectSink<Action>(
            send: { [weak self] action in
                guard let self else { return }
                self.parts.value.onFollowUp?(
                    actionCases.announcement(of: action), TypedActionBox(action), ObjectIdentifier(self))
            },
            describe: { actionCases.announcement(of: $0).description })
        self.sink.value = sink
        return sink
    }

    @usableFromInline func decode(_ invocation: ActionInvocation) -> DecodeOutcome {
        parts.value.decodeAction?(invocation) ?? makeAction(invocation)
    }

    /// NB: inlinable, and called through ``decodeAction``, as the handler is: compiled where
    /// the store is defined, it makes the action without looking up the generic metadata of
    /// `Action` and its box on every line.
    @inlinable
    func makeAction(_ invocation: ActionInvocation) -> DecodeOutcome {
        actionCases.decode(invocation, as: Action.self)
    }

    @usableFromInline var validates: Bool { validateAction != nil }

    @usableFromInline func validate(_ action: any TypedAction) throws { try parts.value.validateAction?(action) }

    @usableFromInline var json: JSONValue { parts.value.stateJSON.whole(of: state.value) }

    @usableFromInline func read(_ path: ValuePath) throws(ShellError) -> JSONValue {
        try parts.value.stateJSON.value(at: path, of: state.value)
    }

    /// The diff since the last recorded step, and the current state becomes that step.
    @inlinable
    func recordStep() -> [DiffEntry] {
        // NB: the previous state is lent by address, not copied (a cell's value is reached by
        // its address).
        let entries = differ.step(from: recorded.value, to: state.value, stateShape)
        recorded.value = state.value
        if !entries.isEmpty { parts.value.stateJSON.kept = nil }
        return entries
    }

    @usableFromInline func isUnchanged(since cursor: Int) -> Bool {
        history.value.isUnchanged(state.value, since: cursor, apply: apply)
    }

    /// Applies an action to a state as the store does, for the history to make a state again
    /// (drawing no id or random number from the session: see ``EnvironmentCore/replaying(_:)``).
    @usableFromInline func apply(_ action: Action, to state: inout State) {
        effects.environment.core.replaying { reducer.reduce(&state, action) }
    }

    @usableFromInline func end() {
        parts.value.recordHistoryStep = nil
        parts.value.decodeAction = nil
        parts.value.validateAction = nil
    }
    /// Changes only through the session's commands and the effects they start.
    @usableFromInline var changesOnItsOwn: Bool { false }
    @usableFromInline func takeChangesOnItsOwn(_ record: (ChangeOnItsOwn) -> Void) {}

    @usableFromInline func recordHistory(cursor: Int, forgetting dropped: Int) {
        parts.value.recordHistoryStep?(cursor, dropped)
    }

    @usableFromInline func restorer(at cursor: Int) throws(ShellError) -> () -> [DiffEntry] {
        do {
            let state = try history.value.state(at: cursor, apply: apply)
            return { self.restore(state) }
        } catch {
            // NB: from now on every state is kept, so the steps taken next can be undone.
            history.value.gaveAnotherState()
            throw ShellError(
                "store '\(alias)' does not come back to the state it had: its actions, applied again, give another state"
                    + (error.difference.map { " (at \($0.clause(where: "it showed")))" } ?? ""),
                hint:
                    "its reducer reads something besides the state and the action (the clock, a random number, a global): "
                    + "to pin it, \(ReplayDifference.pinning); steps taken from now on can be undone")
        }
    }

    @usableFromInline func readStateAfresh() -> JSONValue { ValueReader.read(state.value) }

    @usableFromInline func hasSameState(as other: any StoreRuntime) -> Bool {
        guard let other = other as? Self else { return false }
        return history.value.reaches(state.value, other.state.value)
    }

    @usableFromInline func brokenInvariant() -> String? {
        guard !invariants.isEmpty else { return nil }
        let state = self.state.value
        return invariants.first { !$0.holds(state) }?.name
    }

    @usableFromInline func historyDiff(ofEntry index: Int) -> [DiffEntry] {
        guard let before = try? history.value.state(at: index, apply: apply),
            let after = try? history.value.state(at: index + 1, apply: apply)
        else { return history.value.printedDiffs(ofEntry: index) }
        return ValueDiffer.entries(from: before, to: after)
    }

    @usableFromInline func historyDiff(from: Int, to: Int) -> [DiffEntry]? {
        guard let before = try? history.value.state(at: from, apply: apply),
            let after = try? history.value.state(at: to, apply: apply)
        else { return nil }
        return ValueDiffer.entries(from: before, to: after)
    }

    @usableFromInline func initialRestorer() throws(ShellError) -> () -> [DiffEntry] {
        {
            self.parts.value.restoredWithoutAction = true
            return self.restore(self.initialState)
        }
    }

    func restore(_ state: State) -> [DiffEntry] {
        self.state.value = state
        return recordStep()
    }

    /// The state and its history: values, so keeping them costs a copy only of what the command
    /// taken back goes on to change.
    struct Checkpoint: StoreCheckpoint {
        var state: State
        var history: StateHistory<State, Action>
        var restoredWithoutAction: Bool
    }

    @usableFromInline func checkpoint(cursor: Int) -> any StoreCheckpoint {
        Checkpoint(
            state: state.value, history: history.value,
            restoredWithoutAction: parts.value.restoredWithoutAction)
    }

    @usableFromInline func retractor(to checkpoint: any StoreCheckpoint) throws(ShellError) -> () -> Void {
        let kept = checkpoint as! Checkpoint
        return {
            self.history.value = kept.history
            self.parts.value.restoredWithoutAction = kept.restoredWithoutAction
            // NB: set as `undo` sets a state; the diff is not shown (the command's own was).
            _ = self.restore(kept.state)
        }
    }
}

/// What a ``ReducerRuntime`` holds of no generic type: its protocol methods, which are not
/// compiled for the store's types, read it without looking up metadata.
@usableFromInline
struct ReducerRuntimeParts {
    @usableFromInline var stateJSON = StateJSON()
    /// Whether the state was last set by no action (`reset`), so that the history keeps it.
    @usableFromInline var restoredWithoutAction = false
    @usableFromInline var onFollowUp: ((ActionInvocation, any TypedAction, ObjectIdentifier) -> Void)?
    /// Records the current state in `history`: set by ``ReducerRuntime/attach(to:)``, so that
    /// it runs as code compiled for this store's types, not as generic code.
    @usableFromInline var recordHistoryStep: ((_ cursor: Int, _ dropped: Int) -> Void)?
    /// Makes this store's action from text: set by ``ReducerRuntime/attach(to:)`` for the same
    /// reason.
    @usableFromInline var decodeAction: ((ActionInvocation) -> DecodeOutcome)?
    /// Checks this store's action in its current state, when the store validates: set by
    /// ``ReducerRuntime/attach(to:)`` for the same reason.
    @usableFromInline var validateAction: ((any TypedAction) throws -> Void)?

    @usableFromInline init() {}
}
