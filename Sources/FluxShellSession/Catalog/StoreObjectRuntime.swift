import FluxCore
import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// What an app gives for a store object: how to make a new one, read its state as a value, send
/// it an action and, optionally, set its state and hook the shell into the library's own hook.
@usableFromInline
struct StoreObjectForm<Object: AnyObject, State, Action> {
    @usableFromInline let make: (ShellEnvironment) -> Object
    @usableFromInline let state: (Object) -> State
    @usableFromInline let send: StoreObjectSend<Object, Action>
    @usableFromInline let restore: ((Object, State) -> Void)?
    /// Called once for each store made, to report what its library applies to a ``StoreFeed``.
    @usableFromInline let observe: ((Object, StoreFeed<Action, State>) -> Void)?
    /// The objects the loads of this store received, so that one returned twice is refused.
    @usableFromInline let made: MadeObjects

    @inlinable
    init(
        make: @escaping (ShellEnvironment) -> Object, state: @escaping (Object) -> State,
        send: StoreObjectSend<Object, Action>,
        restore: ((Object, State) -> Void)?, observe: ((Object, StoreFeed<Action, State>) -> Void)?
    ) {
        self.make = make
        self.state = state
        self.send = send
        self.restore = restore
        self.observe = observe
        self.made = MadeObjects()
    }
}

/// How a store object is sent an action: `send:` returns once the library took it, or is
/// `async`, and the shell awaits it (see "Stores that change on their own" in the reference).
@usableFromInline
enum StoreObjectSend<Object, Action> {
    case now((Object, Action) -> Void)
    case later((Object, Action) async -> Void)
}

/// The store objects a store's `make` returned that are still alive, shared by every session of
/// the process: a `make` that returns an object another load holds (a shared instance) is refused,
/// since two sessions, or a store and its replay, would change each other's state.
@usableFromInline
final class MadeObjects: Sendable {
    private struct Entry {
        weak var object: AnyObject?
        let id: ObjectIdentifier
    }

    private let entries = LockedValue<[Entry]>([])

    @usableFromInline init() {}

    /// Takes `object` for a load; false when a load holds it already.
    @usableFromInline
    func claim(_ object: AnyObject) -> Bool {
        let id = ObjectIdentifier(object)
        return entries.withLock { entries in
            entries.removeAll { $0.object == nil }
            guard !entries.contains(where: { $0.id == id }) else { return false }
            entries.append(Entry(object: object, id: id))
            return true
        }
    }
}

/// A store object (TCA's `Store`, ReSwift's `Store`, a class-based store, the app's own) as the
/// session sees it: each action is sent to it, and its diff is the difference between its state,
/// read as a value, before and after.
///
/// `undo`, `redo` and `reset` set the store's state with the app's `restore`, when it gave one;
/// otherwise they make a new store and send it the kept actions again, and the state it reaches
/// must equal the one shown at that step, or the command is refused and nothing changes.
@usableFromInline
final class StoreObjectRuntime<Object: AnyObject, State, Action>: StoreRuntime {
    /// How the state of one history entry is made again without `restore`: a new store, sent the
    /// actions numbered `start..<end` since the store was loaded.
    struct Replay {
        var start: Int
        var end: Int
        /// The store changed on its own on the way: no action makes the state again.
        var changedOnItsOwn = false
    }

    @usableFromInline let alias: String
    @usableFromInline var onFollowUp: ((ActionInvocation, any TypedAction, ObjectIdentifier) -> Void)?
    @usableFromInline let actionCases: ActionCases
    @usableFromInline let form: StoreObjectForm<Object, State, Action>
    @usableFromInline var object: Object
    /// The state as of the last step: what was shown.
    @usableFromInline var recorded: State
    let initialState: State
    @usableFromInline var stateJSON = StateJSON()
    @usableFromInline let differ = ValueDiffer()
    @usableFromInline let stateShape = TypeShape.of(State.self)
    @usableFromInline let trace: DispatchTrace
    /// Every state is kept: no action is applied to a state value outside the store.
    var history: StateHistory<State, Action>
    /// The actions a new store may be sent again: those numbered from `logStart` on (the earlier
    /// ones are forgotten with the history entries that needed them).
    var log: [Action] = []
    var logStart = 0
    /// How the state before the oldest kept entry is made again (the initial state until the
    /// history forgets entries).
    var baseline = Replay(start: 0, end: 0)
    /// The actions sent since the last recorded step.
    @usableFromInline var pending: [Action] = []
    /// One per history entry.
    var replays: [Replay]
    var restoredWithoutAction = false
    /// The store changed on its own since the last recorded step.
    var changedOnItsOwnSinceStep = false
    /// The session's effects: how long a command may wait, and where its problems go.
    let effects: EffectScheduler
    /// The session's environment, which `make` is given.
    var environment: ShellEnvironment { effects.environment }
    /// What the store's hook reports, when the app gave `observe:` (see ``StoreFeed``).
    @usableFromInline var feed: StoreFeed<Action, State>?
    /// Whether the store was seen to apply an action on the main queue, after `send` returned:
    /// the shell then runs the main queue before it reads the state for a change of its own.
    @usableFromInline var appliesOnMainQueue = false
    /// The actions an `async` send is sending to a store with a hook, not yet reported back.
    var awaited: [Action] = []
    /// Whether the store's last own action came back through its hook before `send` returned:
    /// a store that applies actions at once is not waited for when it reports nothing.
    @usableFromInline var appliesAtOnce = false

