import FluxCore
import Foundation
import Testing

@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// Expected diff lines with `...` (“Scenarios” in the reference): which actual lines they match,
/// what a failure names, and what `--update` writes; held against a plain glob matcher over every
/// short pair of blocks.
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
        #expect(
            alignment.updated == [
                .kept(expected: 0), .replacing(expected: 1, actual: 1), .kept(expected: 3), .kept(expected: 4),
            ])
        // Lines in a gap without `...` are written out; `...` lines only a lost line kept apart are one.
        let gaps = ExpectedDiff([Self.added, "...", "~ lost: 1 -> 2", "..."]).alignment(with: [
            Self.fetched, Self.added, Self.nextID,
        ])
        #expect(gaps.updated == [.written(actual: 0), .kept(expected: 0), .kept(expected: 1)])
    }

    /// Every expected block of up to 4 lines (three diff lines, a line with `*` and `...`) against
    /// every actual block of up to 4 lines: the alignment holds exactly when a plain glob match
    /// does, and the block `--update` writes from it always matches.
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
        for expected in blocks(of: lines + ["...", "~ a: 1 -> *"], upTo: 4) {
            let diff = ExpectedDiff(expected)
            for actual in actuals {
                // NB: a largest table of 0 cells lays every block as a huge one is laid.
                for largestTable in [ExpectedDiff.largestTable, 0] {
                    let alignment = diff.alignment(with: actual, largestTable: largestTable)
                    if alignment.holds != Self.glob(expected[...], actual[...]) {
                        Issue.record(
                            "\(expected) against \(actual), \(largestTable) cells: alignment says \(alignment.holds)")
                    }
                    Self.checkSteps(of: alignment, expected, actual)
                    let updated = Self.lines(of: alignment.updated, diff, actual)
                    if ExpectedDiff(updated).alignment(with: actual).holds == false {
                        Issue.record(
                            "\(expected) against \(actual), \(largestTable) cells: update wrote \(updated), which does not match"
                        )
                    }
                }
                compared += 1
            }
        }
        #expect(compared == 781 * 121)
    }

    static func lines(of updated: [ExpectedDiff.UpdatedLine], _ expected: ExpectedDiff, _ actual: [String]) -> [String]
    {
        updated.map { expected.text(of: $0, actual: actual) }
    }

    /// Every expected and actual line in exactly one step, both in order; a line matched or
    /// replaced is equal or for the same path.
    static func checkSteps(
        of alignment: ExpectedDiff.Alignment, _ expected: [String], _ actual: [String],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let diff = ExpectedDiff(expected)
        var nextExpected = 0
        var nextActual = 0
        for step in alignment.steps {
            var e: Int?
            var a: Range<Int> = nextActual..<nextActual
            switch step {
            case .matched(let expectedIndex, let actualIndex):
                e = expectedIndex
                a = actualIndex..<(actualIndex + 1)
                if !diff.line(expectedIndex, matches: actual[actualIndex]) {
                    Issue.record("\(step) matches different lines", sourceLocation: sourceLocation)
                }
            case .replaced(let expectedIndex, let actualIndex):
                e = expectedIndex
                a = actualIndex..<(actualIndex + 1)
                if expected[expectedIndex].prefix(while: { $0 != ":" })
                    != actual[actualIndex].prefix(while: { $0 != ":" })
                {
                    Issue.record("\(step) replaces a line for another path", sourceLocation: sourceLocation)
                }
            case .missing(let expectedIndex): e = expectedIndex
            case .unexpected(let actualIndex): a = actualIndex..<(actualIndex + 1)
            case .ellipsis(let expectedIndex, let covers):
                e = expectedIndex
                a = covers
                if expected[expectedIndex] != "..." {
                    Issue.record("\(step) is not a `...`", sourceLocation: sourceLocation)
                }
            }
            if let e {
                if e != nextExpected {
                    Issue.record("\(step): expected line \(nextExpected) next", sourceLocation: sourceLocation)
                }
                nextExpected = e + 1
            }
            if a.lowerBound != nextActual {
                Issue.record("\(step): actual line \(nextActual) next", sourceLocation: sourceLocation)
            }
            nextActual = a.upperBound
        }
        if nextExpected != expected.count || nextActual != actual.count {
            Issue.record("steps end at \(nextExpected), \(nextActual)", sourceLocation: sourceLocation)
        }
    }

    /// Found in review: the table grew with expected lines × actual lines (5,000 by 5,000 took
    /// 20 s in a debug build). A block this large is laid in linear time, with the same verdict.
    /// The actual lines repeat, so a pinned line's first occurrence is not always its place: two
    /// pinned lines with no `...` between must be found next to each other.
    @Test func aHugeBlockGetsItsVerdict() {
        let flag = "~ flag: false -> true"
        let actual = (0..<20_000).map { $0 % 2 == 0 ? flag : "~ items[\($0)]: 0 -> 1" }
        // `...`, then `flag` and `items[4j + 3]` next to each other, then `...`, and so on.
        var expected = ["..."]
        for j in 0..<5_000 { expected += [flag, actual[4 * j + 3], "..."] }

        let passing = ExpectedDiff(expected).alignment(with: actual)
        #expect(passing.holds)
        Self.checkSteps(of: passing, expected, actual)
        #expect(passing.updated.count == expected.count)
        // The last pair pinned at the end, with no `...` after it.
        #expect(ExpectedDiff(Array(expected.dropLast())).alignment(with: actual).holds)

        var changed = expected
        let line = 1 + 3 * 2_500 + 1
        #expect(changed[line] == "~ items[10003]: 0 -> 1")
        changed[line] = "~ items[10003]: 0 -> 2"
        let failing = ExpectedDiff(changed).alignment(with: actual)
        #expect(failing.mismatch == .notFound(expected: line))
        Self.checkSteps(of: failing, changed, actual)
        #expect(
            ExpectedDiff(Self.lines(of: failing.updated, ExpectedDiff(changed), actual)).alignment(with: actual).holds)

        // Lines with `*` (a pattern, equal to no line) get the same verdicts.
        let starred = expected.map { $0 == flag ? "~ flag: * -> true" : $0 }
        let starredAlignment = ExpectedDiff(starred).alignment(with: actual)
        #expect(starredAlignment.holds)
        Self.checkSteps(of: starredAlignment, starred, actual)
        var starredValue = expected
        starredValue[line] = "~ items[10003]: 0 -> *"
        #expect(ExpectedDiff(starredValue).alignment(with: actual).holds)
        starredValue[line] = "~ items[10003]: 2 -> *"
        let starredFailing = ExpectedDiff(starredValue).alignment(with: actual)
        #expect(starredFailing.mismatch == .notFound(expected: line))
        #expect(
            ExpectedDiff(Self.lines(of: starredFailing.updated, ExpectedDiff(starredValue), actual)).alignment(
                with: actual
            ).holds)

        // The pairs out of order; the last pair not at the end.
        var swapped = expected
        swapped.swapAt(1 + 3 * 100 + 1, 1 + 3 * 101 + 1)
        #expect(!ExpectedDiff(swapped).alignment(with: actual).holds)
        #expect(!ExpectedDiff(Array(expected.dropLast(4))).alignment(with: actual).holds)
        #expect(ExpectedDiff(Array(expected.dropLast(3))).alignment(with: actual).holds)

        // Every pair gone: no search may read the whole block again for each of them.
        var gone = ["..."]
        for j in 0..<5_000 { gone += [flag, "~ gone[\(j)]: 0 -> 1", "..."] }
        let none = ExpectedDiff(gone).alignment(with: actual)
        #expect(none.mismatch == .notFound(expected: 2))
        Self.checkSteps(of: none, gone, actual)
        #expect(ExpectedDiff(Self.lines(of: none.updated, ExpectedDiff(gone), actual)).alignment(with: actual).holds)
    }

    struct Grid: State { var cells = [Int](repeating: 0, count: 20_000) }
    enum GridAction: Action { case fill(Int) }
    struct GridMutation: Mutation, Sendable {
        func mutate(action: GridAction, state: inout Grid) {
            switch action {
            case .fill(let value): state.cells = state.cells.map { _ in value }
            }
        }
    }

    /// The same through a scenario: the check, its failure report and `--update`.
    @Test func aScenarioWithAHugeBlockPassesFailsAndUpdates() throws {
        let catalog = StoreCatalog([StoreDefinition("grid", state: Grid(), mutation: GridMutation())])
        func scenario(changing changed: Int? = nil) -> String {
            var text = "load grid\ndispatch fill 1\n...\n"
            for cell in stride(from: 0, to: 20_000, by: 2) {
                text += "~ cells[\(cell)]: 0 -> \(cell == changed ? 2 : 1)\n...\n"
            }
            return text
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).scenario")
            .path
        try scenario().write(toFile: path, atomically: true, encoding: .utf8)
        let passed = ScenarioRunner(catalog: catalog).run(path)
        #expect(passed.passed, "\(passed.report.prefix(5).joined(separator: "\n"))")

        try scenario(changing: 778).write(toFile: path, atomically: true, encoding: .utf8)
        let failed = ScenarioRunner(catalog: catalog).run(path)
        #expect(!failed.passed)
        #expect(
            failed.report.first
                == "\(path):2: error: the diff of 'dispatch fill 1' differs from the expected lines at cells[778]: 1 where the expected line has 2"
        )

        var options = ScenarioRunner.Options()
        options.update = true
        let updated = ScenarioRunner(catalog: catalog, options: options).run(path)
        #expect(updated.wasUpdated)
        #expect(updated.passed, "\(updated.report.prefix(5).joined(separator: "\n"))")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == scenario())
    }

    /// The plain recursive definition: `...` is any number of lines, other lines themselves, and
    /// the one line with `*`, `~ a: 1 -> *`, any line `~ a: 1 -> …`.
    private static func glob(_ expected: ArraySlice<String>, _ actual: ArraySlice<String>) -> Bool {
        guard let first = expected.first else { return actual.isEmpty }
        if first == "..." {
            return (actual.startIndex...actual.endIndex).contains { glob(expected.dropFirst(), actual[$0...]) }
        }
        guard let line = actual.first else { return false }
        let matches = first == "~ a: 1 -> *" ? line.hasPrefix("~ a: 1 -> ") : line == first
        return matches && glob(expected.dropFirst(), actual.dropFirst())
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
