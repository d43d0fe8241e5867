import FluxShellJSON
import FluxShellLanguage
import FluxShellValues

/// The commands of a session that `save` writes as a scenario: each state-changing command with
/// the diff it printed, and the commands that load and switch stores. Bounded: a longer session
/// stops recording (and `save` says so) instead of growing without limit.
struct SessionTranscript {
    struct Entry {
        /// The command, printed when saved rather than on every dispatch.
        var command: Command
        /// The diff it printed, for state-changing commands.
        var diff: CommandDiff?
        /// A step no command made (`command` is then unused): what the store's hook said it did,
        /// written `<= ACTION`, or `<= (the store changed by itself)`.
        var onItsOwn: ActionInvocation?? = nil
    }

    /// How many commands can be recorded.
    var limit: Int
    private(set) var entries: [Entry] = []
    /// More commands were run than ``limit``: the transcript is incomplete.
    private(set) var overflowed = false

    init(limit: Int) { self.limit = limit }

    /// The index the next entry will have, `nil` when the transcript is full.
    var nextIndex: Int? { entries.count < limit ? entries.count : nil }

    mutating func append(_ command: Command, diff: CommandDiff?) {
        guard entries.count < limit else {
            overflowed = true
            return
        }
        entries.append(Entry(command: command, diff: diff))
    }

    /// A step no command made, written as the lines a scenario expects before the next command.
    mutating func appendOnItsOwn(_ action: ActionInvocation?, diff: CommandDiff) {
        guard entries.count < limit else {
            overflowed = true
            return
        }
        entries.append(Entry(command: .history, diff: diff, onItsOwn: .some(action)))
    }

    /// How many of its commands changed state: a dispatch that printed `(no changes)` is saved
    /// (it replays) but not counted.
    var stateChangingCount: Int { entries.count { $0.onItsOwn == nil && ($0.diff.map { !$0.isUnchanged } ?? false) } }

    /// The scenario `fluxsh test --exhaustive` passes: the commands with their diff lines, then
    /// each store's final state (`stores` as alias and state, in load order).
    ///
    /// - Parameters:
    ///   - startingStates: by alias, the state a store loaded without one begins from (`load NAME
    ///     with STATE`): an attached app's, as it was when the shell attached.
    ///   - unreplayable: why a dispatched action would not replay, if it would not: its line is
    ///     then a comment (`# not replayable: …`).
    func scenarioText(
        programName: String, stores: [(alias: String, state: JSONValue)], activeAlias: String?,
        startingStates: [String: JSONValue] = [:], unreplayable: ((ActionInvocation) -> String?)? = nil
    ) -> String {
        var scenario = ScenarioText()
        scenario.comment("Saved by \(programName). Replay with: \(programName) test FILE")
        if !startingStates.isEmpty {
            scenario.comment("Attached to a running app: its stores begin as they were when the shell attached.")
        }
        for entry in entries {
            if case .load(let name, let alias, nil) = entry.command, let state = startingStates[alias ?? name] {
                scenario.command(.load(name: name, alias: alias, state: state))
                continue
            }
            if let action = entry.onItsOwn {
                for line in AppStep.scenarioLines(of: action, entry.diff) { scenario.line(line) }
                continue
            }
            if let unreplayable, case .dispatch(let invocation) = entry.command, let reason = unreplayable(invocation) {
                scenario.comment("not replayable: \(invocation) (\(reason))")
                continue
            }
            scenario.command(entry.command, diff: entry.diff?.lines ?? [])
        }
        for store in stores { scenario.expectState(store.state, of: store.alias) }
        if let activeAlias, stores.last?.alias != activeAlias { scenario.command(.use(alias: activeAlias)) }
        return scenario.text
    }
}
