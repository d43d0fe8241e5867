import Testing

@testable import FluxShellJSON
@testable import FluxShellLanguage
@testable import FluxShellSystem

struct CommandParserTests {
    private func command(_ line: String) throws -> Command? {
        try CommandParser.parse(line).command
    }

    private func error(_ line: String) -> ShellError? {
        do {
            _ = try CommandParser.parse(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func dispatchWithPositionalLabeledAndBareWordArguments() throws {
        #expect(
            try command("dispatch add 5")
                == .dispatch(.init(name: "add", arguments: [.init(label: nil, value: .int(5))])))
        #expect(
            try command(#"dispatch rename id: 2 title: "Buy milk""#)
                == .dispatch(
                    .init(
                        name: "rename",
                        arguments: [
                            .init(label: "id", value: .int(2)), .init(label: "title", value: .string("Buy milk")),
                        ])))
        #expect(
            try command("dispatch setFilter done")
                == .dispatch(.init(name: "setFilter", arguments: [.init(label: nil, value: .string("done"))])))
        #expect(
            try command(#"dispatch x id:2 tags: ["a", "b c"] meta: {"k": null} on: true"#)
                == .dispatch(
                    .init(
                        name: "x",
                        arguments: [
                            .init(label: "id", value: .int(2)),
                            .init(label: "tags", value: .array([.string("a"), .string("b c")])),
                            .init(label: "meta", value: .object(JSONObject([("k", .null)]))),
                            .init(label: "on", value: .bool(true)),
                        ])))
    }

    @Test func commentsBlankLinesAndExpectedFailures() throws {
        #expect(try CommandParser.parse("   ").command == nil)
        #expect(try CommandParser.parse("  # a comment").command == nil)
        #expect(
            try command("dispatch add 1 # add one")
                == .dispatch(.init(name: "add", arguments: [.init(label: nil, value: .int(1))])))
        #expect(
            try command(##"dispatch add "# not a comment""##)
                == .dispatch(.init(name: "add", arguments: [.init(label: nil, value: .string("# not a comment"))])))
        let failing = try CommandParser.parse("! dispatch nope")
        #expect(failing.expectsFailure)
        #expect(failing.command == .dispatch(.init(name: "nope")))
    }

