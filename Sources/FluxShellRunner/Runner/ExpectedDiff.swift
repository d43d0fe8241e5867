/// A state-changing command's expected diff lines as a script writes them (each trimmed): the
/// actual diff must equal them line for line, except that a `...` line stands for any number of
/// actual lines, none included (“Scenarios” in the reference), and a line with `*` where a value
/// stands matches the lines it stands for (see ``ExpectedLinePattern``).
///
/// The one home of that matching: the check and its failure report (``ScriptRunner``) and
/// `--update` (``ScenarioUpdate``) read the same ``Alignment``.
struct ExpectedDiff {
    /// The line that stands for any number of actual lines.
    static let ellipsis = "..."

    let lines: [String]
    /// Whether a line is `...`; without one, the lines must equal the actual ones.
    let hasEllipsis: Bool
    /// The lines with `*` where a value stands, by index; a line whose `*` stands where no value
    /// can (the runner reports it) is compared as it is written.
    let patterns: [Int: ExpectedLinePattern]

    init(_ lines: [String], hasEllipsis: Bool) {
        self.lines = lines
        self.hasEllipsis = hasEllipsis
        var patterns: [Int: ExpectedLinePattern] = [:]
        for (index, line) in lines.enumerated() {
            if let pattern = try? ExpectedLinePattern.parse(line) { patterns[index] = pattern }
        }
        self.patterns = patterns
    }

    init(_ lines: [String]) {
        self.init(lines, hasEllipsis: lines.contains(Self.ellipsis))
    }

    /// How `actual` compares with the lines.
    enum Comparison: Equatable {
        case matches
        /// The lines differ: with a `...` among the expected lines, the alignment that tells
        /// where; without one, `nil` (line by line is where).
        case differs(Alignment?)
    }

    func compare(with actual: [String]) -> Comparison {
        // NB: the common case, no `...` and no `*`, is plain equality: no alignment is made.
        guard hasEllipsis || !patterns.isEmpty else { return lines == actual ? .matches : .differs(nil) }
        let alignment = alignment(with: actual)
        return alignment.holds ? .matches : .differs(alignment)
    }

    /// Whether expected line `index` stands for `actual`: equal to it, or a pattern it matches.
    func line(_ index: Int, matches actual: String) -> Bool {
        // NB: most blocks have no `*`: no lookup per cell of their table.
        if !patterns.isEmpty, let pattern = patterns[index] { return pattern.matches(actual) }
        return lines[index] == actual
    }

    /// One expected or actual line's part in an ``Alignment``.
    package enum Step: Equatable {
        /// The expected line is the actual line (or a pattern that matches it).
        case matched(expected: Int, actual: Int)
        /// The expected line was not found; the actual line, which changes the same path (same
        /// `~ `, `+ ` or `- ` and path), stands where it was expected.
        case replaced(expected: Int, actual: Int)
        /// The expected line was not found.
        case missing(expected: Int)
        /// No expected line and no `...` accounts for the actual line.
        case unexpected(actual: Int)
        /// A `...` line and the actual lines it stands for (maybe none).
        case ellipsis(expected: Int, covers: Range<Int>)
    }

    /// The expected lines laid against the actual ones in order, every line of both in one step.
    struct Alignment: Equatable {
        var steps: [Step]

        /// Whether the actual lines match: every pinned (non-`...`) line found, every actual
        /// line accounted for.
        var holds: Bool { mismatch == nil }

        /// What a failure names: the first pinned line not found, else the first actual line
        /// nothing accounts for.
        var mismatch: Mismatch? {
            var unexpected: Int?
            for step in steps {
                switch step {
                case .missing(let expected), .replaced(let expected, _): return .notFound(expected: expected)
                case .unexpected(let actual): unexpected = unexpected ?? actual
                case .matched, .ellipsis: break
                }
            }
            return unexpected.map { .notExpected(actual: $0) }
        }

