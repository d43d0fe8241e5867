import FluxShellFixtures
import FluxShellJSON
import FluxShellLanguage
import FluxShellRunner
import FluxShellSession
import FluxStores
import Testing

/// `diff N [M]` (reference: "diff"): the diff lines between the states after two steps, as
/// `history` numbers them, and every step that cannot be compared refused with nothing changed.
struct DiffStepsTests {
    static func session() -> Transcript {
        let shell = Transcript(catalog: .builtIn)
        _ = shell.run(script: [
            "load todos", "dispatch add title: milk", "dispatch add title: eggs", "dispatch toggle id: 1",
        ])
        return shell
    }

    @Test func theStatesAfterTwoStepsAreComparedEitherWay() {
        let shell = Self.session()
        #expect(
            shell.run("diff 1 3") == [
                "~ todos[0].done: false -> true", #"+ todos[1]: {"id":2,"title":"eggs","done":false}"#,
                "~ nextID: 2 -> 3",
            ])
        #expect(
            shell.run("diff 3 1") == [
                "~ todos[0].done: true -> false", #"- todos[1]: {"id":2,"title":"eggs","done":false}"#,
                "~ nextID: 3 -> 2",
            ])
        #expect(shell.run("diff 2 2") == ["(no changes)"])
    }

    @Test func oneStepIsComparedWithNowAndZeroIsTheStart() {
        let shell = Self.session()
        #expect(shell.run("diff 3") == ["(no changes)"])
        #expect(shell.run("diff 2") == ["~ todos[0].done: false -> true"])
        #expect(
            shell.run("diff 0") == [
                #"+ todos[0]: {"id":1,"title":"milk","done":true}"#,
                #"+ todos[1]: {"id":2,"title":"eggs","done":false}"#,
                "~ nextID: 1 -> 3",
            ])
    }

    @Test func anUndoneStepIsComparedUntilAnotherReplacesIt() {
        let shell = Self.session()
        _ = shell.run("undo")
        #expect(shell.run("diff 3") == ["~ todos[0].done: true -> false"])
        _ = shell.run("dispatch add title: jam")
        #expect(shell.run("diff 3").first?.contains("step 3 was undone, and the steps after it replaced it") == true)
        #expect(shell.run("diff 4 2").count == 2)
    }

    @Test func severalStoresArePrefixedByTheirAliases() {
        let shell = Transcript(catalog: .builtIn)
        _ = shell.run(script: ["load counter", "load todos", "dispatch increment", "dispatch add title: a"])
        #expect(
            shell.run("diff 1 2") == [
                #"+ todos.todos[0]: {"id":1,"title":"a","done":false}"#, "~ todos.nextID: 1 -> 2",
            ])
        #expect(shell.run("diff 0 1") == ["~ counter.count: 0 -> 1"])
    }

    @Test(arguments: [
        ("diff", "usage: diff N [M]"),
        ("diff 1 2 3", "usage: diff N [M]"),
        ("diff x", "diff takes step numbers as history lists them (0 for the start), not 'x'"),
        ("diff -1", "not '-1'"),
        ("diff 9", "there is no step 9: the last is step 3"),
        ("diff 1 9", "there is no step 9"),
    ])
    func aStepThatCannotBeComparedIsRefusedAndChangesNothing(line: String, message: String) {
        let shell = Self.session()
        let before = shell.run("history")
        let output = shell.run(line)
        #expect(output.first?.contains(message) == true, "\(line): \(output)")
        #expect(shell.run("history") == before)
    }

    @Test func forgottenStepsAreSaidToBe() throws {
        let shell = Transcript(catalog: .builtIn)
        _ = shell.run("load counter")
        for _ in 0..<1_300 { _ = shell.run("dispatch increment") }
        let forgotten = shell.run("diff 1")
        #expect(forgotten.first?.contains("step 1 is forgotten") == true, "\(forgotten)")
        #expect(shell.run("diff 0").first?.contains("the start is forgotten") == true)
        #expect(shell.run("diff 1299 1300") == ["~ count: 1299 -> 1300"])
        let oldest = try #require(forgotten.first?.split(separator: " ").last?.dropLast())
        #expect(shell.run("diff \(oldest) 1300") == ["~ count: \(oldest) -> 1300"])
    }

    @Test func theCommandPrintsBackAsTyped() throws {
        for line in ["diff 2", "diff 0 5"] {
            let command = try #require(try CommandParser.parse(Substring(line)).command)
            #expect(command.description == line)
        }
    }
}
