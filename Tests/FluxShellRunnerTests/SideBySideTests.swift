import Testing

@testable import FluxShellRunner
@testable import FluxShellSystem
@testable import FluxShellValues

/// The expected and actual lines of a failed block, side by side: a differing line too wide for
/// its column is shown whole, so the value that differs is never cut off.
struct SideBySideTests {
    @Test func shortLinesStayInColumns() {
        #expect(
            SideBySide.render(expected: ["~ count: 0 -> 3"], actual: ["~ count: 0 -> 2"]) == [
                "    expected        | actual",
                "  ≠ ~ count: 0 -> 3 | ~ count: 0 -> 2",
            ])
    }

    /// Lines are paired by their sign and path, not by their place: an expected `~ nextID` stands
    /// beside the actual `~ nextID`, and the actual line nothing expected stands alone.
    @Test func linesArePairedByPath() {
        let todo = #"+ todos[1]: {"id":2,"title":"b","done":false}"#
        #expect(
            SideBySide.render(expected: ["~ nextID: 2 -> 4"], actual: [todo, "~ nextID: 2 -> 3"]) == [
                "    expected         | actual",
                "  ≠                  | " + todo,
                "  ≠ ~ nextID: 2 -> 4 | ~ nextID: 2 -> 3",
            ])
        #expect(
            SideBySide.render(expected: ["- todos[0]: 1", "~ count: 1 -> 2"], actual: ["~ count: 1 -> 3"]) == [
                "    expected        | actual",
                "  ≠ - todos[0]: 1   | ",
                "  ≠ ~ count: 1 -> 2 | ~ count: 1 -> 3",
            ])
        #expect(
            SideBySide.pairs(expected: ["(no changes)"], actual: ["(no changes)"]).map { [$0.0, $0.1] } == [[0, 0]])
        // A block of 20,000 lines is paired without a table of their product (the edit script is
        // bounded): every line has its row.
        let many = (0..<20_000).map { "+ todos[\($0)]: \($0)" }
        let shifted = (0..<20_000).map { "+ todos[\($0 + 1)]: \($0)" }
        let rows = SideBySide.pairs(expected: many, actual: shifted)
        #expect(rows.compactMap(\.expected).count == 20_000 && rows.compactMap(\.actual).count == 20_000)
    }

    @Test func aWideDifferingLineIsShownWholeAboveTheActualOne() {
        let title = String(repeating: "a", count: 60)
        let expected = #"+ todos[0]: {"id":1,"title":"\#(title)","createdAt":"2026-11-22T10:00:00.250Z"}"#
        let actual = #"+ todos[0]: {"id":1,"title":"\#(title)","createdAt":"2026-11-22T10:00:05.250Z"}"#
        let lines = SideBySide.render(expected: [expected, "~ nextID: 1 -> 2"], actual: [actual, "~ nextID: 1 -> 2"])
        let difference = expected.count - #"0.250Z"}"#.count
        #expect(
            lines == [
                "    expected         | actual",
                "  ≠ expected: " + expected,
                "      actual: " + actual,
                String(repeating: " ", count: 14 + difference) + "^",
                "    ~ nextID: 1 -> 2 | ~ nextID: 1 -> 2",
            ])
        // A line nothing matched is shown whole too; a line that matched stays in its column.
        let alone = SideBySide.render([SideBySide.Row(expected: expected, actual: "", differs: true)])
        #expect(alone == ["    expected | actual", "  ≠ expected: " + expected])
        let matched = SideBySide.render([SideBySide.Row(expected: expected, actual: actual, differs: false)])
        #expect(matched[1].hasPrefix("    + todos[0]: {\"id\":1,\"title\":\"aaaa") && matched[1].contains("… | "))
    }

    /// No `^` under a `*`: it stands for whatever the actual line has there.
    @Test func noMarkUnderAStar() {
        let title = String(repeating: "a", count: 60)
        let expected = #"+ todos[0]: {"id":1,"title":"\#(title)","createdAt":*,"done":true}"#
        let actual = #"+ todos[0]: {"id":1,"title":"\#(title)","createdAt":"2026-11-22T10:00:05Z","done":false}"#
        #expect(SideBySide.render(expected: [expected], actual: [actual]).count == 3)
    }
}