        /// The block `--update` writes: the actual lines, each run that a `...` stood for
        /// written as that `...` line, the lines found kept as written, and a line for the path
        /// of one not found in its place.
        var updated: [UpdatedLine] {
            var lines: [UpdatedLine] = []
            // NB: `...` lines that only a pinned line no longer found kept apart are one now.
            var endsWithEllipsis = false
            for step in steps {
                switch step {
                case .matched(let expected, _):
                    lines.append(.kept(expected: expected))
                    endsWithEllipsis = false
                case .replaced(let expected, let actual):
                    lines.append(.replacing(expected: expected, actual: actual))
                    endsWithEllipsis = false
                case .unexpected(let actual):
                    lines.append(.written(actual: actual))
                    endsWithEllipsis = false
                case .missing:
                    break
                case .ellipsis(let expected, _):
                    if !endsWithEllipsis { lines.append(.kept(expected: expected)) }
                    endsWithEllipsis = true
                }
            }
            return lines
        }
    }

    enum Mismatch: Equatable {
        /// A pinned expected line that the actual lines do not have where it was expected.
        case notFound(expected: Int)
        /// An actual line where the expected lines have neither it nor a `...`.
        case notExpected(actual: Int)
    }

    /// A line of a block as `--update` writes it.
    enum UpdatedLine: Equatable {
        /// The expected line, byte for byte as the file has it.
        case kept(expected: Int)
        case written(actual: Int)
        /// The actual line for the path of an expected line not found: see ``text(of:actual:)``.
        case replacing(expected: Int, actual: Int)
    }

    /// The text `--update` writes for an updated line other than one kept: the actual line; in
    /// place of a line with `*`, the actual line with its `*`s where their places still are, so
    /// that a value that changes from run to run stays unpinned when another one changed.
    func text(of line: UpdatedLine, actual: [String]) -> String {
        switch line {
        case .kept(let expected): lines[expected]
        case .written(let index): actual[index]
        case .replacing(let expected, let index):
            patterns[expected]?.keepingWildcards(in: actual[index]) ?? actual[index]
        }
    }

    /// The most cells the table of a best alignment may have (expected lines by actual lines,
    /// after the lines equal at both ends): a larger block is laid by ``linearMiddle(_:_:)``.
    static let largestTable = 1_000_000

    /// Lays the expected lines against `actual`: as many pinned lines found as can be (their
    /// longest common subsequence), then as few actual lines left outside a `...` as can be,
    /// then as many pinned lines not found replaced by a line for the same path as can be.
    /// The actual lines match exactly when no pinned line is missing and no actual line is
    /// left outside.
    ///
    /// A block whose table would have more than `largestTable` cells is laid in linear time
    /// instead: it matches exactly when the table would say so, but when it does not, the
    /// lines a failure names and `--update` rewrites may differ (see ``linearMiddle(_:_:)``).
    func alignment(with actual: [String], largestTable: Int = Self.largestTable) -> Alignment {
        let expected = lines
        func isPinned(_ index: Int) -> Bool { expected[index] != Self.ellipsis }
        // NB: pinned lines equal to the actual ones at both ends are found there in some best
        // alignment; matching them first keeps the table below to the part in between.
        var start = 0
        while start < expected.count, start < actual.count, isPinned(start), line(start, matches: actual[start]) {
            start += 1
        }
        var expectedEnd = expected.count
        var actualEnd = actual.count
        while expectedEnd > start, actualEnd > start, isPinned(expectedEnd - 1),
            line(expectedEnd - 1, matches: actual[actualEnd - 1])
        {
            expectedEnd -= 1
            actualEnd -= 1
        }
        var steps = (0..<start).map { Step.matched(expected: $0, actual: $0) }
        let middleExpected = expected[start..<expectedEnd]
        let middleActual = actual[start..<actualEnd]
        // NB: the table's time and memory grow with the product of the two counts (5,000 pinned
        // lines against 5,000 actual ones took seconds); no input may hang (“Errors and exit
        // codes” in the reference).
        let cells = (middleExpected.count + 1).multipliedReportingOverflow(by: middleActual.count + 1)
        if cells.overflow || cells.partialValue > largestTable {
            steps += linearMiddle(middleExpected, middleActual)
        } else {
            steps += middle(middleExpected, middleActual)
        }
        steps += (0..<(expected.count - expectedEnd)).map {
            Step.matched(expected: expectedEnd + $0, actual: actualEnd + $0)
        }
        return Alignment(steps: steps)
    }

