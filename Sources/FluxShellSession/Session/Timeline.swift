import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// The session's one timeline: what `history`, `undo`, `redo`, `reset`, `why` and `save` read and
/// change. It keeps in lock-step the undo log (``SessionHistory``: each step's action, the cursor,
/// the limit), the transcript that `save` writes (``SessionTranscript``), and each loaded store's
/// typed states (a ``StateHistory`` in the store's runtime): every step is recorded, moved to and
/// forgotten here, in all of them at once, and nowhere else.
package struct Timeline {
    private(set) var history: SessionHistory
    private(set) var transcript = SessionTranscript(limit: 50_000)

    init(historyLimit: Int) { history = SessionHistory(limit: historyLimit) }

    /// How many commands `save` can write.
    var transcriptLimit: Int {
        get { transcript.limit }
        set { transcript.limit = newValue }
    }

    /// A command that changes no state but matters to a saved scenario (`load`, `use`).
    mutating func note(_ command: Command) {
        transcript.append(command, diff: nil)
    }

    /// The step of a dispatch: its action, the follow-ups it led to, and what it printed.
    ///
    /// NB: always inlined: called from two places (a dispatch, an attached app's action), it was
    /// no longer inlined into `Session.dispatch`, and its copies went through value witnesses on
    /// every piped line.
    @inline(__always)
    ///
    /// - Parameter isTheApps: the attached app dispatched the action, not this shell.
    package mutating func record(
        _ invocation: ActionInvocation, followUps: [ActionInvocation], diff: CommandDiff,
        in stores: [Session.LoadedStore], isTheApps: Bool = false
    ) {
        appendStep(
            action: invocation, followUps: followUps, in: stores, transcriptIndex: transcript.nextIndex,
            isTheApps: isTheApps)
        transcript.append(.dispatch(invocation), diff: diff)
    }

    /// The step of a command that dispatches no action itself (`advance`): the actions effects
    /// sent while it ran, and what it printed.
    mutating func record(
        _ command: Command, followUps: [ActionInvocation], diff: CommandDiff, in stores: [Session.LoadedStore]
    ) {
        appendStep(
            action: nil, followUps: followUps, in: stores, transcriptIndex: transcript.nextIndex,
            note: command.description)
        transcript.append(command, diff: diff)
    }

    /// A step no command made: the states an attached shell was sent again after the app's
    /// actions it read too slowly to see (`note` says how many). A scenario cannot replay it, so
    /// the transcript leaves it out.
    package mutating func recordUnseenSteps(_ note: String, in stores: [Session.LoadedStore]) {
        appendStep(action: nil, followUps: [], in: stores, transcriptIndex: nil, note: note, isTheApps: true)
    }

    /// A step no command made, of a store that changed on its own: its action when its hook
    /// reported one, and its diff. `save` writes it as the lines a scenario expects.
    mutating func recordOnItsOwn(_ action: ActionInvocation?, diff: CommandDiff, in stores: [Session.LoadedStore]) {
        appendStep(
            action: action, followUps: [], in: stores, transcriptIndex: transcript.nextIndex,
            note: action == nil ? AppStep.changedByItself : nil, isTheApps: true)
        transcript.appendOnItsOwn(action, diff: diff)
    }

    /// `undo STEPS`: every store's state as it was `steps` steps back.
    mutating func undo(_ steps: Int, in stores: [Session.LoadedStore]) throws(ShellError) -> CommandDiff {
        guard steps <= history.undoable else {
            throw ShellError(
                history.undoable == 0
                    ? "nothing to undo"
                    : "only \(history.undoable) step\(history.undoable == 1 ? "" : "s") can be undone",
                hint: history.forgotten > 0 ? history.forgettingHint : nil)
        }
        let restorers = try Self.restorers(at: history.cursor - steps, in: stores)
        history.undo(steps)
        return restore(.undo(steps: steps), restorers, in: stores)
    }

    /// `redo STEPS`: every store's state as it was `steps` undone steps on.
    mutating func redo(_ steps: Int, in stores: [Session.LoadedStore]) throws(ShellError) -> CommandDiff {
        guard steps <= history.redoable else {
            throw ShellError(
                history.redoable == 0
                    ? "nothing to redo"
                    : "only \(history.redoable) step\(history.redoable == 1 ? "" : "s") can be redone")
        }
        let restorers = try Self.restorers(at: history.cursor + steps, in: stores)
        history.redo(steps)
        return restore(.redo(steps: steps), restorers, in: stores)
    }

    /// `reset`: every store's initial state, as a step of its own (so `undo` brings the states back).
    mutating func reset(_ stores: [Session.LoadedStore]) throws(ShellError) -> CommandDiff {
        var restorers: [() -> [DiffEntry]] = []
        for store in stores { restorers.append(try store.runtime.initialRestorer()) }
        let transcriptIndex = transcript.nextIndex
        let diff = restore(.reset, restorers, in: stores)
        appendStep(action: nil, followUps: [], in: stores, transcriptIndex: transcriptIndex)
        return diff
    }

    /// `skip`, `unskip`, `replace`: every store's state as `plan` replays it, as a step of its
    /// own (so `undo` takes the edit back); throws, changing nothing, when a store cannot.
    mutating func edit(_ edit: TimelineEdit, _ plan: ReplayPlan, in stores: [Session.LoadedStore]) throws(ShellError)
        -> CommandDiff
    {
        var replayers: [() -> [DiffEntry]] = []
        for store in stores { replayers.append(try store.runtime.replayer(plan)) }
        let transcriptIndex = transcript.nextIndex
        let diff = restore(edit.command, replayers, in: stores)
        appendStep(
            action: nil, followUps: [], in: stores, transcriptIndex: transcriptIndex,
            note: edit.command.description, edit: edit)
        return diff
    }

    /// `commit`: forgets every step; the states now are where the history starts. Returns how
    /// many steps were forgotten.
    mutating func commit(_ stores: [Session.LoadedStore]) -> Int {
        let count = history.cursor
        for store in stores { store.runtime.forgetHistory(keeping: count) }
        history.forgetAll()
        transcript.append(.commit, diff: nil)
        return count
    }

    /// `sweep`: the steps from `plan.start` on become those `plan` keeps, with the edits in
    /// force made part of them (a replaced step holds its new action), and the undone steps
    /// leave; throws, changing nothing, when a store cannot replay. Returns the numbers of the
    /// steps that left.
    mutating func sweep(_ plan: ReplayPlan, in stores: [Session.LoadedStore]) throws(ShellError) -> [Int] {
        var sweepers: [() -> Void] = []
        for store in stores { sweepers.append(try store.runtime.sweeper(plan)) }
        var rebuilt: [SessionHistory.Entry] = []
        for (offset, step) in plan.steps.enumerated() where step.treatment != .leftOut {
            var entry = history.entries[plan.start + offset]
            if case .replaced(let action) = step.treatment {
                entry.action = action
                entry.followUps = []
            }
            // NB: what a kept step printed no longer holds once a step before it left: `why`
            // makes its diff again from the states.
            entry.transcriptIndex = nil
            rebuilt.append(entry)
        }
        for sweep in sweepers { sweep() }
        let kept = Set(rebuilt.map(\.number))
        let removed = history.entries[plan.start...].map(\.number).filter { !kept.contains($0) }
        history.rebuild(from: plan.start, as: rebuilt)
        transcript.append(.sweep, diff: nil)
        return removed
    }

    /// What history entry `index` printed: from the transcript, or, once the transcript is full,
    /// made again from the states kept for undo (then one step for the whole command).
    func diff(ofEntry index: Int, in stores: [Session.LoadedStore]) -> CommandDiff {
        let entry = history.entries[index]
        if let kept = entry.transcriptIndex, let diff = transcript.entries[kept].diff { return diff }
        var entries: [DiffEntry] = []
        for store in stores.prefix(entry.storeCount) {
            let changes = store.runtime.historyDiff(ofEntry: index)
            entries += AliasPrefix.entries(changes, of: store.alias, amongStores: entry.storeCount)
        }
        return CommandDiff(ownStep: .init(followUp: nil, entries: entries), isUnchanged: entries.isEmpty)
    }

    /// `diff FROM [TO]`: the diff lines from the states after step `from` (0: the start) to the
    /// states after step `to`, or now; of the stores loaded at both, as a step of theirs printed.
    func diff(fromStep from: Int, toStep to: Int?, in stores: [Session.LoadedStore]) throws(ShellError) -> CommandDiff {
        let start = try cursor(afterStep: from)
        let end = try to.map { number throws(ShellError) in try cursor(afterStep: number) } ?? history.undoable
        let storeCount = min(stores.count, self.storeCount(at: start), self.storeCount(at: end))
        var entries: [DiffEntry] = []
        for store in stores.prefix(storeCount) {
            guard let changes = store.runtime.historyDiff(from: start, to: end) else {
                throw ShellError("store '\(store.alias)' no longer has the state of one of those steps")
            }
            entries += AliasPrefix.entries(changes, of: store.alias, amongStores: storeCount)
        }
        return CommandDiff(ownStep: .init(followUp: nil, entries: entries), isUnchanged: entries.isEmpty)
    }

    /// The states after step `number` (0: the start) of the stores loaded then, each with its
    /// alias, from the states kept for undo: what the page's inspector shows of a step it did not
    /// see, with no travel.
    func states(afterStep number: Int, in stores: [Session.LoadedStore]) throws(ShellError)
        -> [(alias: String, state: JSONValue)]
    {
        let cursor = try cursor(afterStep: number)
        var states: [(alias: String, state: JSONValue)] = []
        for store in stores.prefix(min(stores.count, storeCount(at: cursor))) {
            guard let state = store.runtime.historyState(at: cursor) else {
                throw ShellError("store '\(store.alias)' no longer has the state of step \(number)")
            }
            states.append((store.alias, state))
        }
        return states
    }

    /// How many stores were loaded with the first `cursor` history entries done (those loaded
    /// before the first entry, at the start).
    private func storeCount(at cursor: Int) -> Int {
        cursor == 0 ? history.entries.first?.storeCount ?? .max : history.entries[cursor - 1].storeCount
    }

    /// Where the state after step `number` is: the count of history entries done; throws for a
    /// step the history no longer keeps, one undone and replaced, swept, or not taken yet.
    func cursor(afterStep number: Int) throws(ShellError) -> Int {
        // NB: the state before the oldest entry kept: the start until steps are forgotten.
        if number == history.baselineStep { return 0 }
        if let index = history.index(ofStep: number) { return index + 1 }
        if number == 0 { throw ShellError("the start is forgotten", hint: history.forgettingHint) }
        guard number <= history.newestNumber else {
            throw ShellError(
                history.newestNumber == 0
                    ? "there is no step \(number): no step was taken yet"
                    : "there is no step \(number): the last is step \(history.newestNumber)",
                hint: "history lists the steps")
        }
        if history.swept.contains(number) {
            throw ShellError(
                "step \(number) was swept: sweep took it out of the history", hint: "history lists the steps")
        }
        if number < history.baselineStep {
            throw ShellError(
                "step \(number) is forgotten",
                hint: history.committed
                    ? history.forgettingHint : "\(history.forgettingHint), from step \(history.baselineStep)")
        }
        if history.committed, number < history.entries.first?.number ?? .max {
            throw ShellError("step \(number) was undone, then forgotten", hint: history.forgettingHint)
        }
        throw ShellError(
            "step \(number) was undone, and the steps after it replaced it", hint: "history lists the steps")
    }

    /// Appends a history entry, and every store's current state to its own history.
    ///
    /// - Parameter transcriptIndex: where the transcript keeps the step's diff (`nil` once full).
    private mutating func appendStep(
        action: ActionInvocation?, followUps: [ActionInvocation], in stores: [Session.LoadedStore],
        transcriptIndex: Int?, note: String? = nil, isTheApps: Bool = false, edit: TimelineEdit? = nil
    ) {
        let cursor = history.cursor
        let dropped = history.record(
            action: action, followUps: followUps, storeCount: stores.count, transcriptIndex: transcriptIndex,
            note: note, isTheApps: isTheApps, edit: edit)
        for store in stores { store.runtime.recordHistory(cursor: cursor, forgetting: dropped) }
    }

    /// What puts back each store's state with the first `cursor` history entries done; throws,
    /// changing nothing, when a store cannot make that state again.
    private static func restorers(at cursor: Int, in stores: [Session.LoadedStore]) throws(ShellError)
        -> [() -> [DiffEntry]]
    {
        var restorers: [() -> [DiffEntry]] = []
        for store in stores { restorers.append(try store.runtime.restorer(at: cursor)) }
        return restorers
    }

    /// Puts back each store's state (`restorers`, one per store, in order) and returns the diff.
    private mutating func restore(
        _ command: Command, _ restorers: [() -> [DiffEntry]], in stores: [Session.LoadedStore]
    ) -> CommandDiff {
        var entries: [DiffEntry] = []
        var unchanged = true
        for (store, restore) in zip(stores, restorers) {
            let changes = restore()
            if !changes.isEmpty { unchanged = false }
            entries += AliasPrefix.entries(changes, of: store.alias, amongStores: stores.count)
        }
        let diff = CommandDiff(ownStep: .init(followUp: nil, entries: entries), isUnchanged: unchanged)
        transcript.append(command, diff: diff)
        return diff
    }
}
