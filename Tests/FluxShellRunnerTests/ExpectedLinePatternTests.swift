import Testing

@testable import FluxShellRunner
@testable import FluxShellSystem
@testable import FluxShellValues

/// Expected diff lines with `*` where a value stands: which printed lines they stand for, which
/// lines are no patterns at all, and the located errors of a `*` where no value can stand.
struct ExpectedLinePatternTests {
    private func pattern(_ line: String) throws -> ExpectedLinePattern {
        try #require(try ExpectedLinePattern.parse(line))
    }

    @Test func aWholeOldOrNewValue() throws {
        let new = try pattern("~ todos[0].createdAt: null -> *")
        #expect(new.matches(#"~ todos[0].createdAt: null -> "2026-11-22T10:00:00Z""#))
        #expect(new.matches(#"~ todos[0].createdAt: null -> {"a":[1," -> "]}"#))
        #expect(!new.matches(#"~ todos[0].createdAt: "x" -> "y""#), "the old value is pinned")
        #expect(!new.matches(#"~ todos[1].createdAt: null -> "y""#), "another path")
        #expect(!new.matches(#"+ todos[0].createdAt: "y""#), "another sign")
        let both = try pattern("~ seed: * -> *")
        #expect(both.matches("~ seed: 1 -> 2"))
        let added = try pattern("+ todos[2]: *")
        #expect(added.matches(#"+ todos[2]: {"id":3}"#))
        #expect(try pattern("- todos[0]: *").matches("- todos[0]: 7"))
    }

    @Test func insideAValueAtAnyDepth() throws {
        let added = try pattern(#"+ todos[0]: {"id":1,"meta":{"createdAt":*,"tags":[*]}}"#)
        #expect(added.matches(#"+ todos[0]: {"id":1,"meta":{"createdAt":"2026-11-22T10:00:00Z","tags":["x"]}}"#))
        #expect(!added.matches(#"+ todos[0]: {"id":2,"meta":{"createdAt":"2026-11-22T10:00:00Z","tags":["x"]}}"#))
        #expect(!added.matches(#"+ todos[0]: {"id":1,"meta":{"createdAt":"x","tags":[]}}"#))
        // A path whose key holds `: ` and ` -> `.
        let keyed = try pattern(#"~ scores["a: b -> c"]: 1 -> *"#)
        #expect(keyed.matches(#"~ scores["a: b -> c"]: 1 -> 2"#))
    }

    @Test func anArgumentOfAFollowUpLine() throws {
        let loaded = try pattern("=> loaded page: 1 at: *")
        #expect(loaded.matches(#"=> loaded page: 1 at: "2026-11-22T10:00:00Z""#))
        #expect(loaded.matches("=> loaded page: 1 at: 12"))
        #expect(!loaded.matches(#"=> loaded page: 2 at: "x""#))
        #expect(!loaded.matches("=> loaded page: 1"))
        let json = try pattern(#"=> loaded {"page":1,"at":*}"#)
        #expect(json.matches(#"=> loaded {"page":1,"at":"x"}"#))
        #expect(!json.matches(#"=> loaded {"page":2,"at":"x"}"#))
    }

    /// Only a `*` where a value stands: in quotes, in a word, in a path, it is itself.
    @Test func aStarElsewhereIsNoPattern() throws {
        for line in [
            "~ count: 0 -> 1", #"~ title: "a" -> "*""#, #"+ todos[0]: {"title":"a*b"}"#,
            "~ todos[*].done: false -> true",
            "=> search query: a*", #"=> search query: "*""#, "(no changes)", "...",
        ] {
            #expect(try ExpectedLinePattern.parse(line) == nil, "\(line)")
        }
    }

    @Test func aStarWhereNoValueCanStandIsALocatedError() {
        func message(_ line: String) -> String? {
            do throws(ShellError) {
                _ = try ExpectedLinePattern.parse(line)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(
            message("~ todos[0].done: false -> 2*")
                == "invalid value at column 28 of an expected line with '*': unexpected text after the value")
        #expect(
            message(#"+ todos[0]: {*:1}"#)
                == "invalid value at column 14 of an expected line with '*': expected a quoted key")
        #expect(message("~ count: *") == "a '~' line needs 'OLD -> NEW' after '~ count: '")
        #expect(message("=> * page: 1") == "'*' at column 4 stands for a value, not an action's name")
        #expect(
            message(#"=> loaded {"at":*2}"#)
                == "invalid value at column 18 of an expected line with '*': expected ',' or '}' in object")
        // Indented in its file: the column counts the indentation.
        do throws(ShellError) {
            _ = try ExpectedLinePattern.parse("~ n: 1 -> **", column: 3)
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("invalid value at column 14 "))
        }
    }

    @Test func updateKeepsTheWildcardsWhoseValuesAreStillThere() throws {
        let line = try pattern(#"+ todos[0]: {"id":1,"title":"milk","createdAt":*}"#)
        #expect(
            line.keepingWildcards(in: #"+ todos[0]: {"id":1,"title":"eggs","createdAt":"2026-11-22T10:00:00Z"}"#)
                == #"+ todos[0]: {"id":1,"title":"eggs","createdAt":*}"#)
        #expect(try pattern("~ n: 1 -> *").keepingWildcards(in: "~ n: 2 -> 3") == "~ n: 2 -> *")
        #expect(try pattern(#"+ t: {"a":*}"#).keepingWildcards(in: "+ t: 5") == "+ t: 5")
    }
}
