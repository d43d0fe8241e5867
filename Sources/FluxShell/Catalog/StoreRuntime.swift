import FluxCore

/// A loaded store, seen through the types the session knows: text in, JSON out. Three jobs:
/// making and checking its actions (`decode`, `validate`, `onFollowUp`), reading its state
/// (`json`, `read`, `readStateAfresh`, `hasSameState`, `brokenInvariant`), and its states along
/// the session's ``Timeline`` (`recordHistory`, `restorer`, `restoreInitial`, `isUnchanged`,
/// `historyDiff`). Each action's diff goes to the session's ``DispatchTrace``, lent at load.
@usableFromInline
protocol StoreRuntime: AnyObject {
    var alias: String { get }
    /// Called with each follow-up action an effect produced, in order: in command syntax (for the
    /// `=> ` line and the other stores), typed for this store, and this store's identity.
    var onFollowUp: ((ActionInvocation, TypedAction, ObjectIdentifier) -> Void)? { get set }

    /// The typed action for `invocation`, or why this store does not take it.
    func decode(_ invocation: ActionInvocation) -> DecodeOutcome
    /// Throws when the store refuses `action` in its current state.
    func validate(_ action: TypedAction) throws
    /// Whether the store checks actions before they are dispatched.
    var validates: Bool { get }
    /// The current state as printed (read once per change, when asked).
    var json: JSONValue { get }
    /// The value at `path` in the current state, reading only what the path goes through.
    func read(_ path: ValuePath) throws(ShellError) -> JSONValue
    /// Whether the state is what it was with the first `cursor` history entries done.
    func isUnchanged(since cursor: Int) -> Bool
    /// Mirrors ``SessionHistory/record(action:followUps:storeCount:transcriptIndex:)`` with the current state.
    func recordHistory(cursor: Int, forgetting dropped: Int)
    /// What puts back the state with the first `cursor` history entries done and returns the
    /// diff, or why that state cannot be made again; nothing changes until it is called.
    func restorer(at cursor: Int) throws(ShellError) -> () -> [DiffEntry]
    /// The current state read afresh, not from the cache a diff keeps valid: a state changed in
    /// place through a class instance it holds shows here, not in diffs.
    func readStateAfresh() -> JSONValue
    /// Whether `other`, a runtime of the same store, holds the same state as values: `==` (or
    /// equal bits) for an `Equatable` state, else no difference in what prints.
    func hasSameState(as other: any StoreRuntime) -> Bool
    /// The name of the first declared invariant the current state breaks, if one does.
    func brokenInvariant() -> String?
    /// The diff that history entry `index` made to this store, from the states kept for undo
    /// (one step for the whole command, follow-ups included).
    func historyDiff(ofEntry index: Int) -> [DiffEntry]
    /// Puts back the initial state; returns the diff.
    func restoreInitial() -> [DiffEntry]
}

@usableFromInline
enum DecodeOutcome {
    /// The action, and the invocation in printed form when it was not typed in it.
    case accepted(TypedAction, printed: ActionInvocation?)
    /// The store has no action of that name.
    case unknownCase
    /// The store has that action, but not with these arguments.
    case rejected(ShellError)
}

