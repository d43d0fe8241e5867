import FluxCore
import FluxShellFixtures
import FluxStores
import Foundation
import Testing

@testable import FluxShellJSON
@testable import FluxShellLanguage
@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// `why PATH`, `watch`/`unwatch`, `[*]` in paths and `$PATH` values (“Paths” in the reference).
struct DevtoolsTests {
    /// A grid of items with tags, replaced whole: one step can shift the outer array and an
    /// inner one at once.
    struct GridItem: Codable, Equatable, Sendable {
        var name: String
        var tags: [String]
    }

    struct Grid: State { var items: [GridItem] = [] }
    enum GridAction: Action { case replace([GridItem]) }
    struct GridMutation: Mutation, Sendable {
        func mutate(action: GridAction, state: inout Grid) {
            if case .replace(let items) = action { state.items = items }
        }
    }

    static let gridCatalog = StoreCatalog([StoreDefinition("grid", state: Grid(), mutation: GridMutation())])

    /// A shell with three todos, `a` `b` `c` (ids 1 2 3).
    private func todos() -> Transcript {
        let shell = Transcript()
        shell.run("load todos")
        for title in ["a", "b", "c"] { shell.run("dispatch add title: \(title)") }
        return shell
    }

    // MARK: - why

    @Test func whyFollowsAnElementAcrossRemovalsAndInsertions() {
        let shell = todos()
        shell.run("dispatch toggle id: 3")  // todos[2] then
        shell.run("dispatch remove id: 1")  // c is todos[1] now
        shell.run("dispatch toggle id: 2")  // another todo: not listed
        shell.run("dispatch rename id: 3 title: C")  // another member: not listed for .done
        #expect(
            shell.run("why todos[1].done") == [
                "  3  add title: c",
                #"     + todos[2]: {"id":3,"title":"c","done":false}"#,
                "  4  toggle id: 3",
                "     ~ todos[2].done: false -> true",
            ])
        #expect(
            shell.run("why todos[1]") == [
                "  3  add title: c",
                #"     + todos[2]: {"id":3,"title":"c","done":false}"#,
                "  4  toggle id: 3",
                "     ~ todos[2].done: false -> true",
                "  7  rename id: 3 title: C",
                #"     ~ todos[1].title: "c" -> "C""#,
            ])
    }

    /// A removal inside an element whose outer index shifted in the same step prints the outer
    /// index of the state before it, as every `-` path does; `why` follows the element there.
    @Test func whyFollowsANestedElementWhenTheOuterArrayShiftsInTheSameStep() {
        let shell = Transcript(catalog: Self.gridCatalog)
        shell.run("load grid")
        shell.run(
            #"dispatch replace [{"name":"a","tags":["x"]},{"name":"K","tags":[]},{"name":"b","tags":["p","q","r"]}]"#)
        shell.run(
            #"dispatch replace [{"name":"a","tags":["x"]},{"name":"K","tags":[]},{"name":"b","tags":["p","q","r","s"]}]"#
        )
        let third = shell.run(
            #"dispatch replace [{"name":"X","tags":[]},{"name":"Y","tags":[]},{"name":"K","tags":[]},{"name":"b","tags":["q","r","s"]}]"#
        )
        #expect(third.contains(#"- items[2].tags[0]: "p""#))
        #expect(
            shell.run("why items[3].tags[2]") == [
                "  2  replace "
                    + #"[{"name":"a","tags":["x"]},{"name":"K","tags":[]},{"name":"b","tags":["p","q","r","s"]}]"#,
                #"     + items[2].tags[3]: "s""#,
            ])
        let tags = shell.run("why items[3].tags.count")
        #expect(tags.last == #"     - items[2].tags[0]: "p""#)
        #expect(tags.contains(#"     + items[2].tags[3]: "s""#))
    }

    @Test func whyOfACountListsInsertionsAndRemovals() {
        let shell = todos()
        shell.run("dispatch toggle id: 1")
        shell.run("dispatch remove id: 2")
        #expect(
            shell.run("why todos.count") == [
                "  1  add title: a",
                #"     + todos[0]: {"id":1,"title":"a","done":false}"#,
                "  2  add title: b",
                #"     + todos[1]: {"id":2,"title":"b","done":false}"#,
                "  3  add title: c",
                #"     + todos[2]: {"id":3,"title":"c","done":false}"#,
                "  5  remove id: 2",
                #"     - todos[1]: {"id":2,"title":"b","done":false}"#,
            ])
    }

    @Test func whySkipsUndoneStepsAndSeesRedoneOnes() {
        let shell = todos()
        shell.run("dispatch toggle id: 1")
        shell.run("dispatch toggle id: 1")
        shell.run("undo")
        let afterUndo = shell.run("why todos[0].done")
        #expect(afterUndo.contains("  4  toggle id: 1"))
        #expect(!afterUndo.contains("  5  toggle id: 1"))
        shell.run("redo")
        #expect(shell.run("why todos[0].done").contains("  5  toggle id: 1"))
        // A new action after an undo replaces the undone step.
        shell.run("undo 2")
        shell.run("dispatch rename id: 1 title: z")
        #expect(
            shell.run("why todos[0].done") == [
                "  1  add title: a", #"     + todos[0]: {"id":1,"title":"a","done":false}"#,
            ])
    }

    @Test func whyAfterResetStartsAtTheInsertionThatFollowedIt() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch add 5")
        shell.run("reset")
        shell.run("dispatch increment")
        #expect(
            shell.run("why count") == [
                "  1  add 5", "     ~ count: 0 -> 5", "  2  reset", "     ~ count: 5 -> 0", "  3  increment",
                "     ~ count: 0 -> 1",
            ])
    }

    @Test func whyInAMultiStoreSessionPrintsPathsAsTheyWerePrinted() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch increment")  // one store: unprefixed
        shell.run("load counter as other")
        shell.run("use counter")
        shell.run("dispatch add 2")  // both counters, prefixed
        #expect(
            shell.run("why count") == [
                "  1  increment", "     ~ count: 0 -> 1", "  2  add 2", "     ~ counter.count: 1 -> 3",
            ])
        shell.run("use other")
        #expect(shell.run("why count") == ["  2  add 2", "     ~ other.count: 0 -> 2"])
    }

    @Test func whyShowsFollowUpsUnderTheirAnnouncement() {
        let shell = Transcript()
        shell.run("load search")
        shell.run("dispatch search query: swift")
        let lines = shell.run("why page")
        #expect(lines.first == "  1  search query: swift")
        #expect(lines.contains { $0.hasPrefix("     => searchResponse") })
        #expect(lines.last == "     ~ page: 0 -> 1")
    }

    @Test func whyOfAnUntouchedValueAndErrors() {
        let shell = todos()
        #expect(shell.run("why filter") == [#"(no step changed filter: it is as the store was loaded)"#])
        #expect(shell.run("why todos[7]") == ["error: index 7 is past the end of todos (3 elements)"])
        #expect(
            shell.run("why todos[*].done") == [
                "error: why follows one value, and [*] stands for several (name one, e.g. why todos[0].done)"
            ])
        #expect(shell.run("why")[0].hasPrefix("error: usage: why PATH"))
    }

    /// Found in review: with steps forgotten, `why` said the value was as loaded.
    @Test func whyOfAValueChangedOnlyInForgottenStepsSaysSo() {
        let shell = Transcript(session: Session(catalog: .builtIn, historyLimit: 4))
        shell.run("load todos")
        shell.run("dispatch setFilter done")
        for _ in 0..<6 { shell.run("dispatch add title: x") }
        #expect(
            shell.run("why filter") == [
                "(no kept step changed filter; the 3 earlier steps that may have are no longer kept)"
            ])
        // A store loaded after them: they could not have changed it.
        shell.run("load counter")
        #expect(shell.run("why count") == ["(no step changed count: it is as the store was loaded)"])
    }

    @Test func whyForgetsWhatTheHistoryNoLongerKeeps() {
        let session = Session(catalog: .builtIn, historyLimit: 4)
        let shell = Transcript(session: session)
        shell.run("load counter")
        for _ in 0..<6 { shell.run("dispatch increment") }
        let lines = shell.run("why count")
        // Four entries kept (3 to 6), the two before them forgotten.
        #expect(lines.first == "(2 earlier steps are no longer kept)")
        #expect(
            lines.dropFirst() == [
                "  3  increment", "     ~ count: 2 -> 3", "  4  increment", "     ~ count: 3 -> 4", "  5  increment",
                "     ~ count: 4 -> 5", "  6  increment", "     ~ count: 5 -> 6",
            ])
    }

    @Test func whyRemakesStepsTheFullTranscriptNoLongerKeeps() {
        let session = Session(catalog: .builtIn)
        session.transcriptLimit = 2
        let shell = Transcript(session: session)
        shell.run("load search")
        shell.run("dispatch search query: swift")  // kept: its follow-up printed apart
        shell.run("dispatch nextPage")  // not kept: one step made again from the states
        let lines = shell.run("why page")
        #expect(lines.contains { $0.hasPrefix("     => searchResponse") })
        #expect(lines.suffix(2) == ["  2  nextPage", "     ~ page: 1 -> 2"])
    }

    @Test func whyInJSON() throws {
        let shell = todos()
        shell.run("dispatch toggle id: 1")
        let result = try shell.session.execute(#require(try CommandParser.parse("why todos[0].done").command))
        let line = Renderer(format: .json).jsonLine(
            of: result, command: .why(path: try ValuePath.parse("todos[0].done")), line: 9)
        #expect(
            line
                == #"{"line":9,"command":"why","path":"todos[0].done","steps":[{"number":1,"action":"add title: a","changes":[{"op":"+","path":"todos[0]","new":{"id":1,"title":"a","done":false}}]},{"number":4,"action":"toggle id: 1","changes":[{"op":"~","path":"todos[0].done","old":false,"new":true}]}]}"#
        )
    }

    // MARK: - [*] and $PATH

    @Test func everyElementHoldsOrNamesTheOneThatFails() {
        let shell = todos()
        #expect(shell.run("expect todos[*].id < $nextID") == [])
        #expect(shell.run("expect todos[*].done == false") == [])
        shell.run("dispatch toggle id: 2")
        #expect(
            shell.run("expect todos[*].done == false") == [
                "error: expectation failed: todos[*].done == false: todos[1].done is true"
            ])
        #expect(
            shell.run("expect todos[*].title contains x") == [
                #"error: expectation failed: todos[*].title contains "x": todos[0].title is "a""#
            ])
        #expect(shell.run("expect todos[*].nope == 1") == ["error: no key 'nope' in todos[0] (did you mean 'done'?)"])
        #expect(
            shell.run("expect filter[*] == 1") == [
                #"error: filter is a string: [*] needs an array or an object (filter[*] names every element of a collection)"#
            ])
        #expect(shell.run("state todos[*].id") == ["[1,2,3]"])
        #expect(shell.run("state todos[5]") == ["error: index 5 is past the end of todos (3 elements)"])
    }

    @Test func everyElementOfAnEmptyCollectionHolds() {
        let shell = Transcript()
        shell.run("load todos")
        #expect(shell.run("expect todos[*].done == true") == [])
        #expect(shell.run("state todos[*].title") == ["[]"])
    }

    @Test func pathValuesAreReadWhenTheCommandRuns() {
        let shell = todos()
        #expect(shell.run("expect todos.count == $todos[2].id") == [])
        #expect(
            shell.run("expect nextID == $todos.count") == [
                "error: expectation failed: nextID == $todos.count (actual: 4; $todos.count is 3)"
            ])
        #expect(shell.run("dispatch toggle id: $todos[1].id") == ["~ todos[1].done: false -> true"])
        #expect(
            shell.run("dispatch rename id: $todos[0].id title: $todos[2].title") == [#"~ todos[0].title: "a" -> "c""#])
        // The history and `save` keep the values read, not the paths.
        #expect(shell.run("history").suffix(2) == ["  4  toggle id: 2", "  5  rename id: 1 title: c"])
        #expect(
            shell.run(#"dispatch add title: "$nextID""#) == [
                #"+ todos[3]: {"id":4,"title":"$nextID","done":false}"#, "~ nextID: 4 -> 5",
            ])
        #expect(
            shell.run("dispatch toggle id: $nope") == [
                "error: $nope: no key 'nope' in the state (its keys are: todos, filter, nextID)"
            ])
        #expect(
            shell.run("dispatch toggle id: $") == [
                #"error: '$' must be followed by a path of the state (e.g. $count, or "$" for the string)"#
            ])
        // Errors name the `$` value they come from; a PATH is written without `$`.
        #expect(
            shell.run("expect nextID == $missing").first?.hasPrefix("error: $missing: no key 'missing' in the state")
                == true)
        #expect(
            shell.run("dispatch toggle id: $todos[9].id") == [
                "error: $todos[9].id: index 9 is past the end of todos (4 elements)"
            ])
        #expect(
            shell.run("state $nextID") == [
                "error: '$nextID': a path is written without '$', which marks a value read from the state (e.g. state nextID, or expect count == $nextID)"
            ])
        #expect(shell.run("state nextID") == ["5"])
    }

    /// “Stores of every architecture” in the reference: `$PATH` stands for a value anywhere inside
    /// a JSON argument, read when the command runs; `history` and `save` keep the values read, and
    /// a bad path is the top-level form's error.
    @Test func pathValuesInsideJSONArgumentsAreReadWhenTheCommandRuns() throws {
        let shell = Transcript(catalog: Self.gridCatalog)
        shell.run("load grid")
        shell.run(#"dispatch replace [{"name":"a","tags":["x"]}]"#)
        // Swaps the name and the tag: the same line again reads the state as it is then.
        let swap = #"dispatch replace [{"name": $items[0].tags[0], "tags": [$items[0].name]}]"#
        #expect(shell.run(swap) == [#"~ items[0].name: "a" -> "x""#, #"~ items[0].tags[0]: "x" -> "a""#])
        #expect(shell.run(swap) == [#"~ items[0].name: "x" -> "a""#, #"~ items[0].tags[0]: "a" -> "x""#])
        // A whole element read; a `$` in a string is that string.
        #expect(
            shell.run(#"dispatch replace [$items[0], {"name":"$items","tags":$items[0].tags}]"#) == [
                #"+ items[1]: {"name":"$items","tags":["x"]}"#
            ])
        #expect(
            shell.run("history").suffix(3) == [
                #"  2  replace [{"name":"x","tags":["a"]}]"#,
                #"  3  replace [{"name":"a","tags":["x"]}]"#,
                #"  4  replace [{"name":"a","tags":["x"]},{"name":"$items","tags":["x"]}]"#,
            ])
        // Bad paths: the errors of `dispatch set $PATH`, and nothing changes.
        #expect(
            shell.run(#"dispatch replace [{"name":$items[5].name,"tags":[]}]"#) == [
                "error: $items[5].name: index 5 is past the end of items (2 elements)"
            ])
        #expect(
            shell.run(#"dispatch replace [{"name":$nope,"tags":[]}]"#) == [
                "error: $nope: no key 'nope' in the state (its keys are: items)"
            ])
        #expect(
            shell.run(#"dispatch replace [{"name":$,"tags":[]}]"#) == [
                #"error: '$' at column 27 must be followed by a path of the state (e.g. $count, or "$" for the string)"#
            ])
        #expect(
            shell.run(#"dispatch replace [{"name":$items[0],"tags":[]}]"#).first?.hasPrefix(
                #"error: argument 1 (at [0].name) of 'replace': expected a string, found {"name":"a","tags":["x"]}"#)
                == true)
        #expect(shell.run("history").count == 4)
        #expect(shell.run("state items[1].name") == [#""$items""#])

        // Across stores: a path of the active store inside another store's action.
        let stores = Transcript()
        stores.run("load library")
        stores.run("load todos")
        stores.run("dispatch add title: milk")
        #expect(
            stores.run(#"dispatch setStatus {"failed":{"reason":$todos[0].title,"attempts":$nextID}}"#) == [
                #"~ library.status: "idle" -> {"failed":{"reason":"milk","attempts":2}}"#
            ])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dollar-\(UUID().uuidString).scenario")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(stores.run("save \(file.path)").count == 1)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains(#"dispatch setStatus {"failed":{"reason":"milk","attempts":2}}"#), "\(saved)")
    }

    // MARK: - watch

    @Test func watchLimitsPrintingAndSaysWhatItLeftOut() {
        let shell = todos()
        #expect(shell.run("watch todos[*].done") == [])
        #expect(shell.run("dispatch toggle id: 2") == ["~ todos[1].done: false -> true"])
        #expect(shell.run("dispatch add title: d") == ["(2 more changes)"])
        #expect(shell.run("dispatch setFilter done") == ["(1 more change)"])
        #expect(shell.run("dispatch setFilter done") == ["(no changes)"])
        #expect(shell.run("watch nextID") == [])
        #expect(shell.run("watch") == ["todos[*].done", "nextID"])
        #expect(shell.run("dispatch add title: e") == ["~ nextID: 5 -> 6", "(1 more change)"])
        #expect(shell.run("unwatch nextID") == [])
        #expect(shell.run("unwatch nextID") == ["error: nextID is not watched (watched: todos[*].done)"])
        #expect(shell.run("watch nxtID") == ["error: no key 'nxtID' in the state of 'todos' (did you mean 'nextID'?)"])
        #expect(shell.run("unwatch") == [])
        #expect(shell.run("watch") == ["(nothing is watched)"])
        #expect(shell.run("dispatch toggle id: 1").count == 1)
    }

    @Test func watchIsPrintingOnlyExpectedLinesAndJSONSeeEverything() {
        let script = """
            load todos
            watch nextID
            dispatch add title: a
            + todos[0]: {"id":1,"title":"a","done":false}
            ~ nextID: 1 -> 2
            dispatch add title: b
            ~ nextID: 1 -> 2

            """
        var out: [String] = []
        var err: [String] = []
        let runner = ScriptRunner(
            session: Session(catalog: .builtIn), options: .init(),
            output: Printer(
                renderer: Renderer(),
                streams: .lines(standardOutput: { out.append($0) }, standardError: { err.append($0) })))
        runner.run(Array(script.utf8), file: "w.scenario")
        #expect(out == ["~ nextID: 1 -> 2", "(1 more change)", "~ nextID: 2 -> 3", "(1 more change)"])
        // The second block is compared with the whole diff, so it fails and shows every line.
        #expect(runner.failures.count == 1)
        #expect(runner.failures.first?.location?.line == 6)
        #expect(err.contains { $0.contains(#"+ todos[1]: {"id":2,"title":"b","done":false}"#) })

        let json = ScriptRunner.Options()
        var jsonOut: [String] = []
        let jsonRunner = ScriptRunner(
            session: Session(catalog: .builtIn), options: json,
            output: Printer(
                renderer: Renderer(format: .json),
                streams: .lines(standardOutput: { jsonOut.append($0) }, standardError: { _ in })))
        jsonRunner.run(Array("load todos\nwatch nextID\ndispatch add title: a\n".utf8), file: "w")
        #expect(jsonOut.last?.contains(#""path":"todos[0]""#) == true)

        // Found in review: a dispatch with `$PATH` arguments had no "action" in JSON.
        var dollarOut: [String] = []
        let dollarRunner = ScriptRunner(
            session: Session(catalog: .builtIn), options: json,
            output: Printer(
                renderer: Renderer(format: .json),
                streams: .lines(standardOutput: { dollarOut.append($0) }, standardError: { _ in })))
        dollarRunner.run(Array("load counter\ndispatch set 5\ndispatch add $count\n".utf8), file: "d")
        #expect(
            dollarOut.last
                == #"{"line":3,"command":"dispatch","action":"add 5","changes":[{"op":"~","path":"count","old":5,"new":10}]}"#
        )
    }

    @Test func watchInAMultiStoreSessionFollowsItsStore() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("load counter as other")
        shell.run("use other")
        shell.run("watch count")
        #expect(shell.run("watch") == ["count (in other)"])
        #expect(shell.run("dispatch increment") == ["~ other.count: 0 -> 1", "(1 more change)"])
    }

    /// “Paths” in the reference: with several stores loaded, a path may be written as diff lines
    /// print it, after a store's alias, in every command that takes one; the active store's own
    /// member wins where a path reads both ways; a watch that names nothing is an error.
    @Test func pathsAsDiffLinesPrintThemWorkInEveryCommand() {
        let shell = Transcript()
        shell.run("load todos")
        shell.run("load counter")
        shell.run("dispatch increment")
        shell.run("use todos")
        #expect(
            shell.run("dispatch add milk") == [
                #"+ todos.todos[0]: {"id":1,"title":"milk","done":false}"#, "~ todos.nextID: 1 -> 2",
            ])
        #expect(shell.run("state todos.todos[0].done") == ["false"])
        #expect(shell.run("state counter.count") == ["1"])
        // The active store's own `todos` member, not the store named todos.
        #expect(shell.run("state todos.count") == ["1"])
        #expect(shell.run("expect counter.count == 1") == [])
        #expect(shell.run("expect todos.todos[*].done == false") == [])
        #expect(
            shell.run("expect nextID == $counter.count") == [
                "error: expectation failed: nextID == $counter.count (actual: 2; $counter.count is 1)"
            ])
        #expect(shell.run("why counter.count") == ["  1  increment", "     ~ counter.count: 0 -> 1"])
        shell.run("use counter")
        #expect(shell.run("dispatch add $todos.nextID") == ["~ counter.count: 1 -> 3"])
        shell.run("use todos")
        #expect(shell.run("watch counter.count") == [])
        #expect(
            shell.run("why counter.count") == [
                "  1  increment", "     ~ counter.count: 0 -> 1", "  3  add 2", "     ~ counter.count: 1 -> 3",
            ])
        #expect(shell.run("watch todos.todos[9].done") == [])
        #expect(shell.run("watch") == ["count (in counter)", "todos[9].done (in todos)"])
        #expect(
            shell.run("watch nextID.value") == [
                "error: 'nextID.value' names nothing in the state of 'todos' (watch what state shows, or an element of an array that may come)"
            ])
        #expect(
            shell.run("watch counter.total").first?.hasPrefix("error: no key 'total' in the state of 'counter'") == true
        )
        #expect(shell.run("unwatch counter.count") == [])
        #expect(shell.run("watch") == ["todos[9].done (in todos)"])
    }
}
