import FluxShellSystem
import FluxShellValues

/// Editing the past (`skip`, `unskip`, `replace`, `sweep`, `commit`): the store's kept actions
/// applied again by its reducer, from a state kept for undo, with no effect run (what effects
/// sent is among the kept actions); see "Editing the past" in the reference.
extension ReducerRuntime {
    @usableFromInline func replayer(_ plan: ReplayPlan) throws(ShellError) -> () -> [DiffEntry] {
        var state = try startingState(of: plan)
        for (offset, step) in plan.steps.enumerated() {
            try replay(step, entry: plan.start + offset, on: &state, nil)
        }
        return {
            self.parts.value.restoredWithoutAction = true
            return self.restore(state)
        }
    }

    @usableFromInline func sweeper(_ plan: ReplayPlan) throws(ShellError) -> () -> Void {
        var state = try startingState(of: plan)
        var rebuilt = history.value
        rebuilt.dropEntries(from: plan.start)
        let apply = { (action: Action, state: inout State) in self.apply(action, to: &state) }
        for (offset, step) in plan.steps.enumerated() where step.treatment != .leftOut {
            var pinned = false
            try replay(step, entry: plan.start + offset, on: &state) { action, before, after in
                guard let action else {
                    pinned = true
                    return
                }
                rebuilt.note(action, diff: ValueDiffer.entries(from: before, to: after))
            }
            rebuilt.record(state, cursor: rebuilt.entries.count, forgetting: 0, pinned: pinned, apply: apply)
        }
        guard history.value.reaches(state, self.state.value) else {
            throw ShellError(
                "store '\(alias)' does not come back to its state when its steps are replayed"
                    + (ReplayDifference.between(self.state.value, state).map { " (at \($0.clause(where: "it shows")))" }
                        ?? ""),
                hint:
                    "its reducer reads something besides the state and the action: to pin it, \(ReplayDifference.pinning)"
            )
        }
        return { self.history.value = rebuilt }
    }

    @usableFromInline func forgetHistory(keeping cursor: Int) {
        history.value.forgetAll(keeping: recorded.value, cursor: cursor)
        parts.value.restoredWithoutAction = false
    }

    /// The state `plan` replays from, after checking that the store kept its actions.
    private func startingState(of plan: ReplayPlan) throws(ShellError) -> State {
        let refusal = ShellError(
            "store '\(alias)' cannot replay its steps: its state holds class instances, which a replay would change in the states kept for undo",
            hint: "a state of values (structs, enums, collections of them) replays")
        guard history.value.keepsActions else { throw refusal }
        guard let state = try? history.value.state(at: plan.start, apply: apply) else {
            throw ShellError(
                "store '\(alias)' no longer has the state before step \(plan.steps.first?.number ?? 0)",
                hint: "its actions, applied again, gave another state: steps taken from now on can be edited")
        }
        // NB: an existential that holds a class instance would be shared with the kept state.
        if history.value.checksValues, !TypeShape.holdsOnlyValues(value: state) { throw refusal }
        return state
    }

    /// Applies one step of a plan to `state`: entry `index`'s kept actions, its pinned state, or
    /// the action replacing it. `applied` is told each action with the states before and after
    /// it, or `nil` with the state a pinned entry set.
    private func replay(
        _ step: ReplayPlan.Step, entry index: Int, on state: inout State,
        _ applied: ((Action?, State, State) -> Void)?
    ) throws(ShellError) {
        switch step.treatment {
        case .leftOut:
            return
        case .asRecorded where history.value.isPinned(index):
            state = history.value.pinnedState(index)
            applied?(nil, state, state)
        case .asRecorded:
            for action in history.value.actions(ofEntry: index) {
                try replay(action, of: step.number, on: &state, applied)
            }
        case .replaced(let invocation):
            switch decode(invocation) {
            case .accepted(let action, _):
                try replay((action as! TypedActionBox<Action>).action, of: step.number, on: &state, applied)
            case .unknownCase: return
            case .rejected(let error): throw error
            }
        }
    }

    /// NB: the state before the action is kept only when `applied` is given (`sweep`, which
    /// keeps each action's diff): a copy kept across the action makes it copy what it changes,
    /// a whole list for one element added.
    private func replay(
        _ action: Action, of step: Int, on state: inout State, _ applied: ((Action?, State, State) -> Void)?
    ) throws(ShellError) {
        if let validateAction {
            do {
                try validateAction(action, state)
            } catch {
                throw ShellError(
                    "store '\(alias)' refuses step \(step)'s \(actionCases.announcement(of: action)) once the steps before it change: \((error as? ShellError)?.message ?? "\(error)")",
                    hint: "skip or replace step \(step) as well, or undo")
            }
        }
        guard let applied else { return apply(action, to: &state) }
        let before = state
        apply(action, to: &state)
        applied(action, before, state)
    }
}
