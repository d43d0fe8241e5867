import Testing

@testable import FluxShellJSON
@testable import FluxShellValues

/// When a difference says how to pin a value: a value or a member's name that looks like a date,
/// an id or a random number.
struct ReplayDifferenceTests {
    @Test(arguments: [
        ("createdAt", ["created", "at"]), ("nextID", ["next", "id"]), ("session_token", ["session", "token"]),
        ("valid", ["valid"]), ("runtime", ["runtime"]), ("URLString", ["urlstring"]), ("v2Id", ["v2", "id"]),
    ])
    func aNameSplitsIntoItsWords(_ name: String, _ words: [String]) {
        #expect(ReplayDifference.words(of: name) == words)
    }

    @Test func onlyAValueThatMayChangeFromRunToRunIsSaidHowToPin() throws {
        func difference(_ path: String, _ first: JSONValue, _ again: JSONValue) throws -> ReplayDifference {
            ReplayDifference(path: try ValuePath.parse(path[...]), first: first, again: again)
        }
        #expect(try difference("notes[0].createdAt", .int(1), .int(2)).mayChangeFromRunToRun)
        #expect(try difference("nextID", .int(2), .int(3)).mayChangeFromRunToRun)
        #expect(try difference("note", .string("2026-01-01T00:00:00Z"), .string("x")).mayChangeFromRunToRun)
        #expect(try difference("note", .string("00000000-0000-0000-0000-000000000001"), .null).mayChangeFromRunToRun)
        #expect(try difference("score", .double(0.123456789), .double(0.5)).mayChangeFromRunToRun)
        #expect(try difference("elapsed", .int(1_764_000_000), .int(1)).mayChangeFromRunToRun)
        #expect(try !difference("count", .int(1), .int(2)).mayChangeFromRunToRun)
        #expect(try !difference("valid", .bool(true), .bool(false)).mayChangeFromRunToRun)
        #expect(try !difference("idle", .string("yes"), .string("no")).mayChangeFromRunToRun)
    }
}
