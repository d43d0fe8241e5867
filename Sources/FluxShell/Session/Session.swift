import FluxCore

/// A shell session: the loaded stores on one shared dispatcher, the active store, the undo
/// history, and the transcript that `save` writes. Strings in, ``CommandResult``s out.
///
/// ```swift
/// let session = Session(catalog: catalog)
/// let result = try session.execute(CommandParser.parse("load counter").command!)
/// ```
public final class Session {
    public let catalog: StoreCatalog
    /// Whether later commands require their expected diff lines (`exhaustive on`).
    @exclusivity(unchecked) public internal(set) var isExhaustive = false
    /// Whether results carry their `--format json` fields.
    @exclusivity(unchecked) public var recordsJSON = false
    /// How many follow-up actions one command may cause before the session stops it.
    public var followUpLimit = 10_000

    // NB: a session is used from one thread at a time (it is not Sendable), so the properties
    // touched on every command skip the run-time exclusivity checks.
    let dispatcher = Dispatcher<SessionAction>()
    @exclusivity(unchecked) var stores: [LoadedStore] = []
    var activeIndex: Int?
    @exclusivity(unchecked) var history: SessionHistory
    @exclusivity(unchecked) var transcript: [TranscriptEntry] = []
    /// How many commands `save` can write; a longer session stops recording its transcript.
    public var transcriptLimit = 50_000
    @exclusivity(unchecked) var transcriptOverflowed = false

    /// The steps of the command being dispatched, filled by the recording middleware.
    @exclusivity(unchecked) private var recording: [CommandDiff.Step]?
    @exclusivity(unchecked) private var followUpCount = 0
    @exclusivity(unchecked) private var followUpOverflow = false
    /// The last invocation decoded, and its payloads: scripts repeat actions a lot.
    @exclusivity(unchecked) private var decodedCache: DecodedInvocation?
    /// Whether any loaded store checks actions before they are dispatched.
    @exclusivity(unchecked) private var anyStoreValidates = false

    private final class DecodedInvocation {
        var invocation: ActionInvocation
        var payloads: [SessionAction.Payload]
        /// The invocation as its values print (SPEC §4), for history, `save` and JSON.
        var printed: ActionInvocation

        init(_ invocation: ActionInvocation, _ payloads: [SessionAction.Payload], printed: ActionInvocation) {
            self.invocation = invocation
            self.payloads = payloads
            self.printed = printed
        }
    }

    final class LoadedStore {
        let runtime: any StoreRuntime
        let definition: StoreDefinition
        let id: ObjectIdentifier
        var alias: String { runtime.alias }
        /// The current state as JSON.
        var json: JSONValue { runtime.json }

        init(runtime: any StoreRuntime, definition: StoreDefinition) {
            self.runtime = runtime
            self.definition = definition
            self.id = ObjectIdentifier(runtime)
        }
    }

    struct TranscriptEntry {
        enum Command {
            case text(String)
            case dispatch(ActionInvocation)
        }

        var command: Command
        /// The diff it printed, for state-changing commands.
        var diff: CommandDiff?

        /// The command line, rendered when saved rather than on every dispatch.
        var commandLine: String {
            switch command {
            case .text(let text): text
            case .dispatch(let invocation): "dispatch \(invocation)"
            }
        }
    }

    /// - Parameters:
    ///   - catalog: the stores `load` can create.
    ///   - historyLimit: how many state-changing commands `undo` can go back.
    public init(catalog: StoreCatalog, historyLimit: Int = 1_000) {
        self.catalog = catalog
        self.history = SessionHistory(limit: historyLimit)
        registerStepRecorder()
    }

    /// The handler that records each action's step once every store has handled it.
    private var stepRecorder: Subscription?

