import Testing

@testable import FluxShell

/// Expected diff lines with `...` (SPEC §7): which actual lines they match, what a failure names,
/// and what `--update` writes; held against a plain glob matcher over every short pair of blocks.
struct ExpectedDiffTests {
    static let added = #"+ todos[0]: {"id":1,"title":"x","done":false}"#
    static let nextID = "~ nextID: 1 -> 2"
    static let done = "~ todos[0].done: false -> true"
    static let fetched = "=> searchResponse page: 1"

    static let cases: [(expected: [String], actual: [String], matches: Bool)] = [
        // `...` at the start, in the middle, at the end.
        (["...", nextID], [added, nextID], true),
        ([added, "...", done], [added, nextID, done], true),
        ([added, "..."], [added, nextID, done], true),
        // Several, each matching zero or more lines.
        (["...", nextID, "...", done, "..."], [added, nextID, fetched, done], true),
        (["...", added, "...", nextID, "..."], [added, nextID], true),
        // Only `...`: anything, nothing included.
        (["..."], [added, nextID], true),
        (["..."], [], true),
        (["...", "..."], ["(no changes)"], true),
        // Pinned lines must all be found, in order, and nothing else outside a `...`.
        (["...", nextID], [nextID, added], false),
        ([added, "...", done], [done, nextID, added], false),
        (["...", "~ nextID: 1 -> 3"], [added, nextID], false),
        ([added, "..."], [nextID, added], false),
        (["...", nextID], [added, nextID, done], false),
        ([nextID, "...", nextID], [nextID], false),
    ]

    @Test(arguments: cases.indices)
    func ellipsisMatchesAnyNumberOfLines(_ index: Int) {
        let (expected, actual, matches) = Self.cases[index]
        let diff = ExpectedDiff(expected)
        #expect(diff.hasEllipsis)
        #expect((diff.compare(with: actual) == .matches) == matches, "\(expected) against \(actual)")
    }

    @Test func withoutEllipsisTheLinesMustBeEqual() {
        let diff = ExpectedDiff([Self.added, Self.nextID])
        #expect(!diff.hasEllipsis)
        #expect(diff.compare(with: [Self.added, Self.nextID]) == .matches)
        // NB: no alignment is made: the report stays row by row.
        #expect(diff.compare(with: [Self.nextID, Self.added]) == .differs(nil))
        #expect(diff.compare(with: [Self.added]) == .differs(nil))
        // `....` or `. . .` are not `...`.
        #expect(!ExpectedDiff(["....", ". . ."]).hasEllipsis)
    }

    @Test func aFailureNamesTheFirstPinnedLineNotFoundElseTheFirstLineNotExpected() throws {
        let missing = ExpectedDiff(["...", "~ nextID: 1 -> 3", "...", "~ todos[0].done: true -> false"])
        guard case .differs(let alignment?) = missing.compare(with: [Self.added, Self.nextID]) else {
            Issue.record("expected an alignment")
            return
        }
        #expect(alignment.mismatch == .notFound(expected: 1))
        let extra = ExpectedDiff([Self.added, "..."])
        guard case .differs(let extraAlignment?) = extra.compare(with: [Self.nextID, Self.added]) else {
            Issue.record("expected an alignment")
            return
        }
        #expect(extraAlignment.mismatch == .notExpected(actual: 0))
        #expect(
            extraAlignment.steps == [
                .unexpected(actual: 0), .matched(expected: 0, actual: 1), .ellipsis(expected: 1, covers: 2..<2),
            ])
    }

    @Test func updateKeepsEllipsesWhereTheyStillMatchAndReplacesLinesForTheSamePath() {
        // The first `...` still stands for the added todo; the changed nextID takes its pinned
        // line's place; the line pinned for a path that did not change is gone; the second `...`
        // stands for nothing now and stays.
        let expected = ["...", "~ nextID: 1 -> 5", "~ gone: 1 -> 2", "...", Self.done]
        let actual = [Self.added, Self.nextID, Self.done]
        let alignment = ExpectedDiff(expected).alignment(with: actual)
        #expect(
            alignment.steps == [
                .ellipsis(expected: 0, covers: 0..<1), .replaced(expected: 1, actual: 1), .missing(expected: 2),
                .ellipsis(expected: 3, covers: 2..<2), .matched(expected: 4, actual: 2),
            ])
        #expect(alignment.updated == [.kept(expected: 0), .written(actual: 1), .kept(expected: 3), .kept(expected: 4)])
        // Lines in a gap without `...` are written out; `...` lines only a lost line kept apart are one.
        let gaps = ExpectedDiff([Self.added, "...", "~ lost: 1 -> 2", "..."]).alignment(with: [Self.fetched, Self.added, Self.nextID])
        #expect(gaps.updated == [.written(actual: 0), .kept(expected: 0), .kept(expected: 1)])
    }

    /// Every expected block of up to 4 lines (three diff lines and `...`) against every actual
    /// block of up to 4 lines: the alignment holds exactly when a plain glob match does, and the
    /// block `--update` writes from it always matches.
    @Test func agreesWithAGlobMatchAndUpdatesToAMatchingBlock() {
        let lines = ["~ a: 1 -> 2", "~ a: 1 -> 3", "+ b: 1"]
        func blocks(of alphabet: [String], upTo length: Int) -> [[String]] {
            var all: [[String]] = [[]]
            var last: [[String]] = [[]]
            for _ in 0..<length {
                last = last.flatMap { block in alphabet.map { block + [$0] } }
                all += last
            }
            return all
        }
        let actuals = blocks(of: lines, upTo: 4)
        var compared = 0
        for expected in blocks(of: lines + ["..."], upTo: 4) {
            let diff = ExpectedDiff(expected)
            for actual in actuals {
                let alignment = diff.alignment(with: actual)
                if alignment.holds != Self.glob(expected[...], actual[...]) {
                    Issue.record("\(expected) against \(actual): alignment says \(alignment.holds)")
                }
                let updated = alignment.updated.map { line in
                    switch line {
                    case .kept(let index): expected[index]
                    case .written(let index): actual[index]
                    }
                }
                if ExpectedDiff(updated).alignment(with: actual).holds == false {
                    Issue.record("\(expected) against \(actual): update wrote \(updated), which does not match")
                }
                compared += 1
            }
        }
        #expect(compared == 341 * 121)
    }

    /// The plain recursive definition: `...` is any number of lines, other lines themselves.
    private static func glob(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            return (actual.startIndex...actual.endIndex).contains { glob(expected.dropFirst(), actual[$0...]) }
        }
        return actual.first == first && glob(expected.dropFirst(), actual.dropFirst())
    }

    @Test func onlyTheThreeDotsAreAnExpectedLineAndCommandsAreRefusedByTheirFirstByte() {
        #expect(ScriptRunner.isExpectedDiffLine("..."))
        #expect(ScriptRunner.isExpectedDiffLine("  ...\t"))
        #expect(!ScriptRunner.isExpectedDiffLine("...."))
        #expect(!ScriptRunner.isExpectedDiffLine(".. ."))
        #expect(!ScriptRunner.isExpectedDiffLine("... more"))
        #expect(!ScriptRunner.isExpectedDiffLine("dispatch ..."))
    }
}
