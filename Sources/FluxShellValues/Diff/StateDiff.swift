import FluxShellJSON

/// The places where two JSON values differ, as ``DiffEntry`` lines in the value's order.
///
/// Objects are compared key by key; arrays by a minimal edit script (Myers), so an insertion or
/// removal is one line and a change inside an element is reported at the deepest path that
/// changed. Identical values are skipped without descending into them.
package enum StateDiff {
    /// Beyond this many differences in one array, its elements are paired by index instead of by
    /// a minimal edit script, which keeps time and memory bounded.
    static let editScriptLimit = 2_000

    public static func entries(from old: JSONValue, to new: JSONValue) -> [DiffEntry] {
        var entries: [DiffEntry] = []
        diff(old, new, at: ValuePath(), into: &entries)
        return entries
    }

    package static func diff(_ old: JSONValue, _ new: JSONValue, at path: ValuePath, into entries: inout [DiffEntry]) {
        // NB: matched one side at a time rather than as a tuple of both, which copies both values
        // first; most diffed values are scalars, which end here at the first test.
        if case .object(let before) = old, case .object(let after) = new {
            diffObjects(before, after, at: path, into: &entries)
        } else if case .array(let before) = old, case .array(let after) = new {
            diffArrays(before, after, at: path, into: &entries)
        } else if old != new {
            entries.append(DiffEntry(operation: .changed, path: path, old: old, new: new))
        }
    }

    static func diffObjects(
        _ old: JSONObject, _ new: JSONObject, at path: ValuePath, into entries: inout [DiffEntry]
    ) {
        // NB: two objects of one member under different keys are how two cases of an enum print
        // (`{"leaf":…}`, `{"node":…}`): one `~` line of the whole value (“Diff lines” in the
        // reference), as the typed diff gives, also where a value is diffed as printed (a class
        // instance, a mirror). A dictionary's keys are `["KEY"]` (`budget["zeta"]`), a struct's
        // members `.name`.
        let isKeyed = old.isKeyed || new.isKeyed
        func place(_ key: String) -> ValuePath { path.appending(isKeyed ? .entry(key) : .key(key)) }
        if !isKeyed, old.count == 1, new.count == 1, old.keys[0] != new.keys[0] {
            entries.append(DiffEntry(operation: .changed, path: path, old: .object(old), new: .object(new)))
            return
        }
        if old.keys == new.keys {
            for index in new.keys.indices where old.values[index] != new.values[index] {
                diff(old.values[index], new.values[index], at: place(new.keys[index]), into: &entries)
            }
            return
        }
        // NB: an object finds a key by hashing, so objects with many keys (dictionaries) diff in
        // linear time.
        for (key, value) in new.members {
            if let previous = old[key] {
                if previous != value { diff(previous, value, at: place(key), into: &entries) }
            } else {
                entries.append(DiffEntry(operation: .added, path: place(key), old: nil, new: value))
            }
        }
        for (key, value) in old.members where new[key] == nil {
            entries.append(DiffEntry(operation: .removed, path: place(key), old: value, new: nil))
        }
    }

    /// - Parameter offset: added to every index (the arrays are a middle part of longer ones).
    static func diffArrays(
        _ old: [JSONValue], _ new: [JSONValue], at path: ValuePath, offset: Int = 0, into entries: inout [DiffEntry]
    ) {
        for edit in ArrayEdit.edits(from: old, to: new, pairsChanges: true) {
            switch edit {
            case .changed(let oldIndex, let newIndex):
                let start = entries.count
                let place = path.appending(.index(offset + newIndex))
                diff(old[oldIndex], new[newIndex], at: place, into: &entries)
                if oldIndex != newIndex {
                    DiffEntry.reindexRemovals(
                        &entries, from: start, depth: place.segments.count - 1, to: offset + oldIndex)
                }
            case .removed(let index):
                entries.append(
                    DiffEntry(
                        operation: .removed, path: path.appending(.index(offset + index)), old: old[index], new: nil))
            case .inserted(let index):
                entries.append(
                    DiffEntry(
                        operation: .added, path: path.appending(.index(offset + index)), old: nil, new: new[index]))
            }
        }
    }
}

