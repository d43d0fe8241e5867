import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// Editing the past for a store object the app gave `restore:` (see "Editing the past" in the
/// reference): a new store, set to the state before the first step replayed, is sent the kept
/// actions of the steps after it (what effects sent among them), and the store is set to the
/// state it reaches. The new store's own tasks are ended before they run: effects do not run
/// again.
extension StoreObjectRuntime {
    @usableFromInline func replayer(_ plan: ReplayPlan) throws(ShellError) -> () -> [DiffEntry] {
        guard let restore = form.restore else { throw Self.cannotReplay(alias) }
        let reached = try replayed(plan, restoring: restore)
        return {
            restore(self.object, reached)
            // NB: what the hook reports of the restore is part of it, as for `undo`.
            _ = self.feed?.take()
            self.restoredWithoutAction = true
            // NB: read back, not assumed: the diff shows where the store is.
            return self.advance(to: self.form.state(self.object))
        }
    }

    @usableFromInline func historyState(at cursor: Int) -> JSONValue? {
        (try? history.state(at: cursor, apply: Self.keptOnly)).map { ValueReader.read($0) }
    }

    /// `sweep`: the steps from the plan's first on are made again in a new store, each kept
    /// step's state read after it, and become the history (its states, and the actions a new
    /// store is sent to make each again).
    @usableFromInline func sweeper(_ plan: ReplayPlan) throws(ShellError) -> () -> Void {
        guard let restore = form.restore else { throw Self.cannotReplay(alias) }
        var rebuilt = history
        rebuilt.dropEntries(from: plan.start)
        var rebuiltLog = Array(log[..<(replay(at: plan.start).end - logStart)])
        var rebuiltReplays = Array(replays[..<plan.start])
        let (logStart, baseline) = (self.logStart, self.baseline)
        let reached = try replayed(plan, restoring: restore) { state, sent, pinned in
            let end = logStart + rebuiltLog.count
            let start = pinned ? end : (rebuiltReplays.last ?? baseline).start
            rebuiltLog += sent
            rebuiltReplays.append(Replay(start: start, end: logStart + rebuiltLog.count))
            rebuilt.record(state, cursor: rebuilt.entries.count, forgetting: 0, pinned: pinned, apply: Self.keptOnly)
        }
        guard history.reaches(reached, recorded) else {
            throw ShellError(
                "store '\(alias)' does not come back to its state when its steps are sent to a new store",
                hint: "its store reads something besides its state and the actions it is sent")
        }
        return {
            self.history = rebuilt
            self.log = rebuiltLog
            self.replays = rebuiltReplays
        }
    }

    /// Why a store object without `restore:` does not replay its steps with one left out.
    static func cannotReplay(_ alias: String) -> ShellError {
        ShellError(
            "store '\(alias)' is a store object with no restore: a new one cannot be set to the state before the step, so its steps cannot be replayed with one left out or replaced",
            hint: "give its StoreDefinition restore: { store, state in … }; undo and redo work as they are")
    }

    /// The state a new store reaches from the state before `plan`'s first step, sent its steps'
    /// kept actions; `stepEnded` is told the state after each step the plan keeps, the actions
    /// sent to make it, and whether it was set rather than made (`sweep`).
    private func replayed(
        _ plan: ReplayPlan, restoring restore: (Object, State) -> Void,
        stepEnded: ((State, [Action], Bool) -> Void)? = nil
    ) throws(ShellError) -> State {
        let range = plan.start..<(plan.start + plan.steps.count)
        if let changed = range.first(where: { replays[$0].changedOnItsOwn }) {
            throw ShellError(
                "store '\(alias)' changed on its own by step \(plan.steps[changed - plan.start].number), which no action sent to a new store makes again",
                hint: "undo and redo go through the states as they were")
        }
        guard let start = try? history.state(at: plan.start, apply: Self.keptOnly) else {
            throw ShellError("store '\(alias)' no longer has the state before step \(plan.steps.first?.number ?? 0)")
        }
        // NB: the new store's tasks (its library's effects) are ended before they run.
        effects.separateLibraryTasks()
        defer { effects.discardLibraryTasks() }
        // NB: what making the new store reads of the session is not the steps'.
        var reads: UInt64 = 0
        let reached = try environment.core.replaying { () throws(ShellError) -> State in
            let fresh = try Self.make(form, alias: alias, in: environment)
            let freshFeed = Self.observe(fresh, form, signal: effects.changeSignal)
            defer { freshFeed?.retire() }
            restore(fresh, start)
            _ = freshFeed?.take()
            reads = environment.core.reads
            for (offset, step) in plan.steps.enumerated() {
                let index = plan.start + offset
                var sent: [Action] = []
                switch step.treatment {
                case .leftOut:
                    continue
                case .asRecorded where history.isPinned(index):
                    restore(fresh, history.pinnedState(index))
                    _ = freshFeed?.take()
                    if let stepEnded { stepEnded(history.pinnedState(index), [], true) }
                    continue
                case .asRecorded:
                    let before = replay(at: index).end
                    sent = Array(log[(before - logStart)..<(replays[index].end - logStart)])
                case .replaced(let invocation):
                    // NB: a store that does not take the action is left as it is, and the step
                    // stays one of its history's (sweep keeps it).
                    if case .accepted(let action, _) = decode(invocation) {
                        sent = [(action as! TypedActionBox<Action>).action]
                    }
                }
                for action in sent { try replay(action, to: fresh, freshFeed) }
                if let stepEnded {
                    _ = freshFeed?.take()
                    stepEnded(try Self.state(of: fresh, form, alias: alias), sent, false)
                }
            }
            _ = freshFeed?.take()
            return try Self.state(of: fresh, form, alias: alias)
        }
        guard environment.core.reads == reads else {
            throw ShellError(
                "store '\(alias)' reads the session's time, ids or random numbers as it applies actions: replayed, its steps would get other ones than they had",
                hint: "undo and redo go through the states as they were")
        }
        return reached
    }
}
