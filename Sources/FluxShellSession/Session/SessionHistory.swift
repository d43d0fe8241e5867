import FluxShellJSON
import FluxShellValues

/// The undo log: each state-changing command, bounded so that a long session keeps a fixed amount
/// of memory. The states themselves are kept by each store's runtime in a ``StateHistory``, which
/// mirrors this log entry for entry: typed, with no box per state.
@usableFromInline
package struct SessionHistory {
    struct Entry {
        /// 1-based, counting from the start of the session, also for entries no longer kept.
        var number: Int
        /// The dispatched action, or `nil` for `reset`.
        var action: ActionInvocation?
        var followUps: [ActionInvocation]
        /// How many stores were loaded when the step ran (the first ones loaded): with one, its
        /// diff printed paths unprefixed, with several, each beginning with its store's alias.
        var storeCount: Int
        /// Where the transcript keeps what the step printed, for `why`; `nil` once the transcript
        /// is full.
        ///
        /// NB: an index, not the diff itself: keeping the diff here too cost 5 reference counts
        /// and 5 % of a piped `dispatch set N` (2.09 -> 2.20 s per million lines).
        var transcriptIndex: Int?
        /// What a step that is not a dispatch or a reset says of itself: the command (`advance
        /// 0.3`), or, for a step no command made, `(3 changes dropped)` for the app's actions an
        /// attached shell read too slowly to see.
        var note: String?
        /// Whether the attached app dispatched the step's action (or sent its states again),
        /// rather than this shell: what an attached `undo` says it undid.
        var isTheApps = false
        /// What a `skip`, `unskip` or `replace` step changed in the timeline.
        var edit: TimelineEdit?

        /// Whether the step dispatched actions (its own, or those effects sent while `advance`
        /// ran), which `skip` can take out: not a reset, an edit, or a step of the app's.
        var tookActions: Bool { edit == nil && !isTheApps && (action != nil || note != nil) }

        /// The step in command syntax (`increment`, `add title: milk`, `reset`), rendered when
        /// listed rather than on every dispatch.
        var text: String { note ?? action?.description ?? "reset" }
    }

    /// How many entries are kept; older ones are forgotten (and can no longer be undone).
    let limit: Int
    private(set) var entries: [Entry] = []
    /// Entries before this index are done; from it on, undone (and can be redone).
    private(set) var cursor = 0
    private(set) var forgotten = 0
    /// The number of the step whose state is the one before the oldest entry kept: 0, the
    /// start, until entries are forgotten (by the limit, or by `commit`).
    private(set) var baselineStep = 0
    /// Whether `commit` forgot the steps up to ``baselineStep`` (rather than the limit).
    private(set) var committed = false
    /// The numbers of the steps `sweep` took out, for `history` to say where they went.
    private(set) var swept: Set<Int> = []
    private var nextNumber = 1

    init(limit: Int) { self.limit = max(1, limit) }

    var undoable: Int { cursor }
    /// The number of the newest step recorded (0 before any).
    package var newestNumber: Int { nextNumber - 1 }
    var redoable: Int { entries.count - cursor }

    /// How many entries a store that makes its states again keeps one state for (see
    /// ``StateHistory``).
    @usableFromInline static let window = 16

    /// Whether entries are forgotten a whole number of windows at a time, so that the oldest
    /// entry kept always follows one whose state every store keeps: true from 64 entries on.
    var forgetsWholeWindows: Bool { limit >= 4 * Self.window }

    /// How many of the oldest entries to forget once the log holds its limit and a batch more:
    /// a batch at once, so that recording stays amortised O(1), and never below the limit, so
    /// that the last `limit` steps can always be undone, as the shell says.
    var batchToForget: Int {
        forgetsWholeWindows ? limit / 4 / Self.window * Self.window : max(1, limit / 4)
    }

    /// Appends an entry (dropping the undone ones). Returns how many of the oldest entries were
    /// forgotten, which every ``StateHistory`` must forget too.
    mutating func record(
        action: ActionInvocation?, followUps: [ActionInvocation], storeCount: Int, transcriptIndex: Int?,
        note: String? = nil, isTheApps: Bool = false, edit: TimelineEdit? = nil
    )
        -> Int
    {
        if cursor < entries.count { entries.removeSubrange(cursor...) }
        entries.append(
            Entry(
                number: nextNumber, action: action, followUps: followUps, storeCount: storeCount,
                transcriptIndex: transcriptIndex, note: note, isTheApps: isTheApps, edit: edit))
        nextNumber += 1
        var dropped = 0
        if entries.count >= limit + batchToForget {
            dropped = batchToForget
            baselineStep = entries[dropped - 1].number
            entries.removeFirst(dropped)
            forgotten += dropped
            committed = false
        }
        cursor = entries.count
        return dropped
    }

    /// Whether a step was recorded, undone or redone since the log was `before`.
    func hasMoved(since before: SessionHistory) -> Bool {
        cursor != before.cursor || nextNumber != before.nextNumber || entries.count != before.entries.count
    }

    /// Where the entry of step `number` is among those kept, if it is.
    func index(ofStep number: Int) -> Int? {
        guard let first = entries.first?.number, number >= first else { return nil }
        // NB: numbers only grow along the log (a gap where steps were undone and replaced).
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].number == number ? low : nil
    }

    /// `commit`: forgets every entry, the undone ones too; the state now is where the log starts.
    mutating func forgetAll() {
        if cursor > 0 { baselineStep = entries[cursor - 1].number }
        forgotten += cursor
        entries.removeAll()
        cursor = 0
        committed = true
        swept.removeAll()
    }

    /// `sweep`: the entries from `index` on become `rebuilt`, all done; the others from there
    /// on, undone ones too, leave the history.
    mutating func rebuild(from index: Int, as rebuilt: [Entry]) {
        let kept = Set(rebuilt.map(\.number))
        for entry in entries[index...] where !kept.contains(entry.number) { swept.insert(entry.number) }
        entries.replaceSubrange(index..., with: rebuilt)
        cursor = entries.count
    }

    /// Why the steps up to ``baselineStep`` are gone, as a hint.
    var forgettingHint: String {
        committed
            ? "commit made the state after step \(baselineStep) where the history starts"
            : "the history keeps the last \(limit) steps"
    }

    /// Moves back `steps` entries.
    mutating func undo(_ steps: Int) { cursor -= steps }

    /// Moves forward `steps` entries.
    mutating func redo(_ steps: Int) { cursor += steps }
}
