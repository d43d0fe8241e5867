import FluxShellJSON
import FluxShellValues

/// `why PATH`: the steps of the history that created or changed a value, found by following its
/// path back from the current state through each step's diff.
///
/// A step's diff says where it inserted and removed array elements (`+` paths index the state
/// after it, `-` paths the state before), so the path of the same element before the step is
/// known: `todos[0]` now was `todos[2]` before a step that removed two todos ahead of it. The walk
/// stops at the step that inserted the value, or a place holding it.
struct WhyQuery {
    /// The path asked about, in the active store.
    let path: ValuePath
    /// The active store's alias: a step's diff has it before every path when several stores
    /// were loaded.
    let alias: String
    /// The active store's place in load order: steps that ran before it was loaded are skipped.
    let storeIndex: Int
    /// `why todos.count`: the value is a collection's size, changed by the steps that inserted or
    /// removed its elements.
    let countsElements: Bool

    /// The steps among `entries` (the done history entries), oldest first, and whether the walk
    /// reached the value's creation; `diff` gives what the entry at an index printed.
    func steps(in entries: ArraySlice<SessionHistory.Entry>, diff: (Int) -> CommandDiff)
        -> (steps: [WhyListing.Step], foundCreation: Bool)
    {
        var tracked: [ValuePath.Segment]? = countsElements ? Array(path.segments.dropLast()) : path.segments
        var listed: [WhyListing.Step] = []
        for index in entries.indices.reversed() {
            guard let current = tracked else { break }
            let entry = entries[index]
            // NB: the stores loaded at a step were the first ones: stores are never unloaded.
            guard entry.storeCount > storeIndex else { continue }
            let prefix = AliasPrefix.segments(alias, amongStores: entry.storeCount)
            var groups: [WhyListing.Group] = []
            var place = prefix + current
            let printed = diff(index)
            let steps = [printed.ownStep] + printed.followUpSteps
            for step in steps.reversed() {
                let (shown, before) = follow(place, through: step.entries)
                if !shown.isEmpty { groups.append(WhyListing.Group(followUp: step.followUp, entries: shown)) }
                guard let before else {
                    tracked = nil
                    break
                }
                place = before
            }
            if tracked != nil { tracked = Array(place.dropFirst(prefix.count)) }
            if !groups.isEmpty {
                listed.append(WhyListing.Step(number: entry.number, action: entry.text, groups: groups.reversed()))
            }
        }
        return (listed.reversed(), tracked == nil)
    }

    /// The lines of one step that concern `place` (a path as that step's diff prints it, in the
    /// state after the step), and the place in the state before it; `nil` when the step created it.
    private func follow(_ place: [ValuePath.Segment], through entries: [DiffEntry])
        -> (shown: [DiffEntry], before: [ValuePath.Segment]?)
    {
        guard !entries.isEmpty else { return ([], place) }
        var newPrefix: [ValuePath.Segment] = []
        var oldPrefix: [ValuePath.Segment] = []
        var created = false
        for segment in place {
            guard case .index(let index) = segment else {
                newPrefix.append(segment)
                oldPrefix.append(segment)
                continue
            }
            // NB: a `+` or `~` line's path indexes every array by the state after the step, a `-`
            // line's by the state before it (the holder's old index too, when it moved).
            var added: [Int] = []
            var removed: [Int] = []
            for entry in entries {
                let segments = entry.path.segments
                guard segments.count == newPrefix.count + 1, case .index(let at)? = segments.last else { continue }
                switch entry.operation {
                case .added where segments.dropLast().elementsEqual(newPrefix): added.append(at)
                case .removed where segments.dropLast().elementsEqual(oldPrefix): removed.append(at)
                default: break
                }
            }
            if added.contains(index) {
                created = true
                break
            }
            var old = index - added.count(where: { $0 < index })
            for gone in removed.sorted() where gone <= old { old += 1 }
            newPrefix.append(segment)
            oldPrefix.append(.index(old))
        }
        if !created {
            created = entries.contains { entry in
                let segments = entry.path.segments
                switch entry.operation {
                case .added: return place.starts(with: segments)
                case .changed: return segments.count < place.count && place.starts(with: segments)
                case .removed: return false
                }
            }
        }
        let shown = entries.filter { entry in
            let segments = entry.path.segments
            switch entry.operation {
            case .added, .changed:
                // The place itself, or one holding it (inserted or replaced whole here).
                if place.starts(with: segments) { return true }
                guard segments.starts(with: place) else { return false }
                return !countsElements || (entry.operation == .added && segments.count == place.count + 1)
            case .removed:
                // An element removed from inside the place, as it was before the step.
                guard !created, segments.dropLast().starts(with: oldPrefix) else { return false }
                return !countsElements || segments.count == place.count + 1
            }
        }
        return (shown, created ? nil : oldPrefix)
    }
}

/// What `why PATH` shows.
package struct WhyListing: Sendable {
    /// The lines of one part of a step: its own action's, or a follow-up's (`=> ACTION`).
    public struct Group: Sendable {
        public var followUp: ActionInvocation?
        public var entries: [DiffEntry]
    }

    /// A history entry that created or changed the value.
    public struct Step: Sendable {
        /// 1-based, as `history` numbers it.
        public var number: Int
        /// The step in command syntax, as `history` shows it.
        public var action: String
        public var groups: [Group]
    }

    public var path: ValuePath
    public var steps: [Step]
    /// How many earlier steps are no longer kept, when the value may be older than them.
    public var forgotten: Int
    /// The session is attached to a running app: its first state is the app's when it attached.
    public var isAttached = false
}
