/// The commands that read or describe a session rather than change its stores.
extension Session {
    func listStores() -> CommandResult {
        CommandResult(.stores(catalog.definitions.map { (name: $0.name, summary: $0.summary) }))
    }

    func listActions() throws(ShellError) -> CommandResult {
        let store = try activeStore()
        let definition = store.definition
        return CommandResult(.actions(store: store.alias, definition.actions, unlistedBecause: definition.actionsUnlistedBecause))
    }

    func state(at path: ValuePath) throws(ShellError) -> CommandResult {
        let store = try activeStore()
        return CommandResult(.value(path: path, try store.runtime.read(path)))
    }

    func listHistory() -> CommandResult {
        let entries = history.entries.enumerated().map { index, entry in
            HistoryListing.Entry(
                number: entry.number, text: entry.text, followUps: entry.followUps, isUndone: index >= history.undoable)
        }
        return CommandResult(.history(HistoryListing(entries: entries, forgotten: history.forgotten)))
    }

    func expect(_ expectation: Expectation) throws(ShellError) -> CommandResult {
        let store = try activeStore()
        let actual = try store.runtime.read(expectation.path)
        if let failure = ExpectationCheck.failure(of: expectation, actual: actual) { throw failure }
        return CommandResult(.expectationHeld)
    }

    func save(to file: String) throws(ShellError) -> CommandResult {
        guard !transcript.overflowed else {
            throw ShellError(
                "this session is too long to save (over \(transcript.limit) commands)",
                hint: "save earlier, or replay a script file with '\(catalog.programName) run'")
        }
        try FileSystem.writeAtomically(scenarioText(), to: file)
        return CommandResult(.saved(file: file, commands: transcript.stateChangingCount))
    }

    /// The session as a scenario that `fluxsh test --exhaustive` passes.
    func scenarioText() -> String {
        transcript.scenarioText(
            programName: catalog.programName, stores: stores.map { ($0.alias, $0.json) }, activeAlias: activeAlias)
    }

    func help(_ topic: String?) throws(ShellError) -> CommandResult {
        guard let topic else { return CommandResult(.help(HelpText.overview)) }
        guard let entry = HelpText.entry(for: topic) else {
            throw ShellError(
                "no help for '\(topic)'",
                hint: Suggestion.didYouMean(topic, among: HelpText.entries.map(\.word)) ?? "type 'help' for the list")
        }
        return CommandResult(.help(entry.long))
    }
}
