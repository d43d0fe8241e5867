import FluxShellSystem
import Testing

@testable import FluxShellRunner
@testable import FluxShellSession

/// What a script shows of a store that changes with no command, and how a scenario expects it.
@Suite struct StoresOnTheirOwnRunnerTests {
    final class Heater {
        var level = 0
        enum Action { case set(Int) }
        struct Snapshot { var level: Int }
    }

    /// Runs `script`, changing the loaded heater's level to `level` before line `line`, as its
    /// library would on a thread of its own; returns standard output and standard error.
    static func run(_ script: String, changing changes: [Int: Int], file: String = "<stdin>") -> (
        output: [String], errors: [String], session: Session
    ) {
        final class Made { var heater: Heater? }
        let made = Made()
        let catalog = StoreCatalog([
            StoreDefinition(
                "heater",
                make: { () -> Heater in
                    let heater = Heater()
                    made.heater = heater
                    return heater
                }, state: { Heater.Snapshot(level: $0.level) },
                send: { (heater: Heater, action: Heater.Action) in
                    switch action {
                    case .set(let level): heater.level = level
                    }
                })
        ])
        let session = Session(catalog: catalog)
        var output: [String] = []
        var errors: [String] = []
        let runner = ScriptRunner(
            session: session, options: ScriptRunner.Options(),
            output: Printer(
                renderer: Renderer(),
                streams: .lines(standardOutput: { output.append($0) }, standardError: { errors.append($0) })))
        runner.beforeEachLine = { (location: FluxShellSystem.SourceLocation) in
            if let level = changes[location.line] { made.heater?.level = level }
        }
        runner.run(Array(script.utf8), file: file)
        return (output, errors, session)
    }

    @Test func aChangeNoCommandMadePrintsOnceBeforeTheNextCommand() {
        let (output, errors, _) = Self.run("load heater\ndispatch set 1\nstate level\n", changing: [3: 7])
        #expect(errors == [])
        #expect(output == ["~ level: 0 -> 1", "<= (the store changed by itself)", "~ level: 1 -> 7", "7"])
    }

    @Test func aChangeAtTheEndOfTheScriptPrintsToo() {
        let (output, _, _) = Self.run("load heater\ndispatch set 1\n", changing: [3: 4])
        // NB: no line 3 runs; the change is taken at the end, as the script finishes.
        #expect(output == ["~ level: 0 -> 1"])
        let (changed, _, _) = Self.run("load heater\ndispatch set 1\n# the heater warms up\n", changing: [3: 4])
        #expect(changed == ["~ level: 0 -> 1", "<= (the store changed by itself)", "~ level: 1 -> 4"])
    }

    @Test func aScenarioExpectsTheStepAfterTheCommandBeforeIt() {
        let script =
            "load heater\ndispatch set 1\n~ level: 0 -> 1\n<= (the store changed by itself)\n~ level: 1 -> 7\nstate level\n"
        #expect(Self.run(script, changing: [4: 7]).errors == [])
        // Expected and not made: the block differs.
        let missing = Self.run(script, changing: [:]).errors
        #expect(
            missing.first?.hasPrefix("<stdin>:2: error: the diff of 'dispatch set 1' differs from the expected lines")
                == true)
        // Made and not expected, after expected lines: the block differs too.
        let unexpected = Self.run("load heater\ndispatch set 1\n~ level: 0 -> 1\nstate level\n", changing: [4: 9])
            .errors
        #expect(unexpected.first == "<stdin>:2: error: the diff of 'dispatch set 1' differs from the expected lines")
        #expect(unexpected.contains { $0.contains("<= (the store changed by itself)") })
    }

    @Test func aStepAfterACommandThatChangesNothingIsExpectedOnItsOwn() {
        let script = "load heater\n<= (the store changed by itself)\n~ level: 0 -> 3\nstate level\n"
        #expect(Self.run(script, changing: [2: 3]).errors == [])
        #expect(
            Self.run(script, changing: [2: 4]).errors.first?.hasPrefix(
                "<stdin>:2: error: the diff of '<= (the store changed by itself)' differs") == true)
    }

    @Test func saveWritesTheStepAsTheLinesAScenarioExpects() {
        let (_, errors, session) = Self.run(
            "load heater\ndispatch set 1\nstate level\ndispatch set 2\n", changing: [3: 5])
        #expect(errors == [])
        let text = session.scenarioText()
        #expect(
            text.split(separator: "\n").dropFirst() == [
                "load heater", "dispatch set 1", "~ level: 0 -> 1", "<= (the store changed by itself)",
                "~ level: 1 -> 5",
                "dispatch set 2", "~ level: 5 -> 2", "use heater", "expect . == {\"level\":2}",
            ])
        // The scenario replays where the store changes as it did.
        #expect(Self.run(text, changing: [4: 5]).errors == [])
    }

    @Test func aCommentBetweenABlockAndItsStepsLeavesTheStepsToTheirLines() {
        let script =
            "load heater\ndispatch set 1\n~ level: 0 -> 1\n# the heater warms up\n<= (the store changed by itself)\n~ level: 1 -> 7\nstate level\n"
        // NB: changed while the comment is read: the steps go to the `<=` lines after it.
        #expect(Self.run(script, changing: [4: 7]).errors == [])
        #expect(Self.run(script, changing: [5: 7]).errors == [])
    }

    @Test func stepsAfterALineExpectedToFailAreExpectedOnTheirOwn() {
        let script = "load heater\n! dispatch nope\n<= (the store changed by itself)\n~ level: 0 -> 2\nstate level\n"
        #expect(Self.run(script, changing: [3: 2]).errors == [])
    }

    @Test func inExhaustiveModeAStepNoLinesExpectFails() {
        let script = "exhaustive on\nload heater\nstate level\nstate level\n"
        let errors = Self.run(script, changing: [4: 3]).errors
        #expect(
            errors.first
                == "<stdin>:4: error: a store changed on its own before this line, and no '<= ' lines expect it (exhaustive mode):"
        )
        #expect(errors.contains("    <= (the store changed by itself)"))
        // Not exhaustive: printed, not compared.
        #expect(Self.run("load heater\nstate level\nstate level\n", changing: [3: 3]).errors == [])
    }
}