/// A store as the session sees it, for one mutation type.
///
/// NB: the parts an action goes through (the dispatcher's handler, the mutation, the diff step)
/// are `@inlinable`, and so is ``StoreDefinition/init(_:summary:state:mutation:validate:effect:)``
/// that creates the runtime: they are compiled for the concrete store types where the store is
/// defined, rather than as generic code that looks up type metadata on every action.
@usableFromInline
final class TypedStoreRuntime<M: Mutation & Sendable>: StoreRuntime {
    @usableFromInline let alias: String
    @usableFromInline let actionCases: ActionCases
    // NB: a runtime belongs to one session, used from one thread at a time: the properties
    // touched on every action skip the run-time exclusivity checks. Each on its own: grouped in
    // one struct behind one unchecked property (as the session's are), a piped line cost 3.3 %
    // more (callgrind, 20,000 `dispatch increment`: 210.5M instructions against 203.8M).
    @usableFromInline @exclusivity(unchecked) var onFollowUp:
        ((ActionInvocation, TypedAction, ObjectIdentifier) -> Void)?
    @usableFromInline let store: Store<M.State>
    let initialState: M.State
    @usableFromInline let mutation: M
    @usableFromInline let validateAction: (@Sendable (M.Action, M.State) throws -> Void)?
    @usableFromInline let effect: (@Sendable (M.Action, M.State) -> [M.Action])?
    @usableFromInline let invariants: [StoreInvariant<M.State>]
    /// The state as of the last recorded step.
    @usableFromInline @exclusivity(unchecked) var recorded: M.State
    @usableFromInline @exclusivity(unchecked) var cachedJSON: JSONValue?
    @usableFromInline let differ = ValueDiffer()
    @usableFromInline let stateShape = TypeShape.of(M.State.self)
    /// Where each handled action's diff goes: the session's, lent at load.
    @usableFromInline let trace: DispatchTrace
    @usableFromInline @exclusivity(unchecked) var history: StateHistory<M.State, M.Action>
    /// Whether the state was last set by no action (`reset`), so that the history keeps it.
    @usableFromInline @exclusivity(unchecked) var restoredWithoutAction = false
    /// Records the current state in `history`: set by ``attach(to:)``, so that it runs as code
    /// compiled for this store's types (see above), not as generic code.
    @usableFromInline @exclusivity(unchecked) var recordHistoryStep: ((_ cursor: Int, _ dropped: Int) -> Void)?
    /// Makes this store's action from text: set by ``attach(to:)`` for the same reason.
    @usableFromInline @exclusivity(unchecked) var decodeAction: ((ActionInvocation) -> DecodeOutcome)?

