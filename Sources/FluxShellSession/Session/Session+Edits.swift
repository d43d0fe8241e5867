import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// Editing the past: `skip`, `unskip`, `replace`, `commit` and `sweep` (see "Editing the past"
/// in the reference). The timeline plans each edit and keeps it; the stores replay.
extension Session {
    /// `skip N`, `unskip N`, and `replace N ACTION` once its action is resolved: every store's
    /// state replayed with the edit, as a step of its own.
    func edit(_ edit: TimelineEdit) throws(ShellError) -> CommandResult {
        guard !stores.isEmpty else { throw noStoreLoaded }
        let plan = try timeline.plan(edit)
        let loaded = stores
        var result = CommandResult(try timeline.edit(edit, plan, in: loaded))
        result.step = hot.value.timeline.history.newestNumber
        return result
    }

    /// `replace N ACTION [ARG...]`: the action as `dispatch` builds it (refused as `dispatch`
    /// refuses it), in place of step N's.
    func replace(_ step: Int, with invocation: ActionInvocation) throws(ShellError) -> CommandResult {
        guard !stores.isEmpty else { throw noStoreLoaded }
        let resolved = try resolver.resolve(invocation, in: stores)
        return try edit(.replace(step, resolved.printed))
    }

    func commit() throws(ShellError) -> CommandResult {
        guard !stores.isEmpty else { throw noStoreLoaded }
        let loaded = stores
        return CommandResult(.committed(forgotten: timeline.commit(loaded)))
    }

    func sweep() throws(ShellError) -> CommandResult {
        guard let plan = try timeline.sweepPlan() else { return CommandResult(.swept(removed: [])) }
        let loaded = stores
        return CommandResult(.swept(removed: try timeline.sweep(plan, in: loaded)))
    }
}

extension Session {
    /// Each loaded store's state after step `number` (0: the start), from the states kept for
    /// undo, with no travel; throws for a step the history does not keep.
    package func states(afterStep number: Int) throws(ShellError) -> [(alias: String, state: JSONValue)] {
        let loaded = stores
        return try timeline.states(afterStep: number, in: loaded)
    }
}
