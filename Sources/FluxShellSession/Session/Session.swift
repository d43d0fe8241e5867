import FluxCore
import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// A shell session: the loaded stores on one shared dispatcher, the active store, the undo
/// history, and the transcript that `save` writes. Commands in, ``CommandResult``s out (data,
/// which a `Renderer` prints).
///
/// ```swift
/// let session = Session(catalog: catalog)
/// let result = try session.execute(CommandParser.parse("load counter").command!)
/// ```
package final class Session {
    public package(set) var catalog: StoreCatalog
    /// How many follow-up actions one command may cause before the session stops it.
    public var followUpLimit = 10_000

    package let dispatcher = Dispatcher<SessionAction>()
    package var activeIndex: Int?

    /// What every command reads or changes.
    struct Hot {
        var isExhaustive = false
        var stores: [LoadedStore] = []
        var timeline: Timeline
        var watches: [(alias: String, path: ValuePath)] = []
    }

    // NB: a session is used from one thread at a time (it is not Sendable): what every command
    // touches is one value, whose accesses skip the run-time exclusivity checks (see
    // `SingleThreadCell`, which has the measurement). Grouped in one value, these cost what one
    // such value does, not four.
    let hot: SingleThreadCell<Hot>

    /// Whether later commands require their expected diff lines (`exhaustive on`).
    public internal(set) var isExhaustive: Bool {
        get { hot.value.isExhaustive }
        set { hot.value.isExhaustive = newValue }
    }
    package var stores: [LoadedStore] {
        _read { yield hot.value.stores }
        _modify { yield &hot.value.stores }
    }
    /// The undo log, the transcript and the stores' states along them (see ``Timeline``).
    package var timeline: Timeline {
        _read { yield hot.value.timeline }
        _modify { yield &hot.value.timeline }
    }
    /// The undo log (read-only: the timeline changes it).
    package var history: SessionHistory { hot.value.timeline.history }
    /// `watch`: the paths whose diff lines print, each with the alias of the store it is in.
    var watches: [(alias: String, path: ValuePath)] {
        _read { yield hot.value.watches }
        _modify { yield &hot.value.watches }
    }
    /// How many commands `save` can write; a longer session stops recording its transcript.
    public var transcriptLimit: Int {
        get { timeline.transcriptLimit }
        set { timeline.transcriptLimit = newValue }
    }
    let resolver = ActionResolver()
    /// The running app's stores and their feed, when the session is attached to an app.
    package var live: (any AttachedApp)?

    /// Whether the session is attached to a running app.
    public var isAttached: Bool { live != nil }
    /// Where `save` hands the scenario (its text, and the file as typed) instead of writing it:
    /// an attached session gives it to the shell that attached, which writes the file where its
    /// user works. `nil`: `save` writes the file itself.
    public var handsSavedScenario: ((_ text: String, _ file: String) -> Void)?

    /// The steps of the command being dispatched: its own, then the follow-ups'.
    package let trace = DispatchTrace()
    /// The effects that take time, and the environment they and `make` are given.
    package let effects: EffectScheduler
    /// Whether the catalog has a scope that every command runs inside.
    private let isScoped: Bool
    package final class LoadedStore {
        let runtime: any StoreRuntime
        let definition: StoreDefinition
        let id: ObjectIdentifier
        package var alias: String { runtime.alias }
        /// The current state as JSON.
        var json: JSONValue { runtime.json }

        init(runtime: any StoreRuntime, definition: StoreDefinition) {
            self.runtime = runtime
            self.definition = definition
            self.id = ObjectIdentifier(runtime)
        }
    }

    /// - Parameters:
    ///   - catalog: the stores `load` can create.
    ///   - historyLimit: how many state-changing commands `undo` can go back.
    ///   - seed: what the environment's random generator is seeded with (`explore`: the run's seed).
    public init(catalog: StoreCatalog, historyLimit: Int = 1_000, seed: UInt64 = 0) {
        self.catalog = catalog
        self.isScoped = catalog.scope != nil
        self.effects = EffectScheduler(environment: ShellEnvironment(seed: seed))
        self.hot = SingleThreadCell(Hot(timeline: Timeline(historyLimit: historyLimit)))
        // NB: registered before any store's handler, so each action's step begins before the
        // stores add to it. A handler rather than a middleware: the dispatcher's path without
        // middleware is the shortest, and this runs on every action.
        let trace = self.trace
        dispatcher.register { action in trace.begin(action) }
    }

    deinit {
        live?.stop()
        // NB: the stores' own tasks that cancelling wakes end here, not in the next session.
        TaskRouting.routing(to: effects.route) { effects.shutDown() }
        for store in stores { store.runtime.end() }
    }

    /// The session's environment: its time, ids, random numbers and clock.
    public var environment: ShellEnvironment { effects.environment }

    /// The line of the command about to run, which the effects it starts are listed with.
    public var line: Int? {
        get { effects.line }
        set { effects.line = newValue }
    }

    /// How long one command's effects may run without each ending or sleeping on the clock.
    public var effectTimeLimit: Duration {
        get { effects.timeLimit }
        set { effects.timeLimit = newValue }
    }

    /// Whether effects went wrong while the last command ran (see ``takeEffectProblems()``).
    public var hasEffectProblems: Bool { !effects.problems.isEmpty }

    /// What went wrong with effects while the last command ran (an effect that ran over its time,
    /// one that threw, one that sent after it was cancelled): each an error at that command's
    /// line. What the command changed stands.
    ///
    /// NB: kept by the session, not in each ``CommandResult``: a result is copied on every line,
    /// and each member more is copied with it.
    public func takeEffectProblems() -> [ShellError] { effects.takeProblems() ?? [] }

    /// The effects still running, as `effects` lists them.
    public var runningEffects: [EffectListing.Entry] { effects.listing }

    /// Told when a loaded store's hook reports a change of its own: an interactive shell sets it
    /// to print the change at once, above the line being typed.
    package var changeSignal: ChangeSignal { effects.changeSignal }

    /// Whether a loaded store may change with no command (a store object): whoever runs the
    /// session's commands calls ``takeChangesOnTheirOwn()`` before each.
    public private(set) var hasStoresChangingOnTheirOwn = false

    /// What the loaded stores changed since their last step that no command caused, each
    /// recorded as a step of the history (`history`, `why`, `undo` and `save` see it), for the
    /// caller to print before the next command's output (see "Stores that change on their own"
    /// in the reference).
    ///
    /// - Parameter runningMainQueue: run what waits on the main queue first (at the interactive
    ///   prompt, as an app's run loop would), with the stores' own tasks going to the session.
    package func takeChangesOnTheirOwn(runningMainQueue: Bool = false) -> [AppStep] {
        guard hasStoresChangingOnTheirOwn else { return [] }
        return routingTasks {
            if runningMainQueue { MainQueue.run() }
            return takeChanges()
        }
    }

    private func takeChanges() -> [AppStep] {
        var steps: [AppStep] = []
        let loaded = stores
        for store in loaded where store.runtime.changesOnItsOwn {
            store.runtime.takeChangesOnItsOwn { change in
                let entries = AliasPrefix.entries(change.entries, of: store.alias, amongStores: loaded.count)
                let diff = CommandDiff(ownStep: .init(followUp: nil, entries: entries), isUnchanged: entries.isEmpty)
                timeline.recordOnItsOwn(change.action, diff: diff, in: loaded)
                steps.append(.onItsOwn(change.action, diff, step: history.newestNumber))
            }
        }
        return steps
    }

    /// The alias of the active store, if any.
    public var activeAlias: String? { activeIndex.map { stores[$0].alias } }

    /// `counter> `, or `fluxsh> ` with no active store.
    public var prompt: String { (activeAlias ?? catalog.programName) + "> " }

    /// The aliases of the loaded stores, in load order.
    public var loadedAliases: [String] { stores.map(\.alias) }

    /// The actions of the active store.
    public var activeActions: [ActionSignature] { activeIndex.map { stores[$0].definition.actions } ?? [] }

    /// The active store's state, as JSON.
    public var activeState: JSONValue? { activeIndex.map { stores[$0].json } }

    /// Each loaded store's alias and state, in load order. `afresh` reads the state again (also
    /// what a class instance in it holds now) rather than the copy kept since its last change;
    /// `validatingOnly` keeps the stores that check actions before they run, the only ones that
    /// can refuse an action after seeing it.
    public func states(afresh: Bool = false, validatingOnly: Bool = false) -> [(alias: String, state: JSONValue)] {
        stores.compactMap { store in
            guard !validatingOnly || store.runtime.validates else { return nil }
            return (store.alias, afresh ? store.runtime.readStateAfresh() : store.json)
        }
    }

    /// The first invariant a loaded store declares that does not hold now: the store's alias and
    /// the invariant's name (what the command `invariants` reports).
    public func brokenInvariant() -> (alias: String, name: String)? {
        for store in stores {
            if let name = store.runtime.brokenInvariant() { return (store.alias, name) }
        }
        return nil
    }

    /// The aliases of the stores whose states differ as values from those of `other`, a session
    /// with the same stores loaded in the same order (`==` for an `Equatable` state: two dates a
    /// microsecond apart differ even where they print alike).
    public func storesWithOtherStates(than other: Session) -> [String] {
        zip(stores, other.stores).compactMap { mine, theirs in
            mine.runtime.hasSameState(as: theirs.runtime) ? nil : mine.alias
        }
    }

    /// Where the state of store `alias` first differs in `other`, a session that loaded the same
    /// stores, at its deepest, even where both print alike; `nil` when that is not known.
    package func firstDifference(ofStore alias: String, from other: Session) -> ValuePath? {
        guard let index = stores.firstIndex(where: { $0.alias == alias }), index < other.stores.count else {
            return nil
        }
        return other.stores[index].runtime.firstDifference(from: stores[index].runtime)
    }

    /// How many steps `undo` can go back now.
    public var undoableSteps: Int { history.undoable }

    /// Runs one command.
    ///
    /// - Throws: `ShellError` when the command fails; it then changed nothing.
    public func execute(_ command: Command) throws(ShellError) -> CommandResult {
        // NB: flags, not the optional scope itself: an existential would be copied on every line.
        guard isScoped || hasStoresChangingOnTheirOwn else { return try run(command) }
        return try runScoped(command)
    }

    /// Runs `command` inside the catalog's scope, and with the tasks the stores' libraries start
    /// routed to the session (see ``TaskRouting``): out of the line's path when neither applies.
    @inline(never)
    private func runScoped(_ command: Command) throws(ShellError) -> CommandResult {
        guard hasStoresChangingOnTheirOwn else { return try runInScope(command) }
        return try routingTasks { () throws(ShellError) in try runInScope(command) }
    }

    private func runInScope(_ command: Command) throws(ShellError) -> CommandResult {
        guard let scope = catalog.scope else { return try run(command) }
        return try scope.run(in: environment) { () throws(ShellError) in try run(command) }
    }

    /// Runs `body` with the jobs of the tasks the stores' libraries start or wake on this thread
    /// going to the session's effects, and runs those that a command without effects of its own
    /// left waiting (a store's `make`, `restore`): their reports are the stores' own steps.
    func routingTasks<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        try TaskRouting.routing(to: effects.route) { () throws(E) in
            defer { if effects.hasQueuedJobs { effects.run() } }
            return try body()
        }
    }

    private func run(_ command: Command) throws(ShellError) -> CommandResult {
        switch command {
        case .help(let topic): return try help(topic)
        case .stores: return listStores()
        case .load(let name, let alias, let state):
            return try routingTasks { () throws(ShellError) in try load(name, as: alias ?? name, from: state) }
        case .use(let alias): return try use(alias)
        case .actions(let alias): return try listActions(of: alias)
        case .dispatch(let invocation): return try dispatch(invocation)
        case .dispatchReading(let invocation, let paths): return try dispatch(invocation, reading: paths)
        case .state(let path): return try state(at: path)
        case .history: return listHistory()
        case .undo(let steps): return try undo(steps)
        case .redo(let steps): return try redo(steps)
        case .reset: return try reset()
        case .skip(let step): return try edit(.skip(step))
        case .unskip(let step): return try edit(.unskip(step))
        case .replace(let step, let invocation): return try replace(step, with: invocation)
        case .commit: return try commit()
        case .sweep: return try sweep()
        case .expect(let expectation): return try expect(expectation)
        case .why(let path): return try why(path)
        case .find(let query): return try find(query)
        case .diff(let from, let to):
            _ = try activeStore()
            return CommandResult(try timeline.diff(fromStep: from, toStep: to, in: stores))
        case .invariants: return try checkInvariants()
        case .watch(let paths): return try watch(paths)
        case .unwatch(let paths): return try unwatch(paths)
        case .save(let file): return try save(to: file)
        case .advance(let duration): return try advance(by: duration)
        case .effects: return try listEffects()
        case .cancel(let id): return try cancelEffects(id: id)
        case .seed(let seed): return seedRandom(seed)
        case .exhaustive(let on):
            isExhaustive = on
            return CommandResult()
        case .read, .output, .format, .timer:
            throw ShellError(
                "\(command.word) is the shell's own command: it runs in the shell, a script or a scenario",
                hint: "type it at the prompt, or put it in a script")
        case .quit:
            var result = CommandResult()
            result.quits = true
            return result
        }
    }

    // MARK: - Loading

    /// - Parameter state: the state the store begins from, instead of its initial one.
    func load(_ name: String, as alias: String, from state: JSONValue? = nil) throws(ShellError) -> CommandResult {
        // NB: attached, the session holds the app's stores and no other: say so, and suggest only
        // what works (an alias of an app's store would be refused too).
        if live != nil {
            let stores = self.stores.map(\.alias)
            if stores.contains(name) {
                throw ShellError(
                    "'\(name)' is the app's store, attached already: a session attached to an app holds its stores and cannot load more",
                    hint: "use \(name)")
            }
            throw ShellError(
                "a session attached to an app holds the app's stores (\(stores.joined(separator: ", "))) and cannot load '\(name)'",
                hint: "detach, and load it in a session of your own: \(catalog.programName) --store \(name)")
        }
        guard let definition = catalog[name] else {
            throw ShellError(
                "unknown store '\(name)'",
                hint: Suggestion.didYouMean(name, among: catalog.names)
                    ?? "available: \(catalog.names.joined(separator: ", "))")
        }
        guard !stores.contains(where: { $0.alias == alias }) else {
            throw ShellError(
                "a store named '\(alias)' is already loaded", hint: "load \(name) as \(freeAlias(after: alias))")
        }
        guard let makeRuntime = definition.makeRuntime else {
            throw ShellError(
                "store '\(name)' is the running app's: it is attached already, and cannot be loaded again",
                hint: "use \(name)")
        }
        if let error = definition.registrationError { throw error }
        let runtime = try makeRuntime(
            StoreLoad(
                alias: alias, dispatcher: dispatcher, trace: trace, historyEntries: history.entries.count,
                historyForgetBatch: history.forgetsWholeWindows ? history.batchToForget : 0, effects: effects,
                state: state))
        add(runtime, definition, from: state)
        return CommandResult(.loaded(store: name, alias: alias))
    }

    /// The first of `alias2`, `alias3`, … that no loaded store has.
    func freeAlias(after alias: String) -> String {
        var number = 2
        while stores.contains(where: { $0.alias == "\(alias)\(number)" }) { number += 1 }
        return "\(alias)\(number)"
    }

    /// Makes `runtime` the active store, as `load NAME` (`as ALIAS`, `with STATE`) in a saved scenario.
    package func add(_ runtime: any StoreRuntime, _ definition: StoreDefinition, from state: JSONValue? = nil) {
        runtime.onFollowUp = { [unowned self] invocation, action, origin in
            self.dispatchFollowUp(invocation, action, from: origin)
        }
        stores.append(LoadedStore(runtime: runtime, definition: definition))
        if runtime.changesOnItsOwn { hasStoresChangingOnTheirOwn = true }
        trace.storeCount = stores.count
        resolver.storesChanged(stores)
        activeIndex = stores.count - 1
        let alias = runtime.alias
        timeline.note(.load(name: definition.name, alias: alias == definition.name ? nil : alias, state: state))
    }

    func use(_ alias: String) throws(ShellError) -> CommandResult {
        guard let index = stores.firstIndex(where: { $0.alias == alias }) else {
            if stores.isEmpty { throw noStoreLoaded }
            throw ShellError(
                "no loaded store is called '\(alias)'",
                hint: Suggestion.didYouMean(alias, among: stores.map(\.alias))
                    ?? "loaded: \(stores.map(\.alias).joined(separator: ", "))")
        }
        activeIndex = index
        timeline.note(.use(alias: alias))
        return CommandResult(.activated(alias: alias))
    }

    func activeStore() throws(ShellError) -> LoadedStore {
        guard let activeIndex else { throw noStoreLoaded }
        return stores[activeIndex]
    }

    /// What commands that need a store say before any is loaded.
    var noStoreLoaded: ShellError {
        ShellError("no store is loaded", hint: "load one first, e.g. load \(catalog.names.first ?? "NAME")")
    }

    // MARK: - Dispatching

    func dispatch(_ invocation: ActionInvocation) throws(ShellError) -> CommandResult {
        guard !stores.isEmpty else { throw noStoreLoaded }
        let resolved = try resolver.resolve(invocation, in: stores)
        if resolver.anyStoreValidates { try resolver.validate(resolved, in: stores) }
        // NB: from here on, the action as its values print (an offset typed in a date, a set in
        // any order, a CodingKeys name): history, `save` and JSON show what the state shows.
        let invocation = resolved.printed
        trace.start()
        dispatcher.dispatch(SessionAction(invocation: invocation, isFollowUp: false, payloads: resolved.payloads))
        // NB: the effects the action started run to their end or their first wait on the clock,
        // their actions steps of this command; a session with none checks one flag.
        if !effects.isIdle {
            effects.run()
            if hasStoresChangingOnTheirOwn { takeChangesWithinCommand() }
        }
        // NB: moved out, not copied: no reference counting for what the stores filled.
        let (ownStep, followUps) = trace.finish()
        let diff = CommandDiff(ownStep: ownStep, followUpSteps: followUps, isUnchanged: isUnchanged(ownStep, followUps))
        // NB: the stores are read before the timeline is changed: both are parts of `hot`, and the
        // two accesses must not overlap.
        let loaded = stores
        timeline.record(invocation, followUps: followUps.compactMap { $0.followUp }, diff: diff, in: loaded)
        // NB: the printed form travels with the result only when it differs from the text: a
        // result is copied on its way out, and an action is reference counting.
        var result = CommandResult(
            diff, printedAction: resolved.retyped,
            followUpLimitReached: trace.followUpLimitReached ? followUpLimit : nil)
        // NB: read in place, not through `history`, which copies the log.
        result.step = hot.value.timeline.history.newestNumber
        return result
    }

    /// Queues an effect's follow-up action: typed for the store whose effect made it, from its
    /// text for every other loaded store that accepts it.
    private func dispatchFollowUp(
        _ invocation: ActionInvocation, _ action: any TypedAction, from origin: ObjectIdentifier
    ) {
        guard trace.admitsFollowUp(limit: followUpLimit) else { return }
        var payloads: [SessionAction.Payload] = []
        // NB: what a store's own library applied is that store's alone: another store decoding
        // it would apply it again.
        let isReported = action is ReportedAction
        for store in stores {
            if isReported, store.id != origin { continue }
            if store.id == origin {
                payloads.append(.init(storeID: store.id, action: action))
            } else if case .accepted(let decoded, _) = store.runtime.decode(invocation) {
                payloads.append(.init(storeID: store.id, action: decoded))
            }
        }
        dispatcher.dispatch(SessionAction(invocation: invocation, isFollowUp: true, payloads: payloads))
    }

    /// `dispatch` with `$PATH` arguments, or `$PATH`s inside JSON arguments: each read from the
    /// active store and put in its place, then dispatched.
    func dispatch(_ invocation: ActionInvocation, reading paths: [ArgumentPath]) throws(ShellError) -> CommandResult {
        var invocation = invocation
        for argument in paths {
            do {
                invocation.fill(argument, with: try value(at: argument.path))
            } catch {
                throw ShellError("$\(argument.path): \(error.message)", hint: error.hint)
            }
        }
        var result = try dispatch(invocation)
        // NB: the action as run holds the values read, not the `$PATH`s typed: JSON shows it.
        if result.printedAction == nil { result.printedAction = invocation }
        return result
    }

    // MARK: - Undo, redo, reset

    func undo(_ steps: Int) throws(ShellError) -> CommandResult {
        try restoring { loaded throws(ShellError) in
            // NB: attached, the step undone may be the app's, not this shell's: the result names it.
            let undone = live == nil ? [] : stepsMovedOver(history.cursor - steps..<history.cursor).reversed()
            var result = CommandResult(try timeline.undo(steps, in: loaded))
            if live != nil { result.output = .steppedOver(SteppedOver(isRedo: false, steps: undone)) }
            return result
        }
    }

    func redo(_ steps: Int) throws(ShellError) -> CommandResult {
        try restoring { loaded throws(ShellError) in
            let redone = live == nil ? [] : stepsMovedOver(history.cursor..<history.cursor + steps)
            var result = CommandResult(try timeline.redo(steps, in: loaded))
            if live != nil { result.output = .steppedOver(SteppedOver(isRedo: true, steps: redone)) }
            return result
        }
    }

    /// The history entries in `range` (clamped to those kept), as an attached `undo` or `redo` names them.
    private func stepsMovedOver(_ range: Range<Int>) -> [SteppedOver.Step] {
        let entries = history.entries
        let kept = range.clamped(to: entries.indices)
        return entries[kept].map { entry in
            SteppedOver.Step(
                number: entry.number, text: entry.text,
                origin: entry.isTheApps ? (entry.action == nil ? .appStates : .app) : .shell)
        }
    }

    func reset() throws(ShellError) -> CommandResult {
        try restoring { loaded throws(ShellError) in
            var result = CommandResult(try timeline.reset(loaded))
            result.step = hot.value.timeline.history.newestNumber
            return result
        }
    }

    /// Runs `undo`, `redo` or `reset` on the loaded stores. Attached to an app, it runs between
    /// two of the app's deliveries, after the app's actions so far became steps: the stores are
    /// set together, and no action of the app is diffed against a state it never had.
    private func restoring(_ body: ([LoadedStore]) throws(ShellError) -> CommandResult) throws(ShellError)
        -> CommandResult
    {
        guard let live else { return try body(stores) }
        var result: Result<CommandResult, ShellError> = .success(CommandResult())
        live.settingStores(of: self) {
            let loaded = stores
            do throws(ShellError) {
                result = .success(try body(loaded))
                return true
            } catch {
                result = .failure(error)
                return false
            }
        }
        return try result.get()
    }
}