    @usableFromInline
    init(
        alias: String, form: StoreObjectForm<Object, State, Action>, actionCases: ActionCases, trace: DispatchTrace,
        historyEntries: Int, effects: EffectScheduler, startingState: JSONValue? = nil
    ) throws(ShellError) {
        self.alias = alias
        self.effects = effects
        let environment = effects.environment
        self.form = form
        self.actionCases = actionCases
        self.trace = trace
        object = try Self.make(form, alias: alias, in: environment)
        if let startingState {
            // NB: set with the app's `restore`, and read back: the state shown is the store's.
            guard let restore = form.restore else {
                throw ShellError(
                    "store '\(alias)' cannot begin from a given state: its StoreDefinition was given no restore:",
                    hint: "give restore: { store, state in … } to set its state, or load it without 'with'")
            }
            restore(object, try StartingState.build(State.self, from: startingState, store: alias))
        }
        // NB: what the hook reports while the store is made and set is what the state read here shows.
        feed = Self.observe(object, form, signal: effects.changeSignal)
        _ = feed?.take()
        let state = try Self.state(of: object, form, alias: alias)
        initialState = state
        recorded = state
        history = StateHistory(initial: state, entries: historyEntries, forgetBatch: 0)
        replays = Array(repeating: Replay(start: 0, end: 0), count: historyEntries)
    }

    /// A new store object from the app's `make`, refused when a load holds it already.
    static func make(_ form: StoreObjectForm<Object, State, Action>, alias: String, in environment: ShellEnvironment)
        throws(ShellError) -> Object
    {
        let object = form.make(environment)
        guard form.made.claim(object) else {
            throw ShellError(
                "store '\(alias)': make: returned a store object that is in use already (\(TypeNames.display(Object.self)))",
                hint:
                    "make: must create a new store each time it is called, e.g. make: { CounterStore() }, not a shared instance"
            )
        }
        return object
    }

    /// The store's state, refused when it is a class instance: changed in place, it would show
    /// no change and no step could be undone.
    static func state(of object: Object, _ form: StoreObjectForm<Object, State, Action>, alias: String)
        throws(ShellError) -> State
    {
        let state = form.state(object)
        let held = Swift.type(of: state as Any)
        guard RuntimeMetadata.kind(of: held) != .classInstance else {
            throw ShellError(
                "store '\(alias)': state: returned a class instance (\(TypeNames.display(held)))",
                hint: "return a value (a struct) that copies what the store holds, e.g. state: { $0.snapshot }")
        }
        return state
    }

    /// Starts taking this store's actions from the dispatcher.
    @inlinable
    func attach(to dispatcher: Dispatcher<SessionAction>) {
        // NB: the dispatcher holds this runtime, and the runtime holds nothing of the dispatcher:
        // both are the session's, which keeps every runtime it made for as long as it lives.
        let id = ObjectIdentifier(self)
        dispatcher.register { envelope in
            guard let payload = envelope.payload(for: id) else { return }
            // NB: an action the store's hook reported, delivered as a follow-up: applied already.
            if self.feed != nil, let reported = payload as? ReportedState<State> {
                return self.trace.add(self.advance(to: reported.state), of: self.alias)
            }
            // NB: a payload is only ever delivered to the runtime that decoded it; the cast is
            // checked all the same (a store object's `state:` read costs more than it).
            self.apply((payload as! TypedActionBox<Action>).action)
        }
    }

    @inlinable
    func apply(_ action: Action) {
        guard case .now(let send) = form.send else { return applyLater(action) }
        if let feed { return applyObserved(action, feed, sending: send) }
        send(object, action)
        // NB: what the library queued on the main queue runs now, its first turn: a task it
        // started there (a TCA `Store`'s effect) begins as part of the command.
        MainQueue.runReady()
        pending.append(action)
        var entries = advance(to: form.state(object))
        if entries.isEmpty, MainQueue.canRun { entries = applyOnMainQueue() }
        trace.add(entries, of: alias)
    }