    /// Registers (again) the step recorder, so that it comes after every store's handler.
    ///
    /// NB: a handler rather than a middleware: the dispatcher's path without middleware is the
    /// shortest, and this runs on every action.
    private func registerStepRecorder() {
        if let stepRecorder { dispatcher.unregister(stepRecorder) }
        // NB: unowned(unsafe) (no reference counting per action) is safe: the session owns its
        // dispatcher, which nothing outside the session can reach, so no action is delivered
        // once the session is gone.
        stepRecorder = dispatcher.register { [unowned(unsafe) self] action in self.recordStep(after: action) }
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

    /// Runs one command.
    ///
    /// - Throws: ``ShellError`` when the command fails; it then changed nothing.
    public func execute(_ command: Command) throws(ShellError) -> CommandResult {
        switch command {
        case .help(let topic): return try help(topic)
        case .stores: return listStores()
        case .load(let name, let alias): return try load(name, as: alias ?? name)
        case .use(let alias): return try use(alias)
        case .actions: return try listActions()
        case .dispatch(let invocation): return try dispatch(invocation)
        case .state(let path): return try state(at: path)
        case .history: return listHistory()
        case .undo(let steps): return try undo(steps)
        case .redo(let steps): return try redo(steps)
        case .reset: return reset()
        case .expect(let expectation): return try expect(expectation)
        case .save(let file): return try save(to: file)
        case .exhaustive(let on):
            isExhaustive = on
            return CommandResult()
        case .quit:
            var result = CommandResult()
            result.quits = true
            return result
        }
    }

    // MARK: - Loading

    func load(_ name: String, as alias: String) throws(ShellError) -> CommandResult {
        guard let definition = catalog[name] else {
            throw ShellError(
                "unknown store '\(name)'",
                hint: Suggestion.didYouMean(name, among: catalog.names)
                    ?? "available: \(catalog.names.joined(separator: ", "))")
        }
        guard !stores.contains(where: { $0.alias == alias }) else {
            throw ShellError(
                "a store named '\(alias)' is already loaded", hint: "load \(name) as \(alias)2")
        }
        let runtime = definition.makeRuntime(alias, dispatcher, history.entries.count)
        runtime.onFollowUp = { [unowned self] invocation, action, origin in
            self.dispatchFollowUp(invocation, action, from: origin)
        }
        stores.append(LoadedStore(runtime: runtime, definition: definition))
        registerStepRecorder()
        decodedCache = nil
        anyStoreValidates = stores.contains { $0.runtime.validates }
        activeIndex = stores.count - 1
        appendTranscript(alias == name ? "load \(name)" : "load \(name) as \(alias)", diff: nil)
        var result = CommandResult()
        if recordsJSON { result.fields = [("store", .string(name)), ("alias", .string(alias))] }
        return result
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
        appendTranscript("use \(alias)", diff: nil)
        var result = CommandResult()
        if recordsJSON { result.fields = [("alias", .string(alias))] }
        return result
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
        let decoded = try decodePayloads(invocation)
        let payloads = decoded.payloads
        // NB: from here on, the action as its values print (an offset typed in a date, a set in
        // any order, a CodingKeys name): history, `save` and JSON show what the state shows.
        let invocation = decoded.printed
        for payload in anyStoreValidates ? payloads : [] {
            guard let store = stores.first(where: { $0.id == payload.storeID }), store.runtime.validates else { continue }
            do {
                try store.runtime.validate(payload.action)
            } catch let error as ShellError {
                throw stores.count > 1 ? ShellError("\(store.alias): \(error.message)", hint: error.hint) : error
            } catch {
                throw ShellError("\(store.alias): \(error)")
            }
        }
        recording = []
        followUpCount = 0
        followUpOverflow = false
        dispatcher.dispatch(SessionAction(invocation: invocation, isFollowUp: false, payloads: payloads))
        let steps = recording ?? []
        recording = nil
        let isUnchanged: Bool
        if steps.allSatisfy({ $0.entries.isEmpty }) {
            isUnchanged = true
        } else if steps.count == 1 {
            isUnchanged = false
        } else {
            // NB: steps can cancel out (a search repeated): compare the ends of the command.
            isUnchanged = stores.allSatisfy { $0.runtime.isUnchanged(since: history.cursor) }
        }
        let diff = CommandDiff(steps: steps, isUnchanged: isUnchanged)
        recordHistory(action: invocation, followUps: steps.count == 1 ? [] : steps.compactMap { $0.followUp })
        var result = finish(diff, command: .dispatch(invocation))
        if recordsJSON {
            result.fields = [("action", .string(invocation.description)), ("changes", diff.changesJSON)]
            if let followUps = diff.followUpsJSON { result.fields.append(("followUps", followUps)) }
        }
        if followUpOverflow {
            result.text.append(
                "warning: effects dispatched more than \(followUpLimit) follow-up actions; the rest were dropped")
        }
        return result
    }

    /// The typed action of every loaded store that accepts `invocation`.
    private func decodePayloads(_ invocation: ActionInvocation) throws(ShellError) -> DecodedInvocation {
        if let decodedCache, decodedCache.invocation == invocation { return decodedCache }
        var payloads: [SessionAction.Payload] = []
        // NB: the last record, when nothing else holds it, is refilled, its array emptied with
        // its storage kept: an action never seen before allocates neither.
        var record: DecodedInvocation?
        if decodedCache != nil, isKnownUniquelyReferenced(&decodedCache!) {
            record = decodedCache
            decodedCache = nil
            swap(&payloads, &record!.payloads)
            payloads.removeAll(keepingCapacity: true)
        }
        // NB: the printed form stands for the command only when every store that takes it prints
        // it the same way; else the text as typed does, which every store reads as it did.
        var printed: ActionInvocation??
        var printedAlike = true
        var rejections: [(LoadedStore, ShellError)] = []
        for store in stores {
            switch store.runtime.decode(invocation) {
            case .accepted(let action, let printedForm):
                payloads.append(.init(storeID: store.id, action: action))
                if let first = printed { printedAlike = printedAlike && first == printedForm } else { printed = printedForm }
            case .unknownCase: break
            case .rejected(let error): rejections.append((store, error))
            }
        }
        guard payloads.isEmpty else {
            let form = (printedAlike ? printed ?? nil : nil) ?? invocation
            if let record {
                record.invocation = invocation
                record.payloads = payloads
                record.printed = form
                decodedCache = record
                return record
            }
            let decoded = DecodedInvocation(invocation, payloads, printed: form)
            decodedCache = decoded
            return decoded
        }
        if let (store, error) = rejections.first {
            throw stores.count > 1 ? ShellError("\(store.alias): \(error.message)", hint: error.hint) : error
        }
        let names = stores.flatMap { $0.definition.actions.map(\.name) }
        let suggestion = Suggestion.didYouMean(invocation.name, among: names)
        if stores.count == 1 {
            throw ShellError(
                "unknown action '\(invocation.name)' for store '\(stores[0].alias)'",
                hint: suggestion ?? "type 'actions' for the list")
        }
        throw ShellError(
            "no loaded store has an action '\(invocation.name)' (tried \(stores.map { "'\($0.alias)'" }.joined(separator: ", ")))",
            hint: suggestion ?? "type 'actions' for the active store's list")
    }

    /// Queues an effect's follow-up action: typed for the store whose effect made it, from its
    /// text for every other loaded store that accepts it.
    private func dispatchFollowUp(_ invocation: ActionInvocation, _ action: TypedAction, from origin: ObjectIdentifier) {
        followUpCount += 1
        guard followUpCount <= followUpLimit else {
            followUpOverflow = true
            return
        }
        var payloads: [SessionAction.Payload] = []
        for store in stores {
            if store.id == origin {
                payloads.append(.init(storeID: store.id, action: action))
            } else if case .accepted(let decoded, _) = store.runtime.decode(invocation) {
                payloads.append(.init(storeID: store.id, action: decoded))
            }
        }
        dispatcher.dispatch(SessionAction(invocation: invocation, isFollowUp: true, payloads: payloads))
    }

    /// Called after each delivered action: the diff of the stores it reached.
    private func recordStep(after action: SessionAction) {
        var entries: [DiffEntry] = []
        if stores.count == 1 {
            entries = stores[0].runtime.takeStep() ?? []
        } else {
            for store in stores {
                guard let changes = store.runtime.takeStep() else { continue }
                entries += changes.map { $0.prefixed(by: .key(store.alias)) }
            }
        }
        recording?.append(.init(followUp: action.isFollowUp ? action.invocation : nil, entries: entries))
    }

    // MARK: - Undo, redo, reset

    func undo(_ steps: Int) throws(ShellError) -> CommandResult {
        guard steps <= history.undoable else {
            throw ShellError(
                history.undoable == 0
                    ? "nothing to undo" : "only \(history.undoable) step\(history.undoable == 1 ? "" : "s") can be undone",
                hint: history.forgotten > 0 ? "the history keeps the last \(history.limit) steps" : nil)
        }
        let cursor = history.undo(steps)
        return restore(command: "undo \(steps)") { $0.restoreHistory(at: cursor) }
    }

    func redo(_ steps: Int) throws(ShellError) -> CommandResult {
        guard steps <= history.redoable else {
            throw ShellError(
                history.redoable == 0
                    ? "nothing to redo" : "only \(history.redoable) step\(history.redoable == 1 ? "" : "s") can be redone")
        }
        let cursor = history.redo(steps)
        return restore(command: "redo \(steps)") { $0.restoreHistory(at: cursor) }
    }

    func reset() -> CommandResult {
        let result = restore(command: "reset") { $0.restoreInitial() }
        recordHistory(action: nil, followUps: [])
        return result
    }

    /// Appends a history entry, and every store's current state to its own history.
    private func recordHistory(action: ActionInvocation?, followUps: [ActionInvocation]) {
        let cursor = history.cursor
        let dropped = history.record(action: action, followUps: followUps)
        for store in stores { store.runtime.recordHistory(cursor: cursor, forgetting: dropped) }
    }

    /// Puts back each store's state as `restore` says and reports the diff.
    private func restore(command: String, _ restore: (any StoreRuntime) -> [DiffEntry]) -> CommandResult {
        var entries: [DiffEntry] = []
        var unchanged = true
        for store in stores {
            let changes = restore(store.runtime)
            if !changes.isEmpty { unchanged = false }
            entries += stores.count > 1 ? changes.map { $0.prefixed(by: .key(store.alias)) } : changes
        }
        let diff = CommandDiff(steps: [.init(followUp: nil, entries: entries)], isUnchanged: unchanged)
        var result = finish(diff, command: .text(command == "undo 1" ? "undo" : command == "redo 1" ? "redo" : command))
        if recordsJSON { result.fields = [("changes", diff.changesJSON)] }
        return result
    }

    private func finish(_ diff: CommandDiff, command: TranscriptEntry.Command) -> CommandResult {
        var result = CommandResult()
        result.diff = diff
        appendTranscript(command, diff: diff)
        return result
    }

    private func appendTranscript(_ command: String, diff: CommandDiff?) {
        appendTranscript(.text(command), diff: diff)
    }

    private func appendTranscript(_ command: TranscriptEntry.Command, diff: CommandDiff?) {
        guard transcript.count < transcriptLimit else {
            transcriptOverflowed = true
            return
        }
        transcript.append(TranscriptEntry(command: command, diff: diff))
    }
}
