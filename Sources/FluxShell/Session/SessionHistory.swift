/// The undo log: each state-changing command with the states before and after it, bounded so
/// that a long session keeps a fixed amount of memory.
struct SessionHistory {
    struct Entry {
        /// 1-based, counting from the start of the session, also for entries no longer kept.
        var number: Int
        /// The dispatched action, or `nil` for `reset`.
        var action: ActionInvocation?
        var followUps: [ActionInvocation]

        /// The step in command syntax (`increment`, `add title: milk`, `reset`), rendered when
        /// listed rather than on every dispatch.
        var text: String { action?.description ?? "reset" }
        var before: Snapshots
        var after: Snapshots
    }

    /// How many entries are kept; older ones are forgotten (and can no longer be undone).
    let limit: Int
    private(set) var entries: [Entry] = []
    /// Entries before this index are done; from it on, undone (and can be redone).
    private(set) var cursor = 0
    private(set) var forgotten = 0
    private var nextNumber = 1

    init(limit: Int) { self.limit = max(1, limit) }

    var undoable: Int { cursor }
    var redoable: Int { entries.count - cursor }

    mutating func record(
        action: ActionInvocation?, followUps: [ActionInvocation], before: Snapshots,
        after: Snapshots
    ) {
        if cursor < entries.count { entries.removeSubrange(cursor...) }
        entries.append(Entry(number: nextNumber, action: action, followUps: followUps, before: before, after: after))
        nextNumber += 1
        if entries.count > limit {
            // NB: drop a batch at once so recording stays amortised O(1).
            let drop = max(1, limit / 4)
            entries.removeFirst(drop)
            forgotten += drop
        }
        cursor = entries.count
    }

    /// The states to restore for undoing `steps` entries.
    mutating func undo(_ steps: Int) -> Snapshots {
        cursor -= steps
        return entries[cursor].before
    }

    mutating func redo(_ steps: Int) -> Snapshots {
        cursor += steps
        return entries[cursor - 1].after
    }
}

/// The states of the loaded stores at one moment, by store. A handful of stores at most, so a
/// list beats a dictionary (no hashing on every dispatch).
struct Snapshots {
    private var states: [(id: ObjectIdentifier, state: any Sendable)] = []

    init() {}

    subscript(id: ObjectIdentifier) -> (any Sendable)? {
        get {
            for entry in states where entry.id == id { return entry.state }
            return nil
        }
        set {
            states.removeAll { $0.id == id }
            if let newValue { states.append((id, newValue)) }
        }
    }

    mutating func append(_ state: any Sendable, for id: ObjectIdentifier) { states.append((id, state)) }
}
