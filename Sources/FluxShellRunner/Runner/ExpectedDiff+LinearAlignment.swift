import FluxShellSystem

extension ExpectedDiff {
    /// An alignment of two slices (indices are those of the whole arrays) in time linear in
    /// their lengths, for a block too large for the table.
    ///
    /// Each run of pinned lines after a `...` is placed where it first occurs after the previous
    /// run (the last run, when no `...` follows it, at the end; a run after no `...`, where the
    /// previous one ended): as in glob matching, placing each run as early as it can be leaves
    /// the most room for the next, so this finds a match whenever there is one.
    ///
    /// A run not found there is placed line by line: after a `...`, a line where it next occurs
    /// (else where a line for its path next occurs, replaced); after a placed line, the line
    /// right after it if equal (else replaced when for the same path, else missing). So when
    /// there is no match, the lines a failure names may differ from the table's, never the verdict.
    ///
    /// NB: the searches for runs together read at most three times as many lines as the two
    /// slices have: the searches that find their run read each actual line once at most, and
    /// the first that does not, once more; only later ones, when the verdict is already known,
    /// can run out, and a run not found in time is placed line by line. A run with a `*` line
    /// (a pattern, equal to no line) is searched at each place in turn instead: its search may
    /// read the actual lines once per line of the run.
    func linearMiddle(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> [Step] {
        var alignment = LinearAlignment(self, expected, actual)
        return alignment.steps()
    }
}

/// One ``ExpectedDiff/linearMiddle(_:_:)`` under way: the lines as numbers, the steps so far, and
/// where the actual lines are taken from next. Offsets are into the slices; the steps hold the
/// whole arrays' indices.
private struct LinearAlignment {
    typealias Step = ExpectedDiff.Step

    let diff: ExpectedDiff
    let expected: ArraySlice<String>
    let actual: ArraySlice<String>
    /// The lines as numbers (equal lines, equal numbers), so runs are searched among integers.
    /// A pattern line's number is its own, negative, equal to no actual line's: it is compared by
    /// ``same(_:_:)`` (`*` lines are few, and their runs are searched without numbers).
    let expectedNumbers: [Int]
    let actualNumbers: [Int]
    /// The number of `...`.
    let ellipsis: Int
    var searchBudget: Int
    var lineOccurrences: Occurrences<Int>?
    var pathOccurrences: Occurrences<Substring>?
    var result: [Step] = []
    /// The first actual line not placed yet.
    var position = 0
    /// The `...` whose actual lines are not placed yet, and the expected lines found missing since.
    var openEllipsis: Int?
    var missingSinceEllipsis: [Int] = []

    init(_ diff: ExpectedDiff, _ expected: ArraySlice<String>, _ actual: ArraySlice<String>) {
        self.diff = diff
        self.expected = expected
        self.actual = actual
        var numbers: [String: Int] = [:]
        func number(_ line: String) -> Int {
            if let known = numbers[line] { return known }
            numbers[line] = numbers.count
            return numbers.count - 1
        }
        actualNumbers = actual.map(number)
        expectedNumbers = expected.indices.map { diff.patterns[$0] == nil ? number(expected[$0]) : -1 - $0 }
        ellipsis = number(ExpectedDiff.ellipsis)
        searchBudget = 3 * (actualNumbers.count + expectedNumbers.count)
    }

    /// Whether expected line `e` stands for actual line `a` (offsets into the slices).
    func same(_ e: Int, _ a: Int) -> Bool {
        expectedNumbers[e] == actualNumbers[a]
            || (expectedNumbers[e] < 0 && diff.line(expected.startIndex + e, matches: actual[actual.startIndex + a]))
    }

    func runMatches(_ run: Range<Int>, at start: Int) -> Bool {
        run.indices.allSatisfy { same($0, start + $0 - run.lowerBound) }
    }

    /// The steps, each run of expected lines between `...` lines placed in turn.
    mutating func steps() -> [Step] {
        var e = 0
        while e < expectedNumbers.count {
            if expectedNumbers[e] == ellipsis {
                close(ellipsisBefore: position)
                openEllipsis = e
                e += 1
                continue
            }
            var runEnd = e
            while runEnd < expectedNumbers.count, expectedNumbers[runEnd] != ellipsis { runEnd += 1 }
            if let found = find(e..<runEnd) {
                for offset in 0..<(runEnd - e) { place(e + offset, at: found + offset, matched: true) }
            } else {
                for line in e..<runEnd { placeAlone(line) }
            }
            e = runEnd
        }
        if openEllipsis != nil {
            close(ellipsisBefore: actualNumbers.count)
        } else {
            result += (position..<actualNumbers.count).map { .unexpected(actual: actual.startIndex + $0) }
        }
        return result
    }

