import FluxCore
import FluxShellJSON
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// A running app's store as an attached session sees it: a ``StoreRuntime`` whose actions go to
/// the app's dispatcher, and whose states come from the feed (``LiveFeed``).
protocol LiveRuntime: StoreRuntime, LiveMember {
    /// The first of the session's live stores dispatches the shell's actions on the app's
    /// dispatcher (once for all of them: they share it).
    var dispatchesOwnActions: Bool { get set }
    /// The diff from the state of the last step to the `index`th state taken from the feed,
    /// which becomes the state of the step.
    func step(toTaken index: Int) -> [DiffEntry]
    /// The same, to the latest state the feed kept while the inbox was full.
    func stepToLatestTaken() -> [DiffEntry]
    /// Forgets the states taken, once the session made its steps of them.
    func forgetTaken()
    /// The state when the shell attached, as printed: what a saved scenario begins from.
    var attachedJSON: JSONValue { get }
}

@usableFromInline
final class LiveStoreRuntime<Tap: LiveTap, State>: LiveRuntime {
    @usableFromInline typealias Action = Tap.Action

    @usableFromInline let alias: String
    @usableFromInline var onFollowUp: ((ActionInvocation, any TypedAction, ObjectIdentifier) -> Void)?
    var dispatchesOwnActions = false
    /// Reads the app's store's state, between two deliveries.
    let readState: () -> State
    /// Sets the app's store's state (`undo`, `redo`, `reset`), between two deliveries; `nil` when
    /// the app gave no way to.
    let setState: ((State) -> Void)?
    let feed: LiveFeed<Tap>
    let actionCases: ActionCases
    private let trace: DispatchTrace
    private let absorbAppActions: (_ before: Int) -> Void
    /// The state when the shell attached: what `reset` puts back.
    private var attachedState: State
    /// The state as of the last step the session made: what it reads and diffs from.
    private var recorded: State
    private var stateJSON = StateJSON()
    private let differ = ValueDiffer()
    private let stateShape = TypeShape.of(State.self)
    private var history: StateHistory<State, Action>
    private var restoredWithoutAction = false

    /// What the feed copies for this store (see ``LiveStates``).
    private let states: LiveStates<State>
    let capture: (LiveSlot) -> Void
    /// The session's hold on the app's store, for the store's recorders.
    private let attachment: StoreSetListeners.Attachment
    // NB: only on the session's thread.
    private var taken: [State] = []
    private var takenLatest: State?
    private var ownCursor = 0

    @usableFromInline
    init(
        alias: String, read: @escaping () -> State, set: ((State) -> Void)?, states: LiveStates<State>,
        capture: @escaping (LiveSlot) -> Void, definition: StoreDefinition, context: LiveContext,
        attachment: StoreSetListeners.Attachment
    ) {
        self.alias = alias
        self.attachment = attachment
        self.readState = read
        self.setState = set
        self.states = states
        self.capture = capture
        // NB: the stores served together share one dispatcher (`LiveStore.check`), so one action type.
        self.feed = context.feed as! LiveFeed<Tap>
        self.actionCases = definition.actionCases
        self.trace = context.trace
        self.absorbAppActions = context.absorbAppActions
        // NB: a first state, taken again between two deliveries when the feed starts (`attachHere`).
        let state = readState()
        attachedState = state
        recorded = state
        history = StateHistory(initial: state, entries: 0, forgetBatch: 0)
        // NB: the dispatcher holds this runtime, and the runtime holds nothing of the dispatcher:
        // both are the session's, which keeps every runtime it made for as long as it lives.
        let id = ObjectIdentifier(self)
        context.dispatcher.register { envelope in
            if envelope.isFollowUp {
                self.takeOwnStep()
            } else if let payload = envelope.payload(for: id) {
                // NB: a payload is only ever delivered to the runtime that decoded it; the cast is
                // checked all the same (once per shell command, never on the app's actions).
                self.takeOwnAction((payload as! TypedActionBox<Action>).action)
            }
        }
    }