    /// The diff of an action `send` left unapplied, once the main queue ran: a store that
    /// applies actions there (VueFlux's `.mainThread`) does so now, as an app's run loop would
    /// let it (see `MainQueue`). NB: only for an action that changed nothing when `send`
    /// returned: a turn of the run loop reads the clock and polls its sources, more than a
    /// line costs (docs/performance.md).
    @usableFromInline
    func applyOnMainQueue() -> [DiffEntry] {
        MainQueue.run()
        let entries = advance(to: form.state(object))
        if !entries.isEmpty { appliesOnMainQueue = true }
        return entries
    }

    /// The diff from the state shown to `state`, which becomes the state shown.
    @inlinable
    func advance(to state: State) -> [DiffEntry] {
        let entries = differ.step(from: recorded, to: state, stateShape)
        recorded = state
        if !entries.isEmpty { stateJSON.kept = nil }
        return entries
    }

    @usableFromInline func decode(_ invocation: ActionInvocation) -> DecodeOutcome {
        actionCases.decode(invocation, as: Action.self)
    }

    /// The store checks its own actions, if it does: the shell does not.
    @usableFromInline func validate(_ action: any TypedAction) throws {}
    @usableFromInline var validates: Bool { false }

    @usableFromInline var json: JSONValue { stateJSON.whole(of: recorded) }

    @usableFromInline func read(_ path: ValuePath) throws(ShellError) -> JSONValue {
        try stateJSON.value(at: path, of: recorded)
    }

    /// The store's hook may outlive the session (a store its library keeps): it reports to nobody.
    @usableFromInline func end() { feed?.retire() }

    /// A store object's library may change it on its own (a queue, a timer, a task).
    @usableFromInline var changesOnItsOwn: Bool { true }

    /// NB: without a hook that reports its changes, the state is read again before every
    /// command: what differs from the state shown changed with no command.
    @usableFromInline func takeChangesOnItsOwn(_ record: (ChangeOnItsOwn) -> Void) {
        if let feed { return takeReports(of: feed, record) }
        if appliesOnMainQueue { MainQueue.run() }
        let entries = advance(to: form.state(object))
        guard !entries.isEmpty else { return }
        changedOnItsOwnSinceStep = true
        record(ChangeOnItsOwn(action: nil, entries: entries))
    }

    @usableFromInline func isUnchanged(since cursor: Int) -> Bool {
        history.isUnchanged(recorded, since: cursor, apply: Self.keptOnly)
    }

    @usableFromInline func recordHistory(cursor: Int, forgetting dropped: Int) {
        if cursor < replays.count {
            // NB: the steps undone are dropped, and the actions they sent with them.
            log.removeSubrange((replay(at: cursor).end - logStart)...)
            replays.removeSubrange(cursor...)
        }
        let end = logStart + log.count
        let before = replay(at: cursor)
        let start = restoredWithoutAction ? end : before.start
        log += pending
        pending.removeAll(keepingCapacity: true)
        replays.append(
            Replay(
                start: start, end: logStart + log.count,
                changedOnItsOwn: changedOnItsOwnSinceStep || (!restoredWithoutAction && before.changedOnItsOwn)))
        changedOnItsOwnSinceStep = false
        history.record(
            recorded, cursor: cursor, forgetting: dropped, pinned: restoredWithoutAction, apply: Self.keptOnly)
        restoredWithoutAction = false
        if dropped > 0 {
            baseline = replays[dropped - 1]
            replays.removeFirst(dropped)
            // NB: no kept entry starts before the baseline's start: the actions before it go.
            log.removeFirst(baseline.start - logStart)
            logStart = baseline.start
        }
    }

    /// How the state with the first `cursor` history entries done is made again.
    func replay(at cursor: Int) -> Replay { cursor > 0 ? replays[cursor - 1] : baseline }

    @usableFromInline func restorer(at cursor: Int) throws(ShellError) -> () -> [DiffEntry] {
        guard let target = try? history.state(at: cursor, apply: Self.keptOnly) else {
            throw ShellError("store '\(alias)' no longer has that state")
        }
        let replay = replay(at: cursor)
        try checkReplayable(replay)
        return try setter(to: target, replaying: log[(replay.start - logStart)..<(replay.end - logStart)])
    }

    /// Throws when the state `replay` makes came from a change the store made on its own, which
    /// no action makes again, and the app gave no `restore`.
    private func checkReplayable(_ replay: Replay) throws(ShellError) {
        guard replay.changedOnItsOwn, form.restore == nil else { return }
        throw ShellError(
            "store '\(alias)' cannot make that state again: it changed on its own on the way there, which a new store sent the same actions does not repeat",
            hint: "give its StoreDefinition restore: { store, state in … } to set its state")
    }

    @usableFromInline func initialRestorer() throws(ShellError) -> () -> [DiffEntry] {
        let set = try setter(to: initialState, replaying: [])
        return {
            self.restoredWithoutAction = true
            return set()
        }
    }

