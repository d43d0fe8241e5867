import FluxShellFixtures
import FluxStores
import Testing

@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

struct CompleterTests {
    private func completer(_ lines: [String] = []) -> Completer {
        let shell = Transcript()
        for line in lines { shell.run(line) }
        var completer = Completer(session: shell.session)
        completer.listFolder = { folder in
            folder == "." ? ["Scenarios/", "README.md", "notes.scenario"] : ["a.scenario"]
        }
        return completer
    }

    @Test func commandWords() {
        // NB: the words the shell takes, written out: not the list the completer itself reads.
        #expect(
            completer().complete("").candidates == [
                "actions", "advance", "cancel", "commit", "diff", "dispatch", "effects", "exhaustive", "exit", "expect",
                "find", "format", "help", "history", "invariants", "load", "output", "quit", "read", "redo", "replace",
                "reset", "save", "seed", "skip", "state", "stores", "sweep", "timer", "undo", "unskip", "unwatch",
                "use",
                "watch", "why",
            ])
        #expect(completer().complete("dis").candidates == ["dispatch"])
        #expect(completer().complete("fi").candidates == ["find"])
        #expect(completer().complete("find todos ").candidates == ["~"])
        #expect(completer().complete("s").candidates == ["save", "seed", "skip", "state", "stores", "sweep"])
        #expect(completer().complete("! dis").candidates == ["dispatch"])
    }

    /// `skip` offers the steps it can take out, `unskip` the skipped ones, `replace` a step then
    /// an action and its labels.
    @Test func stepNumbersAfterTheEditsOfThePast() {
        let lines = ["load todos", "dispatch add title: a", "reset", "dispatch add title: b", "dispatch toggle id: 1"]
        #expect(completer(lines).complete("skip ").candidates == ["1", "3", "4"])
        #expect(completer(lines).complete("unskip ").candidates == [])
        #expect(completer(lines + ["skip 4"]).complete("skip ").candidates == ["1", "3"])
        #expect(completer(lines + ["skip 4"]).complete("unskip ").candidates == ["4"])
        #expect(completer(lines + ["skip 4"]).complete("replace ").candidates == ["1", "3"])
        #expect(completer(lines).complete("replace 3 ren").candidates == ["rename"])
        #expect(completer(lines).complete("replace 3 rename ").candidates.contains("title:"))
    }

    @Test func storeNamesAfterLoadAndAliasesAfterUse() {
        #expect(completer().complete("load ").candidates == ["counter", "library", "search", "todos"])
        #expect(completer().complete("load cou").candidates == ["counter"])
        #expect(completer().complete("load todos ").candidates == ["as", "with"])
        #expect(completer().complete("load todos as list w").candidates == ["with"])
        #expect(completer(["load counter", "load todos as list"]).complete("use l").candidates == ["list"])
    }

    @Test func actionNamesThenLabelsThenValues() {
        let todos = completer(["load todos"])
        #expect(
            todos.complete("dispatch ").candidates == ["add", "clearDone", "remove", "rename", "setFilter", "toggle"])
        #expect(todos.complete("dispatch re").candidates == ["remove", "rename"])
        #expect(todos.complete("dispatch rename ").candidates == ["id:", "title:"])
        #expect(todos.complete("dispatch rename id: 1 ").candidates == ["title:"])
        // An enum's values and an action's labels in the order they are declared, as `actions` lists them.
        #expect(todos.complete("dispatch setFilter ").candidates == ["all", "active", "done"])
        #expect(todos.complete("dispatch setFilter a").candidates == ["all", "active"])
        #expect(todos.complete("dispatch setFilter a").commonExtension == "")
        #expect(completer(["load counter"]).complete("dispatch inc").commonExtension == "rement")
        let library = completer(["load library"])
        #expect(library.complete("dispatch setHours ").candidates == ["open:", "close:"])
        #expect(library.complete("dispatch add ").candidates == ["title:", "added:", "link:", "price:", "format:"])
        #expect(library.complete("dispatch sort by: ").candidates == ["title", "added", "price"])
    }

    @Test func anEnumWithPayloadsOffersHowEachCaseBegins() {
        let library = completer(["load library"])
        #expect(
            library.complete("dispatch setStatus ").candidates == [
                "idle", #"{"syncing":{"since":"#, #"{"failed":{"reason":"#,
            ])
        #expect(library.complete(#"dispatch setStatus {"f"#).candidates == [#"{"failed":{"reason":"#])
        // What Tab offers parses: the opening completed with a value dispatches.
        let shell = Transcript()
        shell.run("load library")
        #expect(
            shell.run(#"dispatch setStatus {"failed":{"reason": "offline","attempts":2}}"#) == [
                #"~ status: "idle" -> {"failed":{"reason":"offline","attempts":2}}"#
            ])
    }

    @Test func statePathsAndOperators() {
        let todos = completer(["load todos", "dispatch add milk", "dispatch add eggs"])
        #expect(todos.complete("state ").candidates == ["filter", "nextID", "todos", "todos["])
        #expect(todos.complete("state todos[").candidates == ["todos[*]", "todos[0]", "todos[1]"])
        #expect(todos.complete("why todos[").candidates == ["todos[0]", "todos[1]"])
        #expect(todos.complete("expect todos[*].d").candidates == ["todos[*].done"])
        #expect(
            todos.complete("watch nextID todos[1].").candidates == ["todos[1].done", "todos[1].id", "todos[1].title"])
        #expect(todos.complete("state todos[0].").candidates == ["todos[0].done", "todos[0].id", "todos[0].title"])
        #expect(todos.complete("state todos[0].ti").candidates == ["todos[0].title"])
        #expect(todos.complete("expect todos.c").candidates == ["todos.count"])
        #expect(todos.complete("expect nextID ").candidates.contains("contains"))
    }

    @Test func fileNamesAfterSave() {
        #expect(completer().complete("save ").candidates == ["README.md", "Scenarios/", "notes.scenario"])
        #expect(completer().complete("save Scenarios/").candidates == ["Scenarios/a.scenario"])
    }
}