/// One line's worth of change between two arrays, in the order diff lines are printed.
package enum ArrayEdit: Equatable {
    /// An element replaced in place: the old element at one index became the new one at another.
    case changed(old: Int, new: Int)
    /// An element of the old array (by its index there) is gone.
    case removed(Int)
    /// An element of the new array (by its index there) appeared.
    case inserted(Int)

    /// The edits from `old` to `new`: a minimal edit script (``StateDiff/editScriptLimit``),
    /// where, between kept elements, removals and insertions pair up as changes when
    /// `pairsChanges` (arrays) and stay apart when not (sets, whose elements have no place).
    package static func edits<T: Equatable>(from old: [T], to new: [T], pairsChanges: Bool) -> [ArrayEdit] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
        {
            suffix += 1
        }
        let oldMiddle = Array(old[prefix..<(old.count - suffix)])
        let newMiddle = Array(new[prefix..<(new.count - suffix)])
        let script =
            EditScript.myers(oldMiddle, newMiddle, limit: StateDiff.editScriptLimit)
            ?? EditScript.byIndex(oldMiddle.count, newMiddle.count)
        var edits: [ArrayEdit] = []
        var removed: [Int] = []
        var inserted: [Int] = []
        func flush() {
            let paired = pairsChanges ? min(removed.count, inserted.count) : 0
            for index in 0..<paired {
                edits.append(.changed(old: prefix + removed[index], new: prefix + inserted[index]))
            }
            for index in removed.dropFirst(paired) { edits.append(.removed(prefix + index)) }
            for index in inserted.dropFirst(paired) { edits.append(.inserted(prefix + index)) }
            removed.removeAll(keepingCapacity: true)
            inserted.removeAll(keepingCapacity: true)
        }
        for step in script {
            switch step {
            case .keep: flush()
            case .remove(let index): removed.append(index)
            case .insert(let index): inserted.append(index)
            }
        }
        flush()
        return edits
    }
}

/// An edit script between two sequences: which elements stay, go, or come.
enum EditScript {
    package enum Step: Equatable {
        case keep
        /// An element of the old sequence (by its index there) is removed.
        case remove(Int)
        /// An element of the new sequence (by its index there) is inserted.
        case insert(Int)
    }

    /// Pairs elements by index: changes for the common length, then removals or insertions.
    static func byIndex(_ oldCount: Int, _ newCount: Int) -> [Step] {
        var steps: [Step] = []
        for index in 0..<max(oldCount, newCount) {
            if index < oldCount { steps.append(.remove(index)) }
            if index < newCount { steps.append(.insert(index)) }
        }
        return steps
    }

    /// A shortest edit script (Myers, 1986), or `nil` when more than `limit` edits are needed.
    static func myers<T: Equatable>(_ old: [T], _ new: [T], limit: Int) -> [Step]? {
        let n = old.count
        let m = new.count
        if n == 0 { return (0..<m).map { .insert($0) } }
        if m == 0 { return (0..<n).map { .remove($0) } }
        let maxD = min(n + m, limit)
        let offset = maxD + 1
        var frontier = Array(repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = []
        var found = false
        search: for d in 0...maxD {
            trace.append(frontier)
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && frontier[offset + k - 1] < frontier[offset + k + 1]) {
                    x = frontier[offset + k + 1]
                } else {
                    x = frontier[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, old[x] == new[y] {
                    x += 1
                    y += 1
                }
                frontier[offset + k] = x
                if x >= n, y >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else { return nil }
        // Backtrack from the end to the start, collecting steps in reverse.
        var steps: [Step] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let previous = trace[d]
            let k = x - y
            let previousK: Int
            if k == -d || (k != d && previous[offset + k - 1] < previous[offset + k + 1]) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : previous[offset + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                steps.append(.keep)
                x -= 1
                y -= 1
            }
            if d > 0 {
                if x == previousX {
                    steps.append(.insert(y - 1))
                } else {
                    steps.append(.remove(x - 1))
                }
            }
            x = previousX
            y = previousY
        }
        while x > 0, y > 0 {
            steps.append(.keep)
            x -= 1
            y -= 1
        }
        return steps.reversed()
    }
}