    /// What sets the store to `target`: the app's `restore`, else a new store sent `actions`,
    /// which must reach `target` (checked now, before anything changes).
    private func setter(to target: State, replaying actions: ArraySlice<Action>) throws(ShellError)
        -> () -> [DiffEntry]
    {
        if let restore = form.restore {
            return {
                restore(self.object, target)
                // NB: what the hook reports of the restore (a hydrate action, a middleware's
                // reaction to it) is part of the restore, not a step of its own.
                _ = self.feed?.take()
                // NB: the state is read back, not assumed: the diff shows where the store is.
                return self.advance(to: self.form.state(self.object))
            }
        }
        // NB: a store made again gets the session's environment, which it keeps (its clock is the
        // one `advance` moves); the ids and random numbers the replay draws are drawn again by
        // what comes next (`replaying`), directly or through the catalog's scope.
        // NB: the tasks the new store's library starts are an effect of their own, ended if the
        // store is not kept.
        effects.separateLibraryTasks()
        let (fresh, freshFeed, reached) = try environment.core.replaying { () throws(ShellError) in
            let fresh = try Self.make(form, alias: alias, in: environment)
            let freshFeed = Self.observe(fresh, form, signal: effects.changeSignal)
            for action in actions {
                // NB: a store that applies actions later is sent the next once it applied this one.
                do throws(ShellError) {
                    try replay(action, to: fresh, freshFeed)
                } catch {
                    freshFeed?.retire()
                    effects.discardLibraryTasks()
                    throw error
                }
            }
            _ = freshFeed?.take()
            return (fresh, freshFeed, try Self.state(of: fresh, form, alias: alias))
        }
        guard history.reaches(reached, target) else {
            freshFeed?.retire()
            effects.discardLibraryTasks()
            throw ShellError(
                "store '\(alias)' does not come back to that state: a new store sent the same \(actions.count) action\(actions.count == 1 ? "" : "s") reaches another"
                    + (ReplayDifference.between(target, reached).map { " (at \($0.clause(where: "it showed")))" } ?? ""),
                hint:
                    "its store reads something besides its actions (the clock, a random number, a global): "
                    + "to pin it, \(ReplayDifference.pinning); or give restore: to set its state directly")
        }
        return {
            self.object = fresh
            self.feed?.retire()
            self.feed = freshFeed
            return self.advance(to: reached)
        }
    }

    /// The state shown and what makes it and the states before it again. The store object
    /// itself is not kept (sent an action, it changes in place): it is set back as `undo` sets it.
    struct Checkpoint: StoreCheckpoint {
        var recorded: State
        var history: StateHistory<State, Action>
        var log: [Action]
        var logStart: Int
        var baseline: Replay
        var replays: [Replay]
        var pending: [Action]
        var restoredWithoutAction: Bool
        /// How `recorded` is made again.
        var replay: Replay
    }

    @usableFromInline func checkpoint(cursor: Int) -> any StoreCheckpoint {
        Checkpoint(
            recorded: recorded, history: history, log: log, logStart: logStart, baseline: baseline, replays: replays,
            pending: pending, restoredWithoutAction: restoredWithoutAction, replay: replay(at: cursor))
    }

    @usableFromInline func retractor(to checkpoint: any StoreCheckpoint) throws(ShellError) -> () -> Void {
        let kept = checkpoint as! Checkpoint
        try checkReplayable(kept.replay)
        let replayed = kept.log[(kept.replay.start - kept.logStart)..<(kept.replay.end - kept.logStart)]
        let set = try setter(to: kept.recorded, replaying: replayed)
        return {
            self.history = kept.history
            self.log = kept.log
            self.logStart = kept.logStart
            self.baseline = kept.baseline
            self.replays = kept.replays
            self.pending = kept.pending
            self.restoredWithoutAction = kept.restoredWithoutAction
            _ = set()
        }
    }

    @usableFromInline func readStateAfresh() -> JSONValue { ValueReader.read(form.state(object)) }

    @usableFromInline func hasSameState(as other: any StoreRuntime) -> Bool {
        guard let other = other as? Self else { return false }
        return history.reaches(recorded, other.recorded)
    }

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

    @usableFromInline func forgetHistory(keeping cursor: Int) {
        let current = replay(at: cursor)
        history.forgetAll(keeping: recorded, cursor: cursor)
        log = Array(log[(current.start - logStart)..<(current.end - logStart)])
        logStart = current.start
        baseline = current
        replays.removeAll()
        restoredWithoutAction = false
    }

    /// NB: a store object's history keeps every state (`forgetBatch: 0`): no action is ever
    /// applied to a state value outside the store.
    static func keptOnly(_: Action, _: inout State) {}
}
