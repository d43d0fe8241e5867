import FluxShellFixtures
import FluxShellJSON
import FluxShellLanguage
import FluxShellRunner
import FluxShellSession
import FluxShellSystem
import FluxStores
import Testing

/// `find TEXT` and `find PATH ~ VALUE` (reference: "find"): the places found, in the state's
/// order, and every bad query refused with nothing changed.
struct FindTests {
    static func session() -> Transcript {
        let shell = Transcript(catalog: .builtIn)
        _ = shell.run(script: [
            "load todos", #"dispatch add title: "Buy milk""#, #"dispatch add title: "Call MOM""#,
            "dispatch add title: milkshake", "dispatch toggle id: 3",
        ])
        return shell
    }

    /// What `line` prints with `--format json`, as line 1.
    static func json(_ shell: Transcript, _ line: String) throws -> String {
        let command = try #require(try CommandParser.parse(Substring(line)).command)
        let result = try shell.session.execute(command)
        var output = OutputBuffer()
        Renderer(format: .json).write(result, command: command, line: 1, to: &output)
        return output.text
    }

    @Test func aTextIsFoundInKeysAndValuesInAnyCase() {
        let shell = Self.session()
        #expect(shell.run("find MILK") == ["todos[0].title: \"Buy milk\"", "todos[2].title: \"milkshake\""])
        #expect(shell.run("find mom") == ["todos[1].title: \"Call MOM\""])
        #expect(shell.run("find nextid") == ["nextID: 4"])
        #expect(
            shell.run("find done") == ["todos[0].done: false", "todos[1].done: false", "todos[2].done: true"])
        #expect(shell.run("find 3") == ["todos[2].id: 3"])
        #expect(shell.run("find true") == ["todos[2].done: true"])
        #expect(shell.run("find \"buy m\"") == ["todos[0].title: \"Buy milk\""])
        #expect(shell.run("find flour") == ["(nothing found)"])
    }

    @Test func aKeyThatHoldsTheTextListsItsWholeValueAndWhatIsUnderIt() {
        let shell = Self.session()
        #expect(
            shell.run("find todos").first
                == #"todos: [{"id":1,"title":"Buy milk","done":false},{"id":2,"title":"Call MOM","done":false},{"id":3,"title":"milkshake","done":true}]"#
        )
    }

    @Test func aValueIsFoundAtOrUnderAPath() {
        let shell = Self.session()
        #expect(
            shell.run(#"find todos ~ {"id":*,"title":*,"done":true}"#)
                == [#"todos[2]: {"id":3,"title":"milkshake","done":true}"#])
        #expect(shell.run("find todos ~ false") == ["todos[0].done: false", "todos[1].done: false"])
        #expect(shell.run("find todos[*].title ~ milkshake") == [#"todos[2].title: "milkshake""#])
        #expect(shell.run("find . ~ 4") == ["nextID: 4"])
        #expect(shell.run("find todos ~ 99") == ["(nothing found)"])
    }

    @Test func aDictionarysKeysAreWrittenAsDiffLinesWriteThem() {
        let shell = Transcript(catalog: .builtIn)
        _ = shell.run("load library")
        let found = shell.run("find a")
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { !$0.hasPrefix("error") })
    }

    @Test func itPrintsInJSON() throws {
        let shell = Self.session()
        #expect(
            try Self.json(shell, "find mom")
                == #"{"line":1,"command":"find","found":[{"path":"todos[1].title","value":"Call MOM"}]}"# + "\n")
        #expect(try Self.json(shell, "find flour") == #"{"line":1,"command":"find","found":[]}"# + "\n")
    }

    @Test(arguments: [
        ("find", "usage: find TEXT | find PATH ~ VALUE"),
        (#"find """#, "find takes a text that is not empty"),
        ("find buy milk", "find takes one text, found 2 words"),
        ("find todos ~ $nextID", "find compares with a value, not with $PATH"),
        ("find todos ~", "find PATH ~ takes one value after '~', found 0"),
        ("find todos ~ 1 2", "find PATH ~ takes one value after '~', found 2"),
        ("find nothere ~ 1", "no key 'nothere' in the state"),
    ])
    func aBadQueryIsRefusedAndChangesNothing(line: String, message: String) {
        let shell = Self.session()
        let before = shell.run("state")
        let output = shell.run(line)
        #expect(output.first?.contains(message) == true, "\(line): \(output)")
        #expect(shell.run("state") == before)
    }

    @Test func aTenMegabyteTextIsLookedForAndNotFound() {
        let shell = Self.session()
        let text = String(repeating: "m", count: 10 << 20)
        #expect(shell.run("find \(text)") == ["(nothing found)"])
    }

    @Test func theQueryPrintsBackAsTyped() throws {
        for line in [
            "find milk", #"find "buy milk""#, #"find todos ~ {"id":*,"done":true}"#, "find todos[*].done ~ false",
        ] {
            let command = try #require(try CommandParser.parse(Substring(line)).command)
            #expect(command.description == line)
        }
    }
}