    @usableFromInline
    init(
        alias: String, initialState: M.State, mutation: M,
        actionCases: ActionCases,
        validate: (@Sendable (M.Action, M.State) throws -> Void)?,
        effect: (@Sendable (M.Action, M.State) -> [M.Action])?,
        invariants: [StoreInvariant<M.State>],
        trace: DispatchTrace, historyEntries: Int, historyForgetsWholeWindows: Bool
    ) {
        self.trace = trace
        self.invariants = invariants
        self.alias = alias
        self.initialState = initialState
        self.mutation = mutation
        self.actionCases = actionCases
        self.validateAction = validate
        self.effect = effect
        self.store = Store(state: initialState)
        self.recorded = initialState
        // NB: a state of plain bits (a counter) costs nothing to keep; only a state that holds
        // storage, and only values, is made again from its actions (see `StateHistory`).
        let shape = TypeShape.of(M.State.self)
        self.history = StateHistory(
            initial: initialState, entries: historyEntries,
            replays: historyForgetsWholeWindows && !shape.isBitwise && TypeShape.holdsOnlyValues(M.State.self))
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
            let mutation = self.mutation
            self.history.record(
                self.recorded, cursor: cursor, forgetting: dropped, pinned: self.restoredWithoutAction,
                apply: { mutation.mutate(action: $0, state: &$1) })
            self.restoredWithoutAction = false
        }
        decodeAction = { [unowned self] invocation in self.makeAction(invocation) }
        dispatcher.register { [unowned(unsafe) self] envelope in
            guard let payload = envelope.payload(for: id) else { return }
            self.apply(unsafeDowncast(payload, to: TypedActionBox<M.Action>.self).action)
        }
    }

    @inlinable
    func apply(_ action: M.Action) {
        let mutation = self.mutation
        store.mutate { mutation.mutate(action: action, state: &$0) }
        let entries = recordStep()
        if history.replays { history.note(action, diff: entries) }
        trace.add(entries, of: alias)
        guard let effect, let onFollowUp else { return }
        for followUp in effect(action, store.state) {
            // NB: this store gets the action as the effect made it, not rebuilt from its text: an
            // `Error` or a closure in it has no text form, and a date would lose its sub-milliseconds.
            onFollowUp(ActionText.announcement(of: followUp), TypedActionBox(followUp), ObjectIdentifier(self))
        }
    }

    @usableFromInline func decode(_ invocation: ActionInvocation) -> DecodeOutcome {
        decodeAction?(invocation) ?? makeAction(invocation)
    }

    /// NB: inlinable, and called through ``decodeAction``, as the handler is: compiled where
    /// the store is defined, it makes the action without looking up the generic metadata of
    /// `M.Action` and its box on every line.
    @inlinable
    func makeAction(_ invocation: ActionInvocation) -> DecodeOutcome {
        actionCases.decode(invocation, as: M.Action.self)
    }

    @usableFromInline var validates: Bool { validateAction != nil }

    @inlinable
    func validate(_ action: TypedAction) throws {
        guard let validateAction else { return }
        // NB: the session hands a store only the actions its own runtime decoded (see `TypedAction`).
        let box = unsafeDowncast(action, to: TypedActionBox<M.Action>.self)
        // NB: `recorded` is the store's state: every change to it is recorded before the session
        // takes the next command. Lent through its address, it is read without the lock and
        // without the copy (a retain of every member) that passing the property itself makes.
        try withUnsafePointer(to: &recorded) { try validateAction(box.action, $0.pointee) }
    }

    @usableFromInline var json: JSONValue {
        // NB: valid while nothing changed since; a recorded step that changed something clears it.
        if let cachedJSON { return cachedJSON }
        let json = ValueReader.read(store.state)
        cachedJSON = json
        return json
    }

    @usableFromInline func read(_ path: ValuePath) throws(ShellError) -> JSONValue {
        // NB: a whole state already read answers at once; else only the path's values are read,
        // so one `state todos[5].title` does not print 300,000 todos into memory first.
        if cachedJSON == nil, !path.segments.isEmpty,
            let value = ValueReader().read(store.state, at: path.segments[...])
        {
            return value
        }
        return try path.lookup(in: json)
    }

    /// The diff since the last recorded step, and the current state becomes that step.
    @inlinable
    func recordStep() -> [DiffEntry] {
        let current = store.state
        // NB: the previous state is lent by address, not copied (see `validate(_:)`).
        let entries = differ.step(from: recorded, to: current, stateShape)
        recorded = current
        if !entries.isEmpty { cachedJSON = nil }
        return entries
    }

    @usableFromInline func isUnchanged(since cursor: Int) -> Bool {
        guard let before = try? history.state(at: cursor, apply: apply) else { return false }
        return ValueDiffer.entries(from: before, to: store.state).isEmpty
    }

    /// Applies an action to a state as the store does, for the history to make a state again.
    func apply(_ action: M.Action, to state: inout M.State) { mutation.mutate(action: action, state: &state) }

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
                "store '\(alias)' does not come back to the state it had: its actions, applied again, give another state",
                hint:
                    "its mutation reads something besides the state and the action (the clock, a random number, a global); "
                    + "steps taken from now on can be undone")
        }
    }

    @usableFromInline func readStateAfresh() -> JSONValue { ValueReader.read(store.state) }

    @usableFromInline func hasSameState(as other: any StoreRuntime) -> Bool {
        guard let other = other as? Self else { return false }
        return history.reaches(store.state, other.store.state)
    }

    @usableFromInline func brokenInvariant() -> String? {
        guard !invariants.isEmpty else { return nil }
        let state = store.state
        return invariants.first { !$0.holds(state) }?.name
    }

    @usableFromInline func historyDiff(ofEntry index: Int) -> [DiffEntry] {
        guard let before = try? history.state(at: index, apply: apply),
            let after = try? history.state(at: index + 1, apply: apply)
        else { return history.printedDiffs(ofEntry: index) }
        return ValueDiffer.entries(from: before, to: after)
    }

    @usableFromInline func restoreInitial() -> [DiffEntry] {
        restoredWithoutAction = true
        return restore(initialState)
    }

    private func restore(_ state: M.State) -> [DiffEntry] {
        store.replace(with: state)
        return recordStep()
    }
}