    /// The shell's action: dispatched on the app's dispatcher (by the first live store), then the
    /// step its delivery made; its follow-ups are announced for the session to deliver as steps.
    private func takeOwnAction(_ action: Action) {
        var followUps: ArraySlice<Action> = []
        if dispatchesOwnActions {
            let delivered = feed.dispatchOwn(action, absorb: absorbAppActions)
            followUps = feed.ownStartsWithAction ? delivered.dropFirst() : delivered[...]
        }
        ownCursor = 0
        // NB: a middleware that stopped the action changed nothing for it: what it dispatched
        // instead is a follow-up.
        if feed.ownStartsWithAction { takeOwnStep() }
        guard let onFollowUp else { return }
        for followUp in followUps {
            onFollowUp(actionCases.announcement(of: followUp), TypedActionBox(followUp), ObjectIdentifier(self))
        }
    }

    /// The next step of the shell's action (its own, then each follow-up's).
    private func takeOwnStep() {
        guard ownCursor < states.own.count else { return }
        let state = states.own[ownCursor]
        ownCursor += 1
        trace.add(advance(to: state), of: alias)
    }

    /// The diff from the recorded state to `state`, which becomes the recorded state.
    private func advance(to state: State) -> [DiffEntry] {
        let entries = differ.step(from: recorded, to: state, stateShape)
        recorded = state
        if !entries.isEmpty { stateJSON.kept = nil }
        return entries
    }

    // MARK: - The feed

    func takeQueued(_ count: Int, latest: LiveLatest?) {
        taken.append(contentsOf: states.queued.prefix(count))
        states.queued.removeFirst(count)
        switch latest {
        case .sealed?:
            takenLatest = states.sealed
        case .latest?:
            takenLatest = states.latest
            states.latest = nil
        case nil:
            return
        }
        states.sealed = nil
    }

    func attachHere() {
        let state = readState()
        attachedState = state
        recorded = state
        stateJSON.kept = nil
        // NB: every state is kept: the app's mutation is the app's, so no state is made again.
        history = StateHistory(initial: state, entries: 0, forgetBatch: 0)
    }

    func sealLatest() {
        states.sealed = states.latest
        states.latest = nil
    }

    func beginOwn() { states.own.removeAll(keepingCapacity: true) }

    func takeQueuedAsOwn(_ count: Int) {
        states.own.append(contentsOf: states.queued.suffix(count))
        states.queued.removeLast(count)
    }

    func step(toTaken index: Int) -> [DiffEntry] { advance(to: taken[index]) }

    func stepToLatestTaken() -> [DiffEntry] {
        guard let takenLatest else { return [] }
        return advance(to: takenLatest)
    }

    func forgetTaken() {
        taken.removeAll(keepingCapacity: true)
        takenLatest = nil
    }

    var attachedJSON: JSONValue { ValueReader.read(attachedState) }

    // MARK: - StoreRuntime

    @usableFromInline func decode(_ invocation: ActionInvocation) -> DecodeOutcome {
        actionCases.decode(invocation, as: Action.self)
    }

    /// The app checks its own actions, if it does: the shell does not.
    @usableFromInline func validate(_ action: any TypedAction) throws {}
    @usableFromInline var validates: Bool { false }

    @usableFromInline var json: JSONValue { stateJSON.whole(of: recorded) }

    @usableFromInline func read(_ path: ValuePath) throws(ShellError) -> JSONValue {
        try stateJSON.value(at: path, of: recorded)
    }

    /// Nothing to let go of: no hook of its own holds it.
    @usableFromInline func end() { attachment.end() }

    /// The app's own actions come through the feed (``AppStep``), not from here.
    @usableFromInline var changesOnItsOwn: Bool { false }
    @usableFromInline func takeChangesOnItsOwn(_ record: (ChangeOnItsOwn) -> Void) {}

    @usableFromInline func isUnchanged(since cursor: Int) -> Bool {
        history.isUnchanged(recorded, since: cursor, apply: Self.keptOnly)
    }

