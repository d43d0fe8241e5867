import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// The commands that read or describe a session rather than change its stores.
extension Session {
    func listStores() -> CommandResult {
        CommandResult(.stores(catalog.definitions.map { (name: $0.name, summary: $0.summary) }))
    }

    /// `actions [ALIAS]`: the active store's actions, or those of the loaded store `alias`.
    func listActions(of alias: String? = nil) throws(ShellError) -> CommandResult {
        var store = try activeStore()
        if let alias {
            guard let named = stores.first(where: { $0.alias == alias }) else {
                throw ShellError(
                    "no loaded store is called '\(alias)'",
                    hint: Suggestion.didYouMean(alias, among: stores.map(\.alias))
                        ?? "loaded: \(stores.map(\.alias).joined(separator: ", "))")
            }
            store = named
        }
        let definition = store.definition
        return CommandResult(
            .actions(store: store.alias, definition.actions, unlistedBecause: definition.actionsUnlistedBecause))
    }

    func state(at path: ValuePath) throws(ShellError) -> CommandResult {
        CommandResult(.value(path: path, try value(at: path)))
    }

    /// The value at `path` in the active store; for a path with `[*]`, the array of the values
    /// it names (as `state` prints them and `$PATH` reads them).
    func value(at path: ValuePath) throws(ShellError) -> JSONValue {
        let (store, path) = try locate(path)
        guard path.namesEveryElement else { return try store.runtime.read(path) }
        return .array(try path.places(in: store.json).map(\.value))
    }

    /// `find TEXT`: the places of the active store's state whose key or scalar holds TEXT, in any
    /// case; `find PATH ~ VALUE`: those at or under PATH whose value VALUE matches.
    func find(_ query: FindQuery) throws(ShellError) -> CommandResult {
        let places: [(path: ValuePath, value: JSONValue)]
        switch query {
        case .text(let text):
            places = JSONSearch.places(holding: text, in: try activeStore().json)
        case .matching(let typed, let pattern):
            let (store, path) = try locate(typed)
            let prefix = typed.segments.count - path.segments.count
            places = try path.places(in: store.json).flatMap { place in
                JSONSearch.places(matching: pattern, in: place.value, at: place.path).map { found in
                    (ValuePath(Array(typed.segments.prefix(prefix)) + found.path.segments), found.value)
                }
            }
        }
        return CommandResult(.found(places.map { FoundPlace(path: $0.path, value: $0.value) }))
    }

    func listHistory() -> CommandResult {
        let edits = timeline.editsInForce
        let entries = history.entries.enumerated().map { index, entry in
            HistoryListing.Entry(
                number: entry.number, text: entry.text, followUps: entry.followUps,
                isUndone: index >= history.undoable, isSkipped: edits.skipped.contains(entry.number),
                isSkippable: entry.tookActions, replacedAt: edits.replaced[entry.number]?.by)
        }
        return CommandResult(
            .history(HistoryListing(entries: entries, forgotten: history.forgotten, swept: history.swept)))
    }

    func expect(_ expectation: Expectation) throws(ShellError) -> CommandResult {
        _ = try activeStore()
        let expected: JSONValue
        var pattern: ValuePattern?
        switch expectation.value {
        case .literal(let value): expected = value
        case .pattern(let written):
            expected = written.value
            pattern = written
        case .path(let path):
            do {
                expected = try value(at: path)
            } catch {
                throw ShellError("$\(path): \(error.message)", hint: error.hint)
            }
        }
        let check = ExpectationCheck(expectation: expectation, expected: expected, pattern: pattern)
        let (store, path) = try locate(expectation.path)
        if path.namesEveryElement {
            // NB: every element must hold (none: it holds); the first that does not is named.
            for place in try path.places(in: store.json) {
                if let failure = check.failure(actual: place.value, at: place.path) { throw failure }
            }
        } else if let failure = check.failure(actual: try store.runtime.read(path), at: nil) {
            throw failure
        }
        return CommandResult(.expectationHeld)
    }

    func why(_ typed: ValuePath) throws(ShellError) -> CommandResult {
        let (store, located) = try locate(typed)
        // NB: `[id: X]` names the element that has that id now; history lines index elements.
        let path = try located.resolvingIDs(in: store.json)
        guard !path.namesEveryElement else {
            throw ShellError(
                "why follows one value, and [*] stands for several", hint: "name one, e.g. why \(path.firstElement)")
        }
        // NB: read first: a path that is not in the current state is an error, as for `state`.
        _ = try store.runtime.read(path)
        var countsElements = false
        if case .key("count")? = path.segments.last {
            switch try store.runtime.read(ValuePath(Array(path.segments.dropLast()))) {
            case .array: countsElements = true
            case .object(let object): countsElements = object.isKeyed || object["count"] == nil
            default: break
            }
        }
        let storeIndex = stores.firstIndex { $0 === store } ?? 0
        let query = WhyQuery(path: path, alias: store.alias, storeIndex: storeIndex, countsElements: countsElements)
        let (steps, foundCreation) = query.steps(in: history.entries[..<history.undoable], diff: diff(ofHistoryEntry:))
        // NB: forgotten steps matter only when the walk did not reach the value's creation and
        // the store was loaded before them (the oldest kept step already had it).
        let loadedBefore = (history.entries.first?.storeCount ?? 0) > storeIndex
        let forgotten = !foundCreation && loadedBefore ? history.forgotten : 0
        return CommandResult(
            .why(WhyListing(path: path, steps: steps, forgotten: forgotten, isAttached: isAttached)))
    }

