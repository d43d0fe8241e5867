import FluxShellSystem
import Testing

@testable import FluxShellJSON

/// `*` where a value stands: what it matches, what it leaves alone, and how it prints back.
struct ValuePatternTests {
    private func pattern(_ text: String) throws -> ValuePattern { try ValuePattern.parse(text[...]) }
    private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    @Test func aWildcardMatchesAnyValueWhereItStands() throws {
        let any = try pattern("*")
        #expect(any == .any)
        for text in ["null", "1", #""2026-11-22T10:00:00Z""#, "[1,2]", #"{"a":{}}"#] {
            #expect(any.matches(try json(text)), "\(text)")
        }
        let todo = try pattern(#"{"id":1,"createdAt":*}"#)
        #expect(todo.matches(try json(#"{"id":1,"createdAt":"2026-11-22T10:00:00Z"}"#)))
        #expect(todo.matches(try json(#"{"id":1,"createdAt":null}"#)))
        #expect(todo.matches(try json(#"{"createdAt":[1],"id":1.0}"#)), "compared as == compares values")
        // The rest must be as written: another id, a member missing or added, another shape.
        #expect(!todo.matches(try json(#"{"id":2,"createdAt":"x"}"#)))
        #expect(!todo.matches(try json(#"{"id":1}"#)))
        #expect(!todo.matches(try json(#"{"id":1,"createdAt":"x","done":false}"#)))
        #expect(!todo.matches(try json("[1]")))
        // At any depth, in arrays too.
        let nested = try pattern(#"[{"at":{"time":*,"zone":"UTC"}},*]"#)
        #expect(nested.matches(try json(#"[{"at":{"time":5,"zone":"UTC"}},{"x":1}]"#)))
        #expect(!nested.matches(try json(#"[{"at":{"time":5,"zone":"CET"}},1]"#)))
        #expect(!nested.matches(try json(#"[{"at":{"time":5,"zone":"UTC"}}]"#)), "an element that is not there")
    }

    @Test func aStarInQuotesIsAString() throws {
        let quoted = try pattern(#"{"title":"*","mark":"a*"}"#)
        #expect(quoted.wildcards.isEmpty)
        #expect(quoted.matches(try json(#"{"title":"*","mark":"a*"}"#)))
        #expect(!quoted.matches(try json(#"{"title":"milk","mark":"a*"}"#)))
        #expect(!ValuePattern.mayHoldWildcard(#"{"a":"*\"*"}"#))
        #expect(ValuePattern.mayHoldWildcard(#"{"a":"\\",b:*}"#))
    }

    @Test func aStarWhereNoValueStandsDoesNotParse() {
        for text in ["{*:1}", "2*", "*2", "[*1]", "**", #"{"a":*"b"}"#] {
            #expect(throws: JSONParseError.self, "\(text)") { try ValuePattern.parse(text[...]) }
        }
        // Plain JSON still refuses a `*`.
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[*]") }
    }

    @Test func itPrintsAsWrittenAndFillsFromWhatItMatches() throws {
        for text in ["*", "[1,*]", #"{"id":1,"at":{"time":*},"tags":[*,"x"]}"#, #"{"t":"*"}"#] {
            let parsed = try pattern(text)
            #expect(parsed.description == text)
            #expect(try pattern(parsed.description) == parsed)
        }
        let todo = try pattern(#"{"id":1,"createdAt":*}"#)
        // What the actual value has where the `*` stands, and nothing where it has no such place.
        #expect(todo.filled(from: try json(#"{"id":2,"createdAt":"x"}"#)) == (try json(#"{"id":1,"createdAt":"x"}"#)))
        #expect(todo.filled(from: try json("3")) == (try json(#"{"id":1,"createdAt":null}"#)))
        // `--update` keeps the `*`s whose places are still there.
        #expect(
            todo.keepingWildcards(in: try json(#"{"id":2,"createdAt":"x"}"#)).description == #"{"id":2,"createdAt":*}"#)
        #expect(todo.keepingWildcards(in: try json(#"{"id":2}"#)).description == #"{"id":2}"#)
    }

    /// A repeated key takes the last value, and the `*` of the value it replaces goes with it.
    @Test func aRepeatedKeyDropsTheWildcardOfTheValueItReplaces() throws {
        let replaced = try pattern(#"{"a":*,"a":1}"#)
        #expect(replaced.wildcards.isEmpty)
        #expect(!replaced.matches(try json(#"{"a":2}"#)))
        #expect(try pattern(#"{"a":1,"a":*}"#).matches(try json(#"{"a":2}"#)))
    }
}
