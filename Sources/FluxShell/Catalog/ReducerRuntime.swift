import FluxCore
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
    // NB: a runtime belongs to one session, used from one thread at a time: the properties
    // touched on every action skip the run-time exclusivity checks. Each on its own: grouped in
    // one struct behind one unchecked property (as the session's are), a piped line cost 3.3 %
    // more (callgrind, 20,000 `dispatch increment`: 210.5M instructions against 203.8M).
    @usableFromInline @exclusivity(unchecked) var onFollowUp:
        ((ActionInvocation, TypedAction, ObjectIdentifier) -> Void)?
    /// The current state. No lock: only the session's thread reads and changes it.
    @usableFromInline @exclusivity(unchecked) var state: State
    let initialState: State
    @usableFromInline let reducer: Reducer
    @usableFromInline let validateAction: ((Action, State) throws -> Void)?
    @usableFromInline let effect: StoreEffect<Action, State>?
    /// Where an effect that takes time runs: the session's.
    @usableFromInline let effects: EffectScheduler
    /// How this store's effects hand their actions to the session; made at the first one.
    @usableFromInline @exclusivity(unchecked) var sink: EffectSink<Action>?
    @usableFromInline let invariants: [StoreInvariant<State>]
    /// The state as of the last recorded step.
    @usableFromInline @exclusivity(unchecked) var recorded: State
    @usableFromInline @exclusivity(unchecked) var cachedJSON: JSONValue?
    @usableFromInline let differ = ValueDiffer()
    @usableFromInline let stateShape = TypeShape.of(State.self)
    /// Where each handled action's diff goes: the session's, lent at load.
    @usableFromInline let trace: DispatchTrace
    @usableFromInline @exclusivity(unchecked) var history: StateHistory<State, Action>
    /// Whether the state was last set by no action (`reset`), so that the history keeps it.
    @usableFromInline @exclusivity(unchecked) var restoredWithoutAction = false
    /// Records the current state in `history`: set by ``attach(to:)``, so that it runs as code
    /// compiled for this store's types (see above), not as generic code.
    @usableFromInline @exclusivity(unchecked) var recordHistoryStep: ((_ cursor: Int, _ dropped: Int) -> Void)?
    /// Makes this store's action from text: set by ``attach(to:)`` for the same reason.
    @usableFromInline @exclusivity(unchecked) var decodeAction: ((ActionInvocation) -> DecodeOutcome)?

    @usableFromInline
    init(
        alias: String, initialState: State, reducer: Reducer,
        actionCases: ActionCases,
        validate: ((Action, State) throws -> Void)?,
        effect: StoreEffect<Action, State>?,
        invariants: [StoreInvariant<State>],
        trace: DispatchTrace, historyEntries: Int, historyForgetsWholeWindows: Bool, effects: EffectScheduler
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
        self.state = initialState
        self.recorded = initialState
        self.history = StateHistory(
            initial: initialState, entries: historyEntries, mayReplay: historyForgetsWholeWindows)
    }

    /// Starts taking this store's actions from the dispatcher.
    @inlinable
    func attach(to dispatcher: Dispatcher<SessionAction>) {
        let id = ObjectIdentifier(self)
        // NB: unowned(unsafe) (no reference counting per action) is safe: the session owns both
        // the dispatcher and this runtime, makes a runtime only once a `load` can no longer fail,
        // and keeps every runtime it made for as long as it lives (stores are never unloaded), so
        // no action and no call reaches a runtime that is gone.
        recordHistoryStep = { [unowned(unsafe) self] cursor, dropped in
            // NB: `recorded` is the store's state once its steps are recorded, as they are when
            // the session records history; reading it takes no lock, and lending it by address
            // no copy beyond the one the history keeps.
            self.history.record(
                self.recorded, cursor: cursor, forgetting: dropped, pinned: self.restoredWithoutAction,
                // NB: unowned(unsafe) as the closure it is in (see above): the history calls it
                // only while the runtime records a step.
                apply: { [unowned(unsafe) self] action, state in self.apply(action, to: &state) })
            self.restoredWithoutAction = false
        }
        decodeAction = { [unowned self] invocation in self.makeAction(invocation) }
        dispatcher.register { [unowned(unsafe) self] envelope in
            guard let payload = envelope.payload(for: id) else { return }
            self.apply(unsafeDowncast(payload, to: TypedActionBox<Action>.self).action)
        }
    }

    @inlinable
    func apply(_ action: Action) {
        reducer.reduce(&state, action)
        let entries = recordStep()
        if history.replays { history.note(action, diff: entries) }
        trace.add(entries, of: alias)
        guard let effect else { return }
        switch effect {
        case .immediate(let effect):
            guard let onFollowUp else { return }
            for followUp in effect(action, state) {
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
    /// ends at once cost 12,000 instructions (callgrind); see docs/performance.md for now.
    @inlinable @inline(never)
    func start(
        _ effect: @escaping (Action, State, EffectContext<Action>) async throws -> [Action], after action: Action
    ) {
        let record = EffectOf(
            scheduler: effects, effect: effect, action: action, state: state, sink: sink ?? makeSink(),
            actionCases: actionCases)
        effects.start(record)
    }

    @usableFromInline
    func makeSink() -> EffectSink<Action> {
        let actionCases = self.actionCases
        let sink = EffectSink<Action>(
            send: { [weak self] action in
                guard let self else { return }
                self.onFollowUp?(actionCases.announcement(of: action), TypedActionBox(action), ObjectIdentifier(self))
            },
            describe: { actionCases.announcement(of: $0).description })
        self.sink = sink
        return sink
    }

    @usableFromInline func decode(_ invocation: ActionInvocation) -> DecodeOutcome {
        decodeAction?(invocation) ?? makeAction(invocation)
    }

    /// NB: inlinable, and called through ``decodeAction``, as the handler is: compiled where
    /// the store is defined, it makes the action without looking up the generic metadata of
    /// `Action` and its box on every line.
    @inlinable
    func makeAction(_ invocation: ActionInvocation) -> DecodeOutcome {
        actionCases.decode(invocation, as: Action.self)
    }

    @usableFromInline var validates: Bool { validateAction != nil }

    @inlinable
    func validate(_ action: TypedAction) throws {
        guard let validateAction else { return }
        // NB: the session hands a store only the actions its own runtime decoded (see `TypedAction`).
        let box = unsafeDowncast(action, to: TypedActionBox<Action>.self)
        // NB: `recorded` is the store's state: every change to it is recorded before the session
        // takes the next command. Lent through its address, it is read without the copy (a
        // retain of every member) that passing the property itself makes.
        try withUnsafePointer(to: &recorded) { try validateAction(box.action, $0.pointee) }
    }

    @usableFromInline var json: JSONValue {
        // NB: valid while nothing changed since; a recorded step that changed something clears it.
        if let cachedJSON { return cachedJSON }
        let json = ValueReader.read(state)
        cachedJSON = json
        return json
    }

    @usableFromInline func read(_ path: ValuePath) throws(ShellError) -> JSONValue {
        // NB: a whole state already read answers at once; else only the path's values are read,
        // so one `state todos[5].title` does not print 300,000 todos into memory first.
        if cachedJSON == nil, !path.segments.isEmpty,
            let value = ValueReader().read(state, at: path.segments[...])
        {
            return value
        }
        return try path.lookup(in: json)
    }

    /// The diff since the last recorded step, and the current state becomes that step.
    @inlinable
    func recordStep() -> [DiffEntry] {
        // NB: the previous state is lent by address, not copied (see `validate(_:)`).
        let entries = differ.step(from: recorded, to: state, stateShape)
        recorded = state
        if !entries.isEmpty { cachedJSON = nil }
        return entries
    }

    @usableFromInline func isUnchanged(since cursor: Int) -> Bool {
        guard let before = try? history.state(at: cursor, apply: apply) else { return false }
        return ValueDiffer.entries(from: before, to: state).isEmpty
    }

    /// Applies an action to a state as the store does, for the history to make a state again
    /// (drawing no id or random number from the session: see ``EnvironmentCore/replaying(_:)``).
    @usableFromInline func apply(_ action: Action, to state: inout State) {
        effects.environment.core.replaying { reducer.reduce(&state, action) }
    }

    @usableFromInline func recordHistory(cursor: Int, forgetting dropped: Int) {
        recordHistoryStep?(cursor, dropped)
    }

    @usableFromInline func restorer(at cursor: Int) throws(ShellError) -> () -> [DiffEntry] {
        do {
            let state = try history.state(at: cursor, apply: apply)
            return { self.restore(state) }
        } catch {
            // NB: from now on every state is kept, so the steps taken next can be undone.
            history.replays = false
            throw ShellError(
                "store '\(alias)' does not come back to the state it had: its actions, applied again, give another state"
                    + (error.difference.map { " (at \($0.clause(where: "it showed")))" } ?? ""),
                hint:
                    "its reducer reads something besides the state and the action (the clock, a random number, a global): "
                    + "to pin it, \(ReplayDifference.pinning); steps taken from now on can be undone")
        }
    }

    @usableFromInline func readStateAfresh() -> JSONValue { ValueReader.read(state) }

    @usableFromInline func hasSameState(as other: any StoreRuntime) -> Bool {
        guard let other = other as? Self else { return false }
        return history.reaches(state, other.state)
    }

    @usableFromInline func brokenInvariant() -> String? {
        guard !invariants.isEmpty else { return nil }
        let state = self.state
        return invariants.first { !$0.holds(state) }?.name
    }

    @usableFromInline func historyDiff(ofEntry index: Int) -> [DiffEntry] {
        guard let before = try? history.state(at: index, apply: apply),
            let after = try? history.state(at: index + 1, apply: apply)
        else { return history.printedDiffs(ofEntry: index) }
        return ValueDiffer.entries(from: before, to: after)
    }

    @usableFromInline func initialRestorer() throws(ShellError) -> () -> [DiffEntry] {
        {
            self.restoredWithoutAction = true
            return self.restore(self.initialState)
        }
    }

    private func restore(_ state: State) -> [DiffEntry] {
        self.state = state
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
        Checkpoint(state: state, history: history, restoredWithoutAction: restoredWithoutAction)
    }

    @usableFromInline func retractor(to checkpoint: any StoreCheckpoint) throws(ShellError) -> () -> Void {
        let kept = checkpoint as! Checkpoint
        return {
            self.history = kept.history
            self.restoredWithoutAction = kept.restoredWithoutAction
            // NB: set as `undo` sets a state; the diff is not shown (the command's own was).
            _ = self.restore(kept.state)
        }
    }
}
