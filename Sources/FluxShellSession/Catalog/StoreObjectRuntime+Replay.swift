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

    /// NB: `sweep` would make every state along the timeline again from a new store per step;
    /// a store object's steps are edited, and the edits undone, but not swept yet.
    @usableFromInline func sweeper(_ plan: ReplayPlan) throws(ShellError) -> () -> Void {
        throw ShellError(
            "store '\(alias)' is a store object: sweep makes each state along the timeline again, which it does only for a reducer",
            hint: "its edits stay as steps of their own; commit forgets them with the rest")
    }

    /// Why a store object without `restore:` does not replay its steps with one left out.
    static func cannotReplay(_ alias: String) -> ShellError {
        ShellError(
            "store '\(alias)' is a store object with no restore: a new one cannot be set to the state before the step, so its steps cannot be replayed with one left out or replaced",
            hint: "give its StoreDefinition restore: { store, state in … }; undo and redo work as they are")
    }

    /// The state a new store reaches from the state before `plan`'s first step, sent its steps'
    /// kept actions.
    private func replayed(_ plan: ReplayPlan, restoring restore: (Object, State) -> Void) throws(ShellError)
        -> State
    {
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
                switch step.treatment {
                case .leftOut:
                    continue
                case .asRecorded where history.isPinned(index):
                    restore(fresh, history.pinnedState(index))
                    _ = freshFeed?.take()
                case .asRecorded:
                    let before = replay(at: index).end
                    for action in log[(before - logStart)..<(replays[index].end - logStart)] {
                        try replay(action, to: fresh, freshFeed)
                    }
                case .replaced(let invocation):
                    guard case .accepted(let action, _) = decode(invocation) else { continue }
                    try replay((action as! TypedActionBox<Action>).action, to: fresh, freshFeed)
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