    /// Where the run of expected lines `run` is placed whole, if it is.
    mutating func find(_ run: Range<Int>) -> Int? {
        let numbers = expectedNumbers[run]
        guard openEllipsis != nil else {
            return actualNumbers.count - position >= run.count && runMatches(run, at: position) ? position : nil
        }
        if run.upperBound == expectedNumbers.count {
            let start = actualNumbers.count - run.count
            return start >= position && runMatches(run, at: start) ? start : nil
        }
        if numbers.contains(where: { $0 < 0 }) {
            return (position..<max(position, actualNumbers.count - run.count + 1)).first { runMatches(run, at: $0) }
        }
        return actualNumbers.firstOccurrence(of: Array(numbers), from: position, budget: &searchBudget)
    }

    /// Places expected line `line` of a run not found whole.
    mutating func placeAlone(_ line: Int) {
        if openEllipsis != nil { return placeAfterEllipsis(line) }
        if position < actualNumbers.count, same(line, position) {
            place(line, at: position, matched: true)
        } else if position < actualNumbers.count, let key = ExpectedDiff.pathKey(expected[expected.startIndex + line]),
            key == ExpectedDiff.pathKey(actual[actual.startIndex + position])
        {
            place(line, at: position, matched: false)
        } else {
            result.append(.missing(expected: expected.startIndex + line))
        }
    }

    /// Places expected line `line` after a `...`: where it next occurs, else where a line for its
    /// path next occurs (replaced), else missing.
    mutating func placeAfterEllipsis(_ line: Int) {
        if lineOccurrences == nil { lineOccurrences = Occurrences(actualNumbers) }
        if expectedNumbers[line] >= 0, let next = lineOccurrences!.first(of: expectedNumbers[line], from: position) {
            return place(line, at: next, matched: true)
        }
        if pathOccurrences == nil { pathOccurrences = Occurrences(actual.map(ExpectedDiff.pathKey)) }
        guard let key = ExpectedDiff.pathKey(expected[expected.startIndex + line]),
            let next = pathOccurrences!.first(of: key, from: position)
        else { return missingSinceEllipsis.append(line) }
        // NB: a pattern is matched by a line for its path, the first it matches within the
        // budget (the verdict is known: only what a failure names is at stake).
        var matching: Int?
        if expectedNumbers[line] < 0 {
            var candidate = next
            while candidate < actualNumbers.count, searchBudget > 0, matching == nil {
                searchBudget -= 1
                if ExpectedDiff.pathKey(actual[actual.startIndex + candidate]) == key, same(line, candidate) {
                    matching = candidate
                }
                candidate += 1
            }
        }
        place(line, at: matching ?? next, matched: matching != nil)
    }

    mutating func close(ellipsisBefore end: Int) {
        guard let open = openEllipsis else { return }
        let covers = (actual.startIndex + position)..<(actual.startIndex + end)
        result.append(.ellipsis(expected: expected.startIndex + open, covers: covers))
        result += missingSinceEllipsis.map { .missing(expected: expected.startIndex + $0) }
        missingSinceEllipsis = []
        openEllipsis = nil
        position = end
    }

    mutating func place(_ e: Int, at a: Int, matched: Bool) {
        close(ellipsisBefore: a)
        let (expectedIndex, actualIndex) = (expected.startIndex + e, actual.startIndex + a)
        result.append(
            matched
                ? .matched(expected: expectedIndex, actual: actualIndex)
                : .replaced(expected: expectedIndex, actual: actualIndex))
        position = a + 1
    }
}

/// Where each value occurs in a sequence, asked with positions that never decrease.
private struct Occurrences<Key: Hashable> {
    private var positions: [Key: [Int]] = [:]
    /// Per value, how many of its positions are before the last position asked.
    private var passed: [Key: Int] = [:]

    init(_ values: [Key?]) {
        for (position, value) in values.enumerated() {
            if let value { positions[value, default: []].append(position) }
        }
    }

    /// The first position of `value` at or after `start`.
    mutating func first(of value: Key, from start: Int) -> Int? {
        guard let all = positions[value] else { return nil }
        var index = passed[value] ?? 0
        while index < all.count, all[index] < start { index += 1 }
        passed[value] = index
        return index < all.count ? all[index] : nil
    }
}