    /// Found in review: a column was counted for every quoted token and a word rescanned at every
    /// `:`, so these lines of under 1 MiB took minutes. Each is one pass now.
    @Test func longLinesOfManyTokensOrColonsAreLexedInOnePass() throws {
        let quoted = "dispatch add " + String(repeating: #""a" "#, count: 200_000)
        #expect(try CommandLexer.tokens(in: quoted[...]).count == 200_002)
        let colons = String(repeating: "a", count: 400_000) + String(repeating: "!:", count: 200_000)
        #expect(try CommandLexer.tokens(in: colons[...]).count == 1)
    }

    @Test func quotedStringsUseJSONEscapes() throws {
        #expect(
            try command(#"dispatch add "a\"b\\c\n\u00e9✓""#)
                == .dispatch(.init(name: "add", arguments: [.init(label: nil, value: .string("a\"b\\c\né✓"))])))
    }

    @Test func everyCommandWord() throws {
        #expect(try command("help") == .help(topic: nil))
        #expect(try command("help dispatch") == .help(topic: "dispatch"))
        #expect(try command("stores") == .stores)
        #expect(try command("load todos as list") == .load(name: "todos", alias: "list"))
        #expect(try command("use list") == .use(alias: "list"))
        #expect(try command("actions") == .actions())
        #expect(try command("state") == .state(path: .root))
        #expect(
            try command("state todos[0].title") == .state(path: ValuePath([.key("todos"), .index(0), .key("title")])))
        #expect(try command("history") == .history)
        #expect(try command("undo") == .undo(steps: 1))
        #expect(try command("redo 3") == .redo(steps: 3))
        #expect(try command("reset") == .reset)
        #expect(
            try command("expect count >= 2")
                == .expect(.init(path: ValuePath([.key("count")]), op: .greaterOrEqual, value: .literal(.int(2)))))
        #expect(
            try command("expect todos[*].id < $nextID")
                == .expect(
                    .init(
                        path: ValuePath([.key("todos"), .every, .key("id")]), op: .less,
                        value: .path(ValuePath([.key("nextID")])))))
        #expect(
            try command(#"expect title == "$x""#)
                == .expect(.init(path: ValuePath([.key("title")]), op: .equal, value: .literal(.string("$x")))))
        #expect(
            try command("dispatch rename id: $todos[0].id title: x")
                == .dispatchReading(
                    ActionInvocation(
                        name: "rename",
                        arguments: [.init(label: "id", value: .null), .init(label: "title", value: .string("x"))]),
                    paths: [ArgumentPath(index: 0, path: ValuePath([.key("todos"), .index(0), .key("id")]))]))
        // `$PATH` anywhere inside a JSON argument: a `null` in its place, and where it goes.
        #expect(
            try command(#"dispatch add [$a, 3] x: {"id": $todos[0].id, "t": "$x", "in": [1, {"k":$b["c d"]}]}"#)
                == .dispatchReading(
                    ActionInvocation(
                        name: "add",
                        arguments: [
                            .init(label: nil, value: .array([.null, .int(3)])),
                            .init(
                                label: "x",
                                value: .object(
                                    JSONObject([
                                        ("id", .null), ("t", .string("$x")),
                                        ("in", .array([.int(1), .object(JSONObject([("k", .null)]))])),
                                    ]))),
                        ]),
                    paths: [
                        ArgumentPath(index: 0, within: ValuePath([.index(0)]), path: ValuePath([.key("a")])),
                        ArgumentPath(
                            index: 1, within: ValuePath([.key("id")]),
                            path: ValuePath([.key("todos"), .index(0), .key("id")])),
                        ArgumentPath(
                            index: 1, within: ValuePath([.key("in"), .index(1), .key("k")]),
                            path: ValuePath([.key("b"), .key("c d")])),
                    ]))
        // A key given twice keeps its last value, `$PATH` or not.
        #expect(
            try command(#"dispatch add {"a":$x,"a":1}"#)
                == .dispatch(
                    ActionInvocation(
                        name: "add", arguments: [.init(label: nil, value: .object(JSONObject([("a", .int(1))])))])
                ))
        #expect(
            try command(#"dispatch add {"a":1,"a":[$x[id: "]"]]}"#)
                == .dispatchReading(
                    ActionInvocation(
                        name: "add",
                        arguments: [.init(label: nil, value: .object(JSONObject([("a", .array([.null]))])))]
                    ),
                    paths: [
                        ArgumentPath(
                            index: 0, within: ValuePath([.key("a"), .index(0)]),
                            path: ValuePath([.key("x"), .id(.string("]"))]))
                    ]))
        #expect(try command("why todos[0].done") == .why(path: ValuePath([.key("todos"), .index(0), .key("done")])))
        #expect(try command("watch a b[*]") == .watch([ValuePath([.key("a")]), ValuePath([.key("b"), .every])]))
        #expect(try command("unwatch") == .unwatch([]))
        #expect(try command("save out.scenario") == .save(file: "out.scenario"))
        #expect(try command("exhaustive on") == .exhaustive(true))
        #expect(try command("quit") == .quit)
        #expect(try command("exit") == .quit)
    }

    @Test func unknownCommandSuggestsTheClosestWord() {
        let failure = error("dispach increment")
        #expect(failure?.message == "unknown command 'dispach'")
        #expect(failure?.hint == "did you mean 'dispatch'?")
    }

    @Test(arguments: [
        (#"dispatch add "unterminated"#, "unterminated string starting at column 14"),
        ("dispatch add [1, 2", "unterminated '[' starting at column 14"),
        ("dispatch add {\"a\": 1", "unterminated '{' starting at column 14"),
        ("dispatch add title:", "argument 'title:' has no value"),
        ("dispatch", "usage: dispatch ACTION [ARG...]"),
        (#"dispatch {"x":1}"#, #"expected an action name, found {"x":1}"#),
        (#"load {"a":1}"#, #"expected a store name, found {"a":1}"#),
        (#"use {"a":1}"#, #"expected an alias, found {"a":1}"#),
        ("undo zero", "undo takes a positive number of steps, not 'zero'"),
        ("undo 0", "undo takes a positive number of steps, not '0'"),
        ("expect count === 1", "unknown operator '==='"),
        ("expect count == Buy milk", "expect takes one value after the operator, found 2 words"),
        ("load", "usage: load NAME [as ALIAS] [with STATE]"),
        (
            "dispatch add 123456789012345678901234567890e999",
            "number 123456789012345678901234567890e999 is out of range"
        ),
        ("state todos[", "unterminated '[' starting at column 7"),
        ("! ", "'!' must be followed by a command"),
        // `$PATH` inside JSON: the top-level form's errors, with the column of the `$`.
        (
            #"dispatch add [1, $]"#,
            "'$' at column 18 must be followed by a path of the state"
        ),
        (
            #"dispatch add {"id": $ }"#,
            "'$' at column 21 must be followed by a path of the state"
        ),
        (
            #"dispatch add {"id": $todos[x]}"#,
            "invalid path 'todos[x]' at column 21: expected an index, * or a quoted key inside [ ]"
        ),
        (#"dispatch add [$a b]"#, "invalid JSON [$a b]: expected ',' or ']' in array"),
        (
            #"expect count == [$a]"#,
            "invalid JSON [$a]: a value read from the state ($PATH) works inside JSON in dispatch arguments only"
        ),
    ])
    func badInputIsAClearError(line: String, message: String) {
        #expect(error(line)?.message == message)
    }

    @Test func deeplyNestedJSONIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(error("dispatch add \(deep)")?.message.contains("nesting deeper than 512 levels") == true)
        let unbalanced = String(repeating: "[", count: 100_000)
        #expect(error("dispatch add \(unbalanced)")?.message.hasPrefix("unterminated '['") == true)
    }

    @Test func aOneMebibyteLineIsHandled() throws {
        let long = String(repeating: "x", count: 1 << 20)
        #expect(
            try command("dispatch add \(long)")
                == .dispatch(.init(name: "add", arguments: [.init(label: nil, value: .string(long))])))
        let words = String(repeating: "a ", count: 1 << 19)
        #expect(
            try command("dispatch add \(words)").map { if case .dispatch(let i) = $0 { i.arguments.count } else { 0 } }
                == 1 << 19)
    }

    @Test func invocationPrintsBackInCommandSyntax() throws {
        let line = #"dispatch rename id: 2 title: "Buy milk" tags: ["x"] flag: true word: done"#
        guard case .dispatch(let invocation)? = try command(line) else {
            Issue.record("not a dispatch")
            return
        }
        #expect(invocation.description == #"rename id: 2 title: "Buy milk" tags: ["x"] flag: true word: done"#)
        // Parse → print → parse is the identity.
        #expect(try command("dispatch " + invocation.description) == .dispatch(invocation))
    }

    /// `*` where a value stands: a pattern in `expect ==`, an error in `dispatch` and with other
    /// operators; `"*"` and `[*]` in paths keep their meanings.
    @Test func aStarMatchesInExpectAndIsRefusedInDispatch() throws {
        #expect(
            try command("expect todos[*].at == *")
                == .expect(.init(path: try ValuePath.parse("todos[*].at"), op: .equal, value: .pattern(.any))))
        #expect(
            try command(#"expect todos[0] == {"id":1,"at":*}"#)
                == .expect(
                    .init(
                        path: try ValuePath.parse("todos[0]"), op: .equal,
                        value: .pattern(
                            ValuePattern(
                                value: .object(JSONObject([("id", .int(1)), ("at", .null)])), wildcards: [[.key("at")]])
                        ))))
        #expect(
            try command(#"expect title == "*""#)
                == .expect(.init(path: ValuePath([.key("title")]), op: .equal, value: .literal(.string("*")))))
        #expect(
            try command(#"dispatch add "*""#)
                == .dispatch(ActionInvocation(name: "add", arguments: [.init(label: nil, value: .string("*"))])))
        #expect(
            try command("dispatch add a*")
                == .dispatch(ActionInvocation(name: "add", arguments: [.init(label: nil, value: .string("a*"))])))
        func error(_ line: String) -> String? {
            do throws(ShellError) {
                _ = try CommandParser.parse(line)
                return nil
            } catch {
                return error.message
            }
        }
        let refused = "only matches a value, in an expected diff line or expect: it cannot be dispatched"
        #expect(error("dispatch add title: *") == "'*' at column 21 " + refused)
        #expect(error("dispatch add *") == "'*' at column 14 " + refused)
        #expect(error(#"dispatch add {"a":[1,*]}"#) == "'*' at column 22 " + refused)
        #expect(error(#"dispatch add {"a":$x,"b":*}"#) == "'*' at column 26 " + refused)
        #expect(
            error("expect count >= *") == "'*' at column 17 matches any value: only '==' compares with it, not '>='")
        #expect(
            error(#"expect todos contains {"id":*}"#)
                == "'*' at column 29 matches any value: only '==' compares with it, not 'contains'")
        #expect(error(#"expect todos == [*1]"#) == #"invalid JSON [*1]: expected ',' or ']' in array"#)
        #expect(
            error(#"expect todos == [*,$x]"#)?.hasSuffix(
                "a value read from the state ($PATH) works inside JSON in dispatch arguments only") == true)
    }

    /// An action written as Swift calls it is refused with the line the shell takes instead.
    @Test(arguments: [
        (#"dispatch add(title: "y")"#, #"dispatch add title: "y""#),
        (
            #"dispatch add(title: "a, b", tags: ["x", "y"], done: true)"#,
            #"dispatch add title: "a, b" tags: ["x", "y"] done: true"#
        ),
        ("dispatch clear()", "dispatch clear"),
        ("dispatch add(5)", "dispatch add 5"),
        // A `(` with a combining mark after it is one character with it: still no trap.
        ("dispatch add(\u{301}5)", "dispatch add \u{301}5"),
    ])
    func swiftCallSyntaxSaysTheLineToType(_ line: String, _ suggestion: String) {
        let error = error(line)
        #expect(
            error?.message.hasSuffix(
                "is Swift's call syntax: the shell takes an action's arguments after its name, separated by spaces")
                == true)
        #expect(error?.hint == "did you mean '\(suggestion)'?")
    }

    /// A path whose first key is bracketed goes on after its bracket as one word; a JSON literal
    /// followed by a space stays one.
    @Test func aBracketedFirstKeyStartsAPath() throws {
        #expect(try CommandLexer.tokens(in: #"state ["a-b"].c[0]"#).map(\.kind) == [.word, .word])
        #expect(try CommandLexer.tokens(in: #"state ["a-b"]["c"]"#).map(\.kind) == [.word, .word])
        #expect(try CommandLexer.tokens(in: #"dispatch add [1] .c"#).map(\.kind) == [.word, .word, .json, .word])
        #expect(try CommandLexer.tokens(in: #"dispatch add {"a":1}.c"#).map(\.kind) == [.word, .word, .json, .word])
    }
}

/// Each command's usage is written once, in `CommandHelp`: every word the parser takes has its
/// entry there (the parser's usage errors quote it), and a usage error says what `help` says.
struct CommandHelpTests {
    @Test func everyCommandWordHasItsHelp() {
        for word in CommandParser.attachedCommandWords {
            #expect(CommandHelp.entry(for: word) != nil, "no help for '\(word)'")
        }
    }

    @Test(arguments: ["sweep now", "skip", "read", "why", "seed", "undo 1 2", "quit now", "format yaml"])
    func aUsageErrorQuotesTheHelp(line: String) throws {
        let word = String(line.split(separator: " ")[0])
        do {
            _ = try CommandParser.parse(line)
            Issue.record("'\(line)' parsed")
        } catch {
            #expect(error.message == "usage: \(try #require(CommandHelp.entry(for: word)).usage)")
        }
    }
}