    @usableFromInline func recordHistory(cursor: Int, forgetting dropped: Int) {
        history.record(
            recorded, cursor: cursor, forgetting: dropped, pinned: restoredWithoutAction, apply: Self.keptOnly)
        restoredWithoutAction = false
    }

    @usableFromInline func restorer(at cursor: Int) throws(ShellError) -> () -> [DiffEntry] {
        try checkSettable()
        guard let state = try? history.state(at: cursor, apply: Self.keptOnly) else {
            throw ShellError("store '\(alias)' no longer has that state")
        }
        return { self.restore(state) }
    }

    @usableFromInline func readStateAfresh() -> JSONValue { ValueReader.read(recorded) }

    @usableFromInline func hasSameState(as other: any StoreRuntime) -> Bool { json == other.json }

    @usableFromInline func brokenInvariant() -> String? { nil }

    @usableFromInline func historyDiff(from: Int, to: Int) -> [DiffEntry]? {
        guard let before = try? history.state(at: from, apply: Self.keptOnly),
            let after = try? history.state(at: to, apply: Self.keptOnly)
        else { return nil }
        return ValueDiffer.entries(from: before, to: after)
    }

    @usableFromInline func historyDiff(ofEntry index: Int) -> [DiffEntry] {
        guard let before = try? history.state(at: index, apply: Self.keptOnly),
            let after = try? history.state(at: index + 1, apply: Self.keptOnly)
        else { return [] }
        return ValueDiffer.entries(from: before, to: after)
    }

    @usableFromInline func initialRestorer() throws(ShellError) -> () -> [DiffEntry] {
        try checkSettable()
        return {
            self.restoredWithoutAction = true
            return self.restore(self.attachedState)
        }
    }

    @usableFromInline func replayer(_ plan: ReplayPlan) throws(ShellError) -> () -> [DiffEntry] {
        throw replayRefusal
    }

    @usableFromInline func sweeper(_ plan: ReplayPlan) throws(ShellError) -> () -> Void { throw replayRefusal }

    /// Why the app's store does not replay its steps with some left out or replaced.
    private var replayRefusal: ShellError {
        ShellError(
            "store '\(alias)' is the running app's: the app applies its actions itself, and their effects ran there, so its steps cannot be replayed with one left out or replaced",
            hint: "undo and redo set the app's store to the states it had")
    }

    @usableFromInline func historyState(at cursor: Int) -> JSONValue? {
        (try? history.state(at: cursor, apply: Self.keptOnly)).map { ValueReader.read($0) }
    }

    @usableFromInline func forgetHistory(keeping cursor: Int) {
        history.forgetAll(keeping: recorded, cursor: cursor)
        restoredWithoutAction = false
    }

    /// Nothing: what the app did cannot be taken back.
    struct Checkpoint: StoreCheckpoint {}

    @usableFromInline func checkpoint(cursor: Int) -> any StoreCheckpoint { Checkpoint() }

    /// NB: the action ran in the app (its views, its own effects), and the app's actions came in
    /// around it: setting the store back would not make it as if the action had not run.
    @usableFromInline func retractor(to checkpoint: any StoreCheckpoint) throws(ShellError) -> () -> Void {
        throw ShellError("it ran in the app, which the shell cannot take back")
    }

    /// Throws unless the app's store can be set (its `LiveStore` was given `restore:`).
    private func checkSettable() throws(ShellError) {
        guard setState == nil else { return }
        throw ShellError(
            "the running app's store '\(alias)' cannot be set: its LiveStore was given no restore:",
            hint: "undo, redo and reset need LiveStore(…, restore: { state in … }) in the app")
    }

    /// Sets the app's store to `state`: its observers and presenters see the change as any other.
    private func restore(_ state: State) -> [DiffEntry] {
        setState?(state)
        // NB: read back, not assumed: the diff shows where the app's store is.
        return advance(to: readState())
    }

    /// NB: a live store's history keeps every state (`forgetBatch: 0`), so it never applies an
    /// action to make one again: the app's mutation is the app's.
    private static func keptOnly(_: Action, _: inout State) {}
}
