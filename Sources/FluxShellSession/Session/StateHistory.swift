import FluxShellJSON
import FluxShellValues

/// One store's states along the session's ``SessionHistory``, for `undo`, `redo` and `why`: the
/// state after each entry, typed, with no box per state.
///
/// Keeping every state costs a copy of whatever the step changed: renaming one of 10,000
/// members copies the whole list, and a thousand such steps kept 700 MiB. So a store whose
/// state holds only values keeps one state in ``SessionHistory/window`` entries, and makes the
/// others again when asked, by applying the actions it took since the state kept before them,
/// as its mutation did the first time.
///
/// Which states those are, by type (``TypeShape/holding(_:)``): no class instance, which a
/// mutation applied to a copy would change in the kept state too; existentials (`any P`) only
/// while what each holds is a value, which ``closeWindow(apply:)`` checks of every state it
/// drops or replays from. A state of plain bits (a counter) costs nothing to keep, and keeps
/// every state.
///
/// A state made again is never trusted blindly. Each action is kept with the diff it printed, and
/// an action applied again must show the same values at that diff's paths; the replay must then
/// reach the next kept state exactly (`==`, or no diff for a state that is not `Equatable`). This
/// is checked when a window closes, while its states are all still kept: a store whose mutation
/// gives another result (it reads the clock, a random number, a global) keeps every state from
/// then on. A replay that fails later (a clock read at a coarser grain) is refused, never
/// restored.
@usableFromInline
package struct StateHistory<State, Action> {
    @usableFromInline
    struct Entry {
        /// The state after the entry; `nil` once it can be made again from the actions.
        @usableFromInline var state: State?
        /// Where the entry's actions end in the session's count of actions (they start where the
        /// previous entry's end).
        @usableFromInline var end: Int
        /// A state no action made (`reset`): always kept.
        @usableFromInline var pinned: Bool

        @usableFromInline init(state: State?, end: Int, pinned: Bool) {
            self.state = state
            self.end = end
            self.pinned = pinned
        }
    }

    /// The state before the oldest kept entry.
    @usableFromInline var baseline: State
    @usableFromInline var entries: [Entry]
    /// The actions of the kept entries, each with the diff it made; `actions[0]` is action number
    /// `firstAction`.
    @usableFromInline var actions: [Action] = []
    @usableFromInline var diffs: [[DiffEntry]] = []
    @usableFromInline var firstAction = 0
    /// The actions taken since the last entry, which the next entry gets.
    @usableFromInline var pending: [(action: Action, diff: [DiffEntry])] = []
    /// What the kept actions whose reducer read the session's time, ids or random numbers drew
    /// from, by action number: applied again, each reads what it read then.
    @usableFromInline var drawn: [Int: EnvironmentCore.Recorded] = [:]
    /// What the pending actions that drew drew from, by their place in ``pending``: numbered
    /// once the entry is recorded (after an undo, the undone actions go first).
    @usableFromInline var pendingDraws: [(place: Int, recorded: EnvironmentCore.Recorded)] = []
    /// The session's environment, which replays the actions in ``drawn`` with their draws.
    package var environment: EnvironmentCore?
    /// Whether states are dropped and made again (see above); once false, it stays false.
    @usableFromInline var replays: Bool
    /// Whether a replay of this store's actions once came out other than the states it made
    /// (its reducer reads something besides its state and action): edits of the past refuse it.
    @usableFromInline var replayedOtherwise = false
    /// Whether the actions are kept, for the replays above and for `skip`, `unskip`, `replace`
    /// and `sweep` to apply them again: for a state with no class instance, which a replay from
    /// a kept state would change in that kept state too (existentials are checked, see
    /// ``checksValues``).
    @usableFromInline let keepsActions: Bool
    /// Whether the state's type holds existentials, so that each state must be seen to hold
    /// only values before it is dropped or replayed from.
    @usableFromInline let checksValues: Bool
    @usableFromInline let shape: TypeShape
    /// How many entries the session forgets at once (a whole number of windows); 0 when its
    /// history is too short to forget whole windows.
    @usableFromInline let forgetBatch: Int

    /// A history for a store loaded when the log already has `entries` entries: undoing past its
    /// loading brings it back to `initial`.
    ///
    /// - Parameter forgetBatch: how many entries the session forgets at once, a whole number of
    ///   windows, when it lets the store drop states (the store's actions can be applied again);
    ///   0 when it does not. The state's type decides the rest.
    package init(initial: State, entries: Int, forgetBatch: Int) {
        baseline = initial
        self.entries = Array(repeating: Entry(state: initial, end: 0, pinned: false), count: entries)
        shape = TypeShape.of(State.self)
        self.forgetBatch = forgetBatch
        // NB: a state of plain bits (a counter) is not asked: it costs nothing to keep.
        let holding = shape.isBitwise ? TypeShape.Holding.onlyValues : TypeShape.holding(State.self)
        replays = forgetBatch > 0 && !shape.isBitwise && holding != .references
        checksValues = holding == .existentials
        keepsActions = holding != .references
    }

    /// Notes an action this store took, for the next entry (only while the history keeps actions).
    @inlinable
    mutating func note(_ action: Action, diff: [DiffEntry]) {
        pending.append((action, diff))
    }

    /// Notes what the next action noted drew from (its reducer read the session's environment).
    @usableFromInline
    mutating func noteDraws(_ recorded: EnvironmentCore.Recorded) {
        pendingDraws.append((pending.count, recorded))
    }

    /// Applies kept action number `number` (counted from ``firstAction``) to `state`: with the
    /// draws it had, when its reducer read the session's environment.
    func apply(actionAt number: Int, to state: inout State, _ apply: (Action, inout State) -> Void) {
        guard let recorded = drawn[firstAction + number], let environment else { return apply(actions[number], &state) }
        environment.replaying(recorded) { apply(actions[number], &state) }
    }

    /// The positions in ``actions`` of entry `index`'s actions.
    package func actionPositions(ofEntry index: Int) -> Range<Int> {
        (end(ofEntry: index - 1) - firstAction)..<(entries[index].end - firstAction)
    }

    /// Mirrors ``SessionHistory/record(action:followUps:storeCount:transcriptIndex:)``: `state` is
    /// the new entry's; `pinned` when no action made it.
    @inlinable
    package mutating func record(
        _ state: State, cursor: Int, forgetting dropped: Int, pinned: Bool, apply: (Action, inout State) -> Void
    ) {
        if cursor < entries.count { dropEntries(from: cursor) }
        // NB: after an undo, the entry before a pinned one may have no state: it is made now, so
        // that the pinned state never stands in for the check of the states before it.
        if pinned, let last = entries.indices.last, entries[last].state == nil {
            keepState(ofEntry: last, apply: apply)
        }
        if !pendingDraws.isEmpty {
            for (place, recorded) in pendingDraws { drawn[firstAction + actions.count + place] = recorded }
            pendingDraws.removeAll()
        }
        if !pending.isEmpty {
            for taken in pending {
                actions.append(taken.action)
                diffs.append(taken.diff)
            }
            pending.removeAll(keepingCapacity: true)
        }
        entries.append(Entry(state: state, end: firstAction + actions.count, pinned: pinned))
        if replays, entries.count % SessionHistory.window == 0 { closeWindow(apply: apply) }
        if dropped > 0 { forget(dropped, apply: apply) }
    }

    /// Drops the entries from `cursor` on (undone, or swept), and their actions.
    @usableFromInline
    mutating func dropEntries(from cursor: Int) {
        entries.removeSubrange(cursor...)
        let kept = end(ofEntry: cursor - 1) - firstAction
        actions.removeSubrange(kept...)
        diffs.removeSubrange(kept...)
        if !drawn.isEmpty { drawn = drawn.filter { $0.key < firstAction + kept } }
    }

    /// `commit`: forgets every entry; `state`, the one with the first `cursor` entries done,
    /// becomes the state before the oldest.
    package mutating func forgetAll(keeping state: State, cursor: Int) {
        if cursor < entries.count { dropEntries(from: cursor) }
        baseline = state
        firstAction += actions.count
        entries.removeAll()
        actions.removeAll()
        diffs.removeAll()
        drawn.removeAll()
    }

    /// Whether entry `index`'s state was set, not made by actions (`reset`, an edit).
    package func isPinned(_ index: Int) -> Bool { entries[index].pinned }

    /// The state a pinned entry set (always kept).
    package func pinnedState(_ index: Int) -> State { entries[index].state! }

    /// The actions entry `index` took, as they were applied (those effects sent included).
    package func actions(ofEntry index: Int) -> ArraySlice<Action> {
        actions[(end(ofEntry: index - 1) - firstAction)..<(entries[index].end - firstAction)]
    }

    /// Whether `state` prints as the state with the first `cursor` entries done; `false` when
    /// that state cannot be made again.
    package func isUnchanged(_ state: State, since cursor: Int, apply: (Action, inout State) -> Void) -> Bool {
        guard let before = try? self.state(at: cursor, apply: apply) else { return false }
        return ValueDiffer.entries(from: before, to: state).isEmpty
    }

    /// The state with the first `cursor` entries done.
    package func state(at cursor: Int, apply: (Action, inout State) -> Void) throws(ReplayMismatch) -> State {
        if cursor == 0 { return baseline }
        if let state = entries[cursor - 1].state { return state }
        var base = cursor - 2
        while base >= 0, entries[base].state == nil { base -= 1 }
        var state = base < 0 ? baseline : entries[base].state!
        let reader = ValueReader()
        for index in (base + 1)..<cursor {
            try replay(entry: index, on: &state, apply: apply, reader)
        }
        let result = state
        // NB: the replay goes on to the next kept state, which it must reach exactly.
        var next = cursor
        while next < entries.count, entries[next].state == nil {
            try replay(entry: next, on: &state, apply: apply, reader)
            next += 1
        }
        if next < entries.count {
            try replay(entry: next, on: &state, apply: apply, reader)
            let kept = entries[next].state!
            guard reaches(state, kept) else {
                throw ReplayMismatch(difference: ReplayDifference.between(kept, state))
            }
        }
        return result
    }

    /// The diffs entry `index`'s actions printed, one after the other.
    func printedDiffs(ofEntry index: Int) -> [DiffEntry] {
        Array(diffs[(end(ofEntry: index - 1) - firstAction)..<(entries[index].end - firstAction)].joined())
    }

    // MARK: - Windows

    /// Makes and keeps entry `index`'s state; when it cannot be made again, keeps every state
    /// from now on.
    @usableFromInline
    mutating func keepState(ofEntry index: Int, apply: (Action, inout State) -> Void) {
        if let made = try? state(at: index + 1, apply: apply) {
            entries[index].state = made
        } else {
            gaveAnotherState()
        }
    }

    /// A replay did not make again the states kept: states are kept from now on, and the store's
    /// past is not edited.
    @usableFromInline
    mutating func gaveAnotherState() {
        replays = false
        replayedOtherwise = true
    }

    @usableFromInline func end(ofEntry index: Int) -> Int { index < 0 ? firstAction : entries[index].end }

    /// Checks the window the last entry closes by making its states again; when they all come
    /// out the same, drops them but the last.
    @usableFromInline
    mutating func closeWindow(apply: (Action, inout State) -> Void) {
        let last = entries.count - 1
        let first = last - SessionHistory.window + 1
        let before = first - 1
        // NB: a large state's window ends are dropped but for the newest: after an undo into an
        // older window, the state before it is made again (checked against the next one kept).
        guard var state = before < 0 ? baseline : entries[before].state ?? (try? self.state(at: first, apply: apply))
        else {
            gaveAnotherState()
            return
        }
        // NB: a replay starts from a state this check saw, so no class instance an existential
        // held is shared with a kept state, for the mutation to change in both; the states
        // dropped before were seen when their own window closed.
        if checksValues {
            guard TypeShape.holdsOnlyValues(value: state),
                entries[first...last].allSatisfy({ $0.state.map { TypeShape.holdsOnlyValues(value: $0) } ?? true })
            else {
                replays = false
                return
            }
        }
        let reader = ValueReader()
        for index in first...last {
            do {
                try replay(entry: index, on: &state, apply: apply, reader)
            } catch {
                gaveAnotherState()
                return
            }
            // NB: a pinned state (`reset`) is set, not made: the state before it is checked
            // exactly there, and kept, so that no replay ever ends its check on a pinned state.
            if index < last, entries[index + 1].pinned, !reaches(state, entries[index].state!) {
                gaveAnotherState()
                return
            }
        }
        guard reaches(state, entries[last].state!) else {
            gaveAnotherState()
            return
        }
        for index in first..<last where !entries[index].pinned && !entries[index + 1].pinned {
            entries[index].state = nil
        }
        // NB: a large state keeps no window's last state but the newest one's and those the
        // session will forget up to (every `forgetBatch` entries, so that a new baseline is never
        // made by a replay that might not come out the same): a state further back is made again
        // from the one kept before it (a copy, then the actions in place).
        if before >= 0, (before + 1) % forgetBatch != 0, !entries[before].pinned, !entries[first].pinned,
            Self.isLarge(entries[last].state!)
        {
            entries[before].state = nil
        }
    }

    /// How many elements a state may hold in its collections before its history keeps as few
    /// copies of it as it can (see ``closeWindow(apply:)``).
    static var largeStateElements: Int { 100_000 }

    /// Whether `state` holds ``largeStateElements`` elements or more in the collections among
    /// its members and theirs (two levels down): found from the members' counts, through
    /// `Mirror`, without reading an element.
    static func isLarge(_ state: State) -> Bool {
        /// How many elements `value` stores, when it is a collection that stores them.
        ///
        /// NB: a string's count walks its characters, and a range's may overflow (`0...Int.max`);
        /// neither stores elements, nor does a lazy view.
        func storedCount(_ value: Any) -> Int? {
            if value is String || value is Substring || value is any RangeExpression
                || value is any LazySequenceProtocol
            {
                return nil
            }
            return (value as? any Collection)?.count
        }
        func elements(in value: Any, depth: Int) -> Int {
            var total = 0
            for child in Mirror(reflecting: value).children {
                if let count = storedCount(child.value) {
                    total += count
                } else if depth > 0 {
                    total += elements(in: child.value, depth: depth - 1)
                }
                if total >= largeStateElements { break }
            }
            return total
        }
        return (storedCount(state) ?? elements(in: state, depth: 1)) >= largeStateElements
    }

    /// Forgets the oldest `count` entries.
    ///
    /// NB: `count` is ``forgetBatch`` when the history replays, a whole number of windows, so the
    /// entry before the first one kept closed a window, and its state is kept (also for a large
    /// state, see ``closeWindow(apply:)``).
    @usableFromInline
    mutating func forget(_ count: Int, apply: (Action, inout State) -> Void) {
        let newBaseline = entries[count - 1].state ?? (try? state(at: count, apply: apply))
        guard let newBaseline else { preconditionFailure("the history forgot an entry whose state it did not keep") }
        baseline = newBaseline
        let dropped = entries[count - 1].end - firstAction
        entries.removeFirst(count)
        actions.removeFirst(dropped)
        diffs.removeFirst(dropped)
        firstAction += dropped
        if !drawn.isEmpty { drawn = drawn.filter { $0.key >= firstAction } }
    }

    /// Applies entry `index`'s actions to `state` (or sets its pinned state).
    ///
    /// - Throws: ``ReplayMismatch`` when one of them does not print at its diff's paths what it
    ///   printed the first time.
    func replay(entry index: Int, on state: inout State, apply: (Action, inout State) -> Void, _ reader: ValueReader)
        throws(ReplayMismatch)
    {
        if entries[index].pinned {
            state = entries[index].state!
            return
        }
        func check(_ change: DiffEntry, showed first: JSONValue?) throws(ReplayMismatch) {
            let again = Self.printed(state, at: change.path, reader)
            guard again == first else {
                // NB: at the deepest path that differs (`todos[0].createdAt` in a todo added again).
                let difference =
                    first.flatMap { first in again.flatMap { ReplayDifference.between(first, $0, at: change.path) } }
                    ?? ReplayDifference(path: change.path, first: first, again: again)
                throw ReplayMismatch(difference: difference)
            }
        }
        for number in (end(ofEntry: index - 1) - firstAction)..<(entries[index].end - firstAction) {
            let diff = diffs[number]
            // NB: what went away is read before the action, what came after it: no copy of the
            // state is made to compare the two.
            for change in diff where change.operation == .removed { try check(change, showed: change.old) }
            self.apply(actionAt: number, to: &state, apply)
            for change in diff where change.operation != .removed { try check(change, showed: change.new) }
        }
    }

    /// The value at `path` in `state` as printed: read in place as deep as the reader goes (it
    /// does not index a set, for one), the rest looked up in what it printed there.
    static func printed(_ state: State, at path: ValuePath, _ reader: ValueReader) -> JSONValue? {
        let segments = path.segments
        for depth in stride(from: segments.count, through: 0, by: -1) {
            guard let value = reader.read(state, at: segments[..<depth]) else { continue }
            return depth == segments.count ? value : try? ValuePath(Array(segments[depth...])).lookup(in: value)
        }
        return nil
    }

    /// Whether a state made again is the one kept: `==` (or equal bits) for an `Equatable` state,
    /// else no difference in what prints.
    func reaches(_ made: State, _ kept: State) -> Bool {
        let shape = self.shape
        if shape.sameValue(made, kept) { return true }
        if shape.isBitwise { return false }
        if let equal = shape.equalValue(made, kept) { return equal }
        return ValueDiffer.entries(from: made, to: kept).isEmpty
    }
}

/// A state made again from a store's actions that did not come out as it was the first time.
package struct ReplayMismatch: Error {
    /// Where it first differs, when a value shows it (a state that is not `==` may print alike).
    var difference: ReplayDifference?
}
