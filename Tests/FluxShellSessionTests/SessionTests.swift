import FluxShellFixtures
import FluxStores
import Testing

@testable import FluxShellLanguage
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

struct SessionTests {
    @Test func counterDispatchPrintsDiffLines() {
        let shell = Transcript()
        shell.run("load counter")
        #expect(shell.run("dispatch increment") == ["~ count: 0 -> 1"])
        #expect(shell.run("dispatch add 5") == ["~ count: 1 -> 6"])
        #expect(shell.run("dispatch set 6") == ["(no changes)"])
        #expect(shell.run("state") == ["{", "  \"count\": 6", "}"])
        #expect(shell.run("state count") == ["6"])
        #expect(shell.session.prompt == "counter> ")
    }

    @Test func unknownActionNamesTheStoreAndSuggests() {
        let shell = Transcript()
        shell.run("load counter")
        #expect(
            shell.run("dispatch incremnt") == [
                "error: unknown action 'incremnt' for store 'counter' (did you mean 'increment'?)"
            ])
        shell.run("load todos")
        #expect(
            shell.run("dispatch toggel 1")
                == ["error: no loaded store has an action 'toggel' (tried 'counter', 'todos') (did you mean 'toggle'?)"]
        )
    }

    @Test func badArgumentsAreClearErrorsAndChangeNothing() {
        let shell = Transcript()
        shell.run("load counter")
        #expect(
            shell.run("dispatch add x") == [
                #"error: argument 1 of 'add': expected a whole number, found "x" (usage: dispatch add 1)"#
            ])
        #expect(shell.run("dispatch add") == ["error: 'add' needs its argument 1 (Int) (usage: dispatch add 1)"])
        #expect(shell.run("dispatch add 1 2") == ["error: 'add' takes 1 argument, got 2 (usage: dispatch add 1)"])
        #expect(
            shell.run("dispatch add 99999999999999999999")
                == [
                    "error: argument 1 of 'add': number 99999999999999999999 is out of range for Int (-9223372036854775808...9223372036854775807) (usage: dispatch add 1)"
                ])
        #expect(shell.run("state count") == ["0"])
        #expect(shell.run("history") == ["(no actions dispatched yet)"])
    }

    @Test func todosUseLabelsPositionsAndEnumValues() {
        let shell = Transcript()
        shell.run("load todos")
        #expect(
            shell.run(#"dispatch add title: "Buy milk""#)
                == [#"+ todos[0]: {"id":1,"title":"Buy milk","done":false}"#, "~ nextID: 1 -> 2"])
        #expect(
            shell.run("dispatch add Walk") == [
                #"+ todos[1]: {"id":2,"title":"Walk","done":false}"#, "~ nextID: 2 -> 3",
            ])
        #expect(shell.run("dispatch toggle id: 1") == ["~ todos[0].done: false -> true"])
        #expect(
            shell.run(#"dispatch rename 2 title: "Walk the dog""#) == [#"~ todos[1].title: "Walk" -> "Walk the dog""#])
        #expect(shell.run("dispatch setFilter done") == [#"~ filter: "all" -> "done""#])
        #expect(
            shell.run("dispatch setFilter later")
                == [
                    "error: argument 1 of 'setFilter': not one of its values: all, active, done (usage: dispatch setFilter all)"
                ])
        #expect(
            shell.run("dispatch setFilter actve")
                == [
                    "error: argument 1 of 'setFilter': not one of its values: all, active, done (did you mean 'active'?)"
                ])
        #expect(shell.run("dispatch toggle id: 7") == ["error: no todo has id 7 (ids: 1, 2)"])
        #expect(shell.run("dispatch clearDone") == [#"- todos[0]: {"id":1,"title":"Buy milk","done":true}"#])
        #expect(shell.run("expect todos.count == 1") == [])
        #expect(shell.run("expect todos[0].title contains dog") == [])
        #expect(
            shell.run("expect todos[0].title == Walk") == [
                #"error: expectation failed: todos[0].title == "Walk" (actual: "Walk the dog")"#
            ])
    }

    /// A failed `==` between two arrays or objects shows what differs as diff lines, from the
    /// expected value to the actual one, instead of both values whole; scalars keep `(actual: …)`.
    @Test func aFailedEqualityOfWholeValuesShowsTheDifferencesAsDiffLines() {
        let shell = Transcript()
        shell.run("load todos")
        shell.run("dispatch add milk")
        #expect(
            shell.run(#"expect . == {"todos":[],"nextID":1,"filter":"all"}"#) == [
                #"error: expectation failed: . == {"todos":[],"nextID":1,"filter":"all"}: 2 differences, from the expected value to the actual one:"#,
                #"    + todos[0]: {"id":1,"title":"milk","done":false}"#,
                "    ~ nextID: 1 -> 2",
            ])
        #expect(
            shell.run(#"expect todos[0] == {"id":1,"title":"milk","done":true}"#) == [
                #"error: expectation failed: todos[0] == {"id":1,"title":"milk","done":true}: 1 difference, from the expected value to the actual one:"#,
                "    ~ todos[0].done: true -> false",
            ])
        #expect(shell.run("expect nextID == 3") == ["error: expectation failed: nextID == 3 (actual: 2)"])
        for index in 2...60 { shell.run("dispatch add t\(index)") }
        let many = shell.run(#"expect todos == []"#)
        #expect(many.count == 1 + ExpectationCheck.maximumDifferences + 1)
        #expect(many.last == "    (20 more)")
    }

    @Test func actionsListLabelsTypesAndValues() {
        let shell = Transcript()
        shell.run("load todos")
        #expect(
            shell.run("actions") == [
                "add(title: String)", "toggle(id: Int)", "rename(id: Int, title: String)", "remove(id: Int)",
                "setFilter(Filter)    all | active | done", "clearDone",
            ])
    }

    @Test func undoRedoResetAndHistory() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch increment")
        shell.run("dispatch add 10")
        #expect(shell.run("undo") == ["~ count: 11 -> 1"])
        #expect(shell.run("redo") == ["~ count: 1 -> 11"])
        #expect(shell.run("undo 2") == ["~ count: 11 -> 0"])
        #expect(shell.run("undo") == ["error: nothing to undo"])
        #expect(shell.run("redo 3") == ["error: only 2 steps can be redone"])
        #expect(shell.run("redo 2") == ["~ count: 0 -> 11"])
        #expect(shell.run("reset") == ["~ count: 11 -> 0"])
        #expect(shell.run("undo") == ["~ count: 0 -> 11"])
        #expect(shell.run("history") == ["  1  increment", "  2  add 10", "  3  reset   (undone)"])
        // A new step replaces the undone one; numbers stay those `why` shows, and the gap says why.
        shell.run("dispatch increment")
        #expect(
            shell.run("history") == [
                "  1  increment", "  2  add 10", "     (step 3 was undone, then replaced)", "  4  increment",
            ])
        shell.run("undo 2")
        shell.run("dispatch set 3")
        #expect(
            shell.run("history") == ["  1  increment", "     (steps 2-4 were undone, then replaced)", "  5  set 3"])
    }

    /// Each store keeps its own states along the history: undoing past a store's loading brings
    /// it back to its initial state, and redoing brings its changes back.
    @Test func undoPastALoadRestoresThatStoresInitialState() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch increment")
        shell.run("load todos")
        #expect(
            shell.run("dispatch add milk") == [
                "+ todos.todos[0]: {\"id\":1,\"title\":\"milk\",\"done\":false}", "~ todos.nextID: 1 -> 2",
            ])
        #expect(
            shell.run("undo 2") == [
                "~ counter.count: 1 -> 0", "- todos.todos[0]: {\"id\":1,\"title\":\"milk\",\"done\":false}",
                "~ todos.nextID: 2 -> 1",
            ])
        #expect(shell.run("redo") == ["~ counter.count: 0 -> 1"])
        #expect(
            shell.run("redo") == [
                "+ todos.todos[0]: {\"id\":1,\"title\":\"milk\",\"done\":false}", "~ todos.nextID: 1 -> 2",
            ])
    }

    /// A bounded history forgets its oldest steps in batches; what it keeps still undoes exactly.
    @Test func boundedHistoryUndoesWhatItKeeps() throws {
        let session = Session(catalog: .builtIn, historyLimit: 8)
        func run(_ line: String) throws -> [String] {
            guard let command = try CommandParser.parse(line).command else { return [] }
            return Renderer().lines(of: try session.execute(command), watching: session.watchFilter)
        }
        _ = try run("load counter")
        for _ in 0..<20 { _ = try run("dispatch increment") }
        #expect(session.history.entries.count >= 8 && session.history.entries.count < 8 + 2)
        let kept = session.history.undoable
        #expect(try run("undo \(kept)") == ["~ count: 20 -> \(20 - kept)"])
        #expect(throws: ShellError.self) { try run("undo") }
        #expect(try run("redo \(kept)") == ["~ count: \(20 - kept) -> 20"])
        _ = try run("undo 3")
        #expect(try run("dispatch add 100") == ["~ count: 17 -> 117"])
        #expect(session.history.redoable == 0)
        #expect(try run("undo") == ["~ count: 117 -> 17"])
    }

    @Test func severalStoresShareTheDispatcherAndPrefixPaths() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("load counter as other")
        #expect(shell.run("dispatch increment") == ["~ counter.count: 0 -> 1", "~ other.count: 0 -> 1"])
        #expect(shell.run("use other") == [])
        #expect(shell.run("state count") == ["1"])
        #expect(
            shell.run("load counter") == ["error: a store named 'counter' is already loaded (load counter as counter2)"]
        )
        #expect(shell.run("use nope") == ["error: no loaded store is called 'nope' (loaded: counter, other)"])
    }

    @Test func aStoreLoadedLaterReceivesARepeatedAction() {
        let shell = Transcript()
        shell.run("load counter")
        #expect(shell.run("dispatch increment") == ["~ count: 0 -> 1"])
        shell.run("load counter as second")
        #expect(shell.run("dispatch increment") == ["~ counter.count: 1 -> 2", "~ second.count: 0 -> 1"])
    }

    @Test func effectsAnnounceFollowUpActions() {
        let shell = Transcript()
        shell.run("load search")
        let output = shell.run("dispatch search query: prex")
        #expect(
            output == [
                #"~ query: "" -> "prex""#, "~ isFetching: false -> true",
                #"=> searchResponse page: 1 total: 1 repositories: [{"fullName":"marty-suzuki/Prex","stars":\#(stars("Prex"))}]"#,
                "~ isFetching: true -> false", "~ page: 0 -> 1",
                #"+ repositories[0]: {"fullName":"marty-suzuki/Prex","stars":\#(stars("Prex"))}"#,
            ])
        #expect(shell.run("dispatch nextPage") == ["error: there is no next page (page 1 was the last)"])
        #expect(
            shell.run("history") == [
                "  1  search query: prex",
                "     => searchResponse page: 1 total: 1 repositories: [{\"fullName\":\"marty-suzuki/Prex\",\"stars\":\(stars("Prex"))}]",
            ])
    }

    private func stars(_ name: String) -> Int {
        let shell = Transcript()
        shell.run("load search")
        shell.run("dispatch search query: \(name)")
        return Int(shell.run("state repositories[0].stars").first ?? "") ?? -1
    }

    @Test func withoutAStoreCommandsSayHowToStart() {
        let shell = Transcript()
        #expect(shell.run("dispatch increment") == ["error: no store is loaded (load one first, e.g. load counter)"])
        #expect(shell.run("state") == ["error: no store is loaded (load one first, e.g. load counter)"])
        #expect(shell.run("load countr") == ["error: unknown store 'countr' (did you mean 'counter'?)"])
        #expect(shell.session.prompt == "fluxsh> ")
    }

    @Test func expectOperators() {
        let shell = Transcript()
        shell.run("load todos")
        shell.run("dispatch add a")
        for (line, passes) in [
            ("expect nextID == 2", true), ("expect nextID != 2", false), ("expect nextID < 3", true),
            ("expect nextID <= 1", false), ("expect nextID > 1", true), ("expect nextID >= 3", false),
            ("expect filter < b", true), (#"expect todos contains {"id":1,"title":"a","done":false}"#, true),
            ("expect todos[0] contains title", true), ("expect todos[0] contains nope", false),
            (#"expect . == {"todos":[{"id":1,"title":"a","done":false}],"filter":"all","nextID":2}"#, true),
        ] {
            #expect(shell.run(line).isEmpty == passes, "\(line)")
        }
        #expect(
            shell.run("expect todos < 2")
                == [
                    "error: expect todos < 2: cannot order an array and a number (< <= > >= compare two numbers or two strings; found [{\"id\":1,\"title\":\"a\",\"done\":false}])"
                ])
    }

    /// `*` where a value stands in `expect PATH == VALUE`: any value there, the rest as written.
    @Test func expectWithAStarComparesTheRest() {
        let shell = Transcript()
        shell.run("load todos")
        shell.run("dispatch add a")
        shell.run("dispatch add b")
        for (line, passes) in [
            ("expect nextID == *", true), ("expect todos[0] == *", true),
            (#"expect todos[0] == {"id":1,"title":*,"done":false}"#, true),
            (#"expect todos[*] == {"id":*,"title":*,"done":false}"#, true),
            (#"expect todos == [*,{"id":2,"title":"b","done":*}]"#, true),
            (#"expect todos == [*]"#, false), (#"expect todos[0] == {"id":1,"title":*}"#, false),
            (#"expect todos[0].title == "*""#, false),
        ] {
            #expect(shell.run(line).isEmpty == passes, "\(line)")
        }
        // The differences leave out what a `*` stands for.
        #expect(
            shell.run(#"expect todos[1] == {"id":*,"title":"c","done":*}"#) == [
                #"error: expectation failed: todos[1] == {"id":*,"title":"c","done":*}: 1 difference, from the expected value to the actual one:"#,
                #"    ~ todos[1].title: "c" -> "b""#,
            ])
        #expect(
            shell.run(#"expect todos[*] == {"id":*,"title":"a","done":*}"#) == [
                #"error: expectation failed: todos[*] == {"id":*,"title":"a","done":*}: todos[1] is {"id":2,"title":"b","done":false}"#
            ])
        // A path that names nothing is the error it always is, `*` or not.
        #expect(shell.run("expect todos[5] == *") == ["error: index 5 is past the end of todos (2 elements)"])
    }
}

/// `history` and `save` write each dispatch as it was typed: every argument where it was typed,
/// labelled or positional as typed, its value in its printed form.
struct HistoryTextTests {
    @Test func eachDispatchReadsAsTypedWithItsValuesAsTheyPrint() throws {
        let shell = Transcript()
        shell.run("load library")
        for line in [
            "dispatch setShelf 3 null", "dispatch setShelf id: 3 name: Poetry", "dispatch setShelf 4 Poetry",
            #"dispatch open "2026-03-01T09:30:00+01:00""#, #"dispatch open at: "2026-03-01T09:30:00+01:00""#,
            "dispatch setHours close: 18.0 open: 8", "dispatch rate 1.50", #"dispatch fail reason: "gone""#,
        ] {
            #expect(shell.run(line).first?.hasPrefix("error") == false, "\(line)")
        }
        let typed = [
            "setShelf 3 null", "setShelf id: 3 name: Poetry", "setShelf 4 Poetry", #"open "2026-03-01T08:30:00Z""#,
            #"open at: "2026-03-01T08:30:00Z""#, "setHours close: 18 open: 8", "rate 1.5", "fail reason: gone",
        ]
        #expect(shell.run("history") == typed.enumerated().map { "  \($0.offset + 1)  \($0.element)" })
        #expect(
            shell.session.scenarioText().split(separator: "\n").map(String.init).filter { $0.hasPrefix("dispatch ") }
                == typed.map { "dispatch \($0)" })
    }
}