    /// The store and the path in its state that `path` names (“Paths” in the reference): the active
    /// store's, or, with several stores loaded, a path as diff lines print it, after a loaded
    /// store's alias (`todos.todos[2].done`). Where a path reads both ways, the active store's own
    /// member wins.
    ///
    /// - Parameter names: whether a path names something in a store (`reads`, or for `watch`,
    ///   also a place that may come).
    func locate(
        _ path: ValuePath, where names: (ValuePath, LoadedStore) -> Bool = { _, _ in false }
    ) throws(ShellError) -> (store: LoadedStore, path: ValuePath) {
        let active = try activeStore()
        guard AliasPrefix.applies(amongStores: stores.count), case .key(let alias)? = path.segments.first,
            let prefixed = stores.first(where: { $0.alias == alias })
        else { return (active, path) }
        if reads(path, in: active) || names(path, active) { return (active, path) }
        let rest = ValuePath(Array(path.segments.dropFirst()))
        // NB: a path that reads neither way is the active store's when its state has that first
        // key (then its error is about that store's member), else the aliased store's.
        var activeHasKey = false
        if case .object(let state) = active.json { activeHasKey = state[alias] != nil }
        guard reads(rest, in: prefixed) || names(rest, prefixed) || !activeHasKey else { return (active, path) }
        return (prefixed, rest)
    }

    /// Whether `path` names something in `store`'s state now.
    func reads(_ path: ValuePath, in store: LoadedStore) -> Bool {
        do throws(ShellError) {
            let resolved = try path.resolvingIDs(in: store.json)
            if resolved.namesEveryElement {
                _ = try resolved.places(in: store.json)
            } else {
                _ = try store.runtime.read(resolved)
            }
            return true
        } catch {
            return false
        }
    }

    /// `invariants`: every invariant the loaded stores declare holds.
    func checkInvariants() throws(ShellError) -> CommandResult {
        guard !stores.isEmpty else { throw noStoreLoaded }
        if let broken = brokenInvariant() {
            throw ShellError(
                "invariant '\(broken.name)' of store '\(broken.alias)' does not hold", hint: "state shows the state",
                unmetExpectation: true)
        }
        return CommandResult(.invariantsHeld(count: stores.reduce(0) { $0 + $1.definition.invariantNames.count }))
    }

    /// What history entry `index` printed.
    func diff(ofHistoryEntry index: Int) -> CommandDiff { timeline.diff(ofEntry: index, in: stores) }

    func save(to file: String) throws(ShellError) -> CommandResult {
        let transcript = timeline.transcript
        guard !transcript.overflowed else {
            throw ShellError(
                "this session is too long to save (over \(transcript.limit) commands)",
                hint: "save earlier, or replay a script file with '\(catalog.programName) run'")
        }
        if let live, live.droppedActions > 0 {
            throw ShellError(
                "\(live.droppedActions) of the app's actions were dropped while this shell read too slowly: a scenario of this session would not replay",
                hint: "attach again and save before the app outpaces the shell, or record the app with ScenarioRecorder"
            )
        }
        if let live, live.setElsewhere {
            throw ShellError(
                "another shell set the app's stores during this session: a scenario of it would not replay",
                hint: "save from the shell that ran undo, redo or reset")
        }
        if let handsSavedScenario {
            handsSavedScenario(scenarioText(), file)
        } else {
            try FileSystem.writeAtomically(scenarioText(), to: file)
        }
        // NB: a scenario that ends while effects run fails at its end (see "Effects over time"):
        // said now, while the session can still advance or cancel them and save again.
        return CommandResult(
            .saved(file: file, commands: transcript.stateChangingCount, runningEffects: effects.running.count))
    }

    /// The session as a scenario that `fluxsh test --exhaustive` passes.
    func scenarioText() -> String {
        // NB: an attached app's own actions may have no text form (a closure, an `Error`): each
        // line is checked as a replaying shell would read it, and written as a comment if not.
        let loaded = stores
        let unreplayable: ((ActionInvocation) -> String?)? =
            live == nil
            ? nil
            : { invocation in
                var reason: String?
                for store in loaded {
                    switch store.runtime.decode(invocation) {
                    case .accepted: return nil
                    case .rejected(let error): reason = reason ?? error.message
                    case .unknownCase: reason = reason ?? "no store has an action '\(invocation.name)'"
                    }
                }
                return reason
            }
        // NB: attached, the stores begin where the app's were when the shell attached, not from
        // their initial states: `load NAME with STATE`.
        let startingStates = live?.attachedStates ?? [:]
        return timeline.transcript.scenarioText(
            programName: catalog.programName, stores: loaded.map { ($0.alias, $0.json) }, activeAlias: activeAlias,
            startingStates: startingStates, unreplayable: unreplayable)
    }

    func help(_ topic: String?) throws(ShellError) -> CommandResult {
        guard let topic else { return CommandResult(.help(CommandHelp.overview)) }
        guard let entry = CommandHelp.entry(for: topic) else {
            throw ShellError(
                "no help for '\(topic)'",
                hint: Suggestion.didYouMean(topic, among: CommandHelp.entries.map(\.word)) ?? "type 'help' for the list"
            )
        }
        return CommandResult(.help(entry.long))
    }
}
