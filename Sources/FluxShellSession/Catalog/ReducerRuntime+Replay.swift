import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// Editing the past (`skip`, `unskip`, `replace`, `sweep`, `commit`): the store's kept actions
/// applied again by its reducer, from a state kept for undo, with no effect run (what effects
/// sent is among the kept actions); see "Editing the past" in the reference.
extension ReducerRuntime {
    @usableFromInline func replayer(_ plan: ReplayPlan) throws(ShellError) -> () -> [DiffEntry] {
        let state = try replayed(plan, nil)
        return {
            self.parts.value.restoredWithoutAction = true
            return self.restore(state)
        }
    }

    @usableFromInline func sweeper(_ plan: ReplayPlan) throws(ShellError) -> () -> Void {
        var rebuilt = history.value
        rebuilt.dropEntries(from: plan.start)
        let apply = { (action: Action, state: inout State) in self.apply(action, to: &state) }
        let state = try replayed(plan) { action, drawn, before, after in
            guard let action else { return }
            if let drawn { rebuilt.noteDraws(drawn) }
            rebuilt.note(action, diff: ValueDiffer.entries(from: before, to: after))
        } stepEnded: { state, pinned in
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

    @usableFromInline func historyState(at cursor: Int) -> JSONValue? {
        (try? history.value.state(at: cursor, apply: apply)).map { ValueReader.read($0) }
    }

    @usableFromInline func forgetHistory(keeping cursor: Int) {
        history.value.forgetAll(keeping: recorded.value, cursor: cursor)
        parts.value.restoredWithoutAction = false
    }

    /// The state `plan` replays to; throws, naming why, when the store cannot replay its steps
    /// as they would have been.
    ///
    /// - Parameters:
    ///   - applied: told each action with the states before and after it, or `nil` with the
    ///     state a pinned entry set (`sweep`, which keeps each action's diff).
    ///   - stepEnded: told the state after each step the plan keeps, and whether it was set.
    private func replayed(
        _ plan: ReplayPlan, _ applied: ((Action?, EnvironmentCore.Recorded?, State, State) -> Void)?,
        stepEnded: (State, Bool) -> Void = { _, _ in }
    ) throws(ShellError) -> State {
        guard history.value.keepsActions, !history.value.replayedOtherwise else { throw cannotReplay }
        guard var state = try? history.value.state(at: plan.start, apply: apply) else {
            throw ShellError(
                "store '\(alias)' no longer has the state before step \(plan.steps.first?.number ?? 0)",
                hint: "its actions, applied again, gave another state")
        }
        try checkValues(state)
        let reads = effects.environment.core.reads
        do {
            try checkReplay(from: state, plan.start..<(plan.start + plan.steps.count))
        } catch {
            throw effects.environment.core.reads == reads ? error : readsTheSession
        }
        try probeForTraps(plan, from: state)
        for (offset, step) in plan.steps.enumerated() where step.treatment != .leftOut {
            let index = plan.start + offset
            if step.treatment == .asRecorded, history.value.isPinned(index) {
                state = history.value.pinnedState(index)
                try checkValues(state)
                applied?(nil, nil, state, state)
                stepEnded(state, true)
                continue
            }
            try replay(step, entry: index, on: &state, applied)
            stepEnded(state, false)
        }
        // NB: what the reducer reads of the session (its time, ids, random numbers) is what the
        // session has now, not what the step had: the replay would not be the step's.
        guard effects.environment.core.reads == reads else { throw readsTheSession }
        return state
    }

    /// How long the copy of the process that replays first may take.
    static var probeSeconds: Int { 10 }

    /// Throws, naming the step, when the reducer traps applying `plan` from `start` (an index
    /// out of range once an earlier step is skipped): the plan is replayed first in a copy of
    /// the process (``ChildProcess/probe(seconds:_:)``), where a trap ends the copy, not the
    /// session. An action the store refuses ends the copy's replay; the replay that follows says
    /// so.
    private func probeForTraps(_ plan: ReplayPlan, from start: State) throws(ShellError) {
        guard ChildProcess.mayProbe else { return }
        let ending = ChildProcess.probe(seconds: Self.probeSeconds) { mark in
            var state = start
            for (offset, step) in plan.steps.enumerated() where step.treatment != .leftOut {
                let index = plan.start + offset
                mark(step.number)
                if step.treatment == .asRecorded, history.value.isPinned(index) {
                    state = history.value.pinnedState(index)
                    continue
                }
                do { try replay(step, entry: index, on: &state, nil) } catch { return }
            }
        }
        switch ending {
        case .trapped(let cause, let mark):
            let action = plan.steps.first { $0.number == mark }.flatMap { step -> ActionInvocation? in
                if case .replaced(let invocation) = step.treatment { return invocation }
                return step.action
            }
            throw ShellError(
                "store '\(alias)' traps at step \(mark)\(action.map { "'s \($0)" } ?? "") once the steps before it change: \(cause)",
                hint: "skip or replace step \(mark) as well, or undo; nothing changed")
        case .finished?, .timedOut?, nil:
            // NB: a copy that did not end in time (a replay that long, or a copy made while
            // another thread held a lock of the runtime, which it then waits for) tells nothing:
            // the replay runs here, as it would without the probe.
            return
        }
    }

    /// Why a store whose reducer reads the session's environment is not replayed.
    private var readsTheSession: ShellError {
        ShellError(
            "store '\(alias)' reads the session's time, ids or random numbers in its reducer: replayed, its steps would get other ones than they had",
            hint: "undo and redo go through the states as they were; read them in an effect to edit the past")
    }

    /// Throws unless the entries in `range`, applied again as they were from `start`, show each
    /// action's values as it printed them and reach the state now: a reducer that reads the
    /// world (the clock, a random id, a global) would make the edited steps silently other than
    /// they were.
    private func checkReplay(from start: State, _ range: Range<Int>) throws(ShellError) {
        var state = start
        let reader = ValueReader()
        var difference: ReplayDifference?
        do {
            for index in range { try history.value.replay(entry: index, on: &state, apply: apply, reader) }
            if history.value.reaches(state, recorded.value) { return }
            difference = ReplayDifference.between(recorded.value, state)
        } catch {
            difference = error.difference
        }
        throw ShellError(
            "store '\(alias)' gave another state when its steps were applied again as they were"
                + (difference.map { " (at \($0.clause(where: "it showed")))" } ?? "")
                + ": an edit would change them silently",
            hint: "its reducer reads something besides the state and the action: to pin it, \(ReplayDifference.pinning)"
        )
    }

    /// Why the store's steps cannot be replayed with one left out or replaced.
    private var cannotReplay: ShellError {
        history.value.keepsActions
            ? ShellError(
                "store '\(alias)' gave another state when its actions were applied again: its steps cannot be replayed as they were",
                hint:
                    "its reducer reads something besides the state and the action: to pin it, \(ReplayDifference.pinning)"
            )
            : ShellError(
                "store '\(alias)' cannot replay its steps: its state holds class instances, which a replay would change in the states kept for undo",
                hint: "a state of values (structs, enums, collections of them) replays")
    }

    /// Throws when `state`'s existentials hold a class instance, which a replay would change in
    /// the state kept for undo too.
    private func checkValues(_ state: State) throws(ShellError) {
        guard history.value.checksValues, !TypeShape.holdsOnlyValues(value: state) else { return }
        throw ShellError(
            "store '\(alias)' cannot replay its steps: its state holds a class instance, which a replay would change in the states kept for undo",
            hint: "a state of values (structs, enums, collections of them) replays")
    }

    /// Applies step `step` (entry `index`) to `state`: its kept actions, or the action replacing
    /// it. The step's own action is checked with the store's validation, as `dispatch` checks
    /// it; what effects sent, as they were, is not.
    private func replay(
        _ step: ReplayPlan.Step, entry index: Int, on state: inout State,
        _ applied: ((Action?, EnvironmentCore.Recorded?, State, State) -> Void)?
    ) throws(ShellError) {
        switch step.treatment {
        case .leftOut:
            return
        case .asRecorded:
            // NB: the dispatched action comes first among the entry's, when this store took it.
            var validatesFirst = false
            if validateAction != nil, let own = step.action, case .accepted = decode(own) { validatesFirst = true }
            for position in history.value.actionPositions(ofEntry: index) {
                try replay(
                    history.value.actions[position], drawn: history.value.drawn[history.value.firstAction + position],
                    of: step.number, validating: validatesFirst, on: &state, applied)
                validatesFirst = false
            }
        case .replaced(let invocation):
            // NB: a store that does not take the action (or not with these arguments) is left
            // as it is, as `dispatch` leaves it; the session checked that one store takes it.
            guard case .accepted(let action, _) = decode(invocation) else { return }
            // NB: in the step's place, the action draws what the step's own action drew from.
            let positions = history.value.actionPositions(ofEntry: index)
            let drawn = positions.first.flatMap { history.value.drawn[history.value.firstAction + $0] }
            try replay(
                (action as! TypedActionBox<Action>).action, drawn: drawn, of: step.number, validating: true,
                on: &state, applied)
        }
    }

    /// NB: the state before the action is kept only when `applied` is given (`sweep`, which
    /// keeps each action's diff): a copy kept across the action makes it copy what it changes,
    /// a whole list for one element added.
    private func replay(
        _ action: Action, drawn: EnvironmentCore.Recorded?, of step: Int, validating: Bool, on state: inout State,
        _ applied: ((Action?, EnvironmentCore.Recorded?, State, State) -> Void)?
    ) throws(ShellError) {
        if validating, let validateAction {
            do {
                try validateAction(action, state)
            } catch {
                throw ShellError(
                    "store '\(alias)' refuses step \(step)'s \(actionCases.announcement(of: action)) once the steps before it change: \((error as? ShellError)?.message ?? "\(error)")",
                    hint: "skip or replace step \(step) as well, or undo")
            }
        }
        let applying = { (state: inout State) in
            guard let drawn else { return self.apply(action, to: &state) }
            self.environment.replaying(drawn) { self.apply(action, to: &state) }
        }
        guard let applied else { return applying(&state) }
        let before = state
        applying(&state)
        applied(action, drawn, before, state)
    }
}