    /// What an alignment costs, compared in this order: pinned lines not found, actual lines
    /// left outside a `...`, and (fewer is worse) pinned lines replaced by a line for their path.
    private struct Cost: Comparable {
        var missing = 0
        var unexpected = 0
        var replaced = 0

        static func < (a: Cost, b: Cost) -> Bool {
            (a.missing, a.unexpected, b.replaced) < (b.missing, b.unexpected, a.replaced)
        }
    }

    /// The move a best alignment makes from a pair of positions.
    private enum Move: UInt8 {
        case match, replace, drop, unexpected, cover, pass
    }

    /// The best alignment of two slices (indices are those of the whole arrays), by a table of
    /// the best cost from every pair of positions to the end.
    private func middle(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> [Step] {
        let rows = expected.count + 1
        let columns = actual.count + 1
        let expectedKeys = expected.map(Self.pathKey)
        let actualKeys = actual.map(Self.pathKey)
        var moves = [Move](repeating: .pass, count: rows * columns)
        var below = [Cost](repeating: Cost(), count: columns)
        var row = below
        for e in stride(from: expected.count, through: 0, by: -1) {
            for a in stride(from: actual.count, through: 0, by: -1) {
                var best: Cost?
                var move = Move.pass
                func consider(_ candidate: Move, _ cost: Cost) {
                    if best == nil || cost < best! {
                        best = cost
                        move = candidate
                    }
                }
                if e == expected.count {
                    if a < actual.count {
                        var cost = row[a + 1]
                        cost.unexpected += 1
                        consider(.unexpected, cost)
                    }
                } else if expected[expected.startIndex + e] == Self.ellipsis {
                    consider(.pass, below[a])
                    if a < actual.count { consider(.cover, row[a + 1]) }
                } else {
                    if a < actual.count {
                        if line(expected.startIndex + e, matches: actual[actual.startIndex + a]) {
                            consider(.match, below[a + 1])
                        } else if let key = expectedKeys[e], key == actualKeys[a] {
                            var cost = below[a + 1]
                            cost.missing += 1
                            cost.replaced += 1
                            consider(.replace, cost)
                        }
                    }
                    var dropped = below[a]
                    dropped.missing += 1
                    consider(.drop, dropped)
                    if a < actual.count {
                        var cost = row[a + 1]
                        cost.unexpected += 1
                        consider(.unexpected, cost)
                    }
                }
                row[a] = best ?? Cost()
                moves[e * columns + a] = move
            }
            swap(&row, &below)
        }
        return Self.steps(following: moves, columns: columns, expected, actual)
    }

    /// The steps of the best alignment: the moves its table holds, followed from the start.
    private static func steps(
        following moves: [Move], columns: Int, _ expected: ArraySlice<String>, _ actual: ArraySlice<String>
    ) -> [Step] {
        var steps: [Step] = []
        var e = 0
        var a = 0
        var coverStart: Int?
        while e < expected.count || a < actual.count {
            let expectedIndex = expected.startIndex + e
            let actualIndex = actual.startIndex + a
            switch moves[e * columns + a] {
            case .match:
                steps.append(.matched(expected: expectedIndex, actual: actualIndex))
                e += 1
                a += 1
            case .replace:
                steps.append(.replaced(expected: expectedIndex, actual: actualIndex))
                e += 1
                a += 1
            case .drop:
                steps.append(.missing(expected: expectedIndex))
                e += 1
            case .unexpected:
                steps.append(.unexpected(actual: actualIndex))
                a += 1
            case .cover:
                coverStart = coverStart ?? actualIndex
                a += 1
            case .pass:
                steps.append(.ellipsis(expected: expectedIndex, covers: (coverStart ?? actualIndex)..<actualIndex))
                coverStart = nil
                e += 1
            }
        }
        return steps
    }

    /// What a `~ `, `+ ` or `- ` line changes: the sign and path before the first `: `.
    static func pathKey(_ line: String) -> Substring? {
        guard line.hasPrefix("~ ") || line.hasPrefix("+ ") || line.hasPrefix("- "),
            let colon = line.firstRange(of: ": ")
        else { return nil }
        return line[..<colon.lowerBound]
    }
}
