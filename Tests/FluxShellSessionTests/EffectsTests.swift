import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellExplore
@testable import FluxShellJSON
@testable import FluxShellLanguage
@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

struct EffectsTests {
    private func shell() -> Transcript {
        let shell = Transcript(catalog: Clocked.catalog)
        shell.run("load clocked")
        return shell
    }

    @Test func anEffectWaitsOnTheClockUntilAdvanceMovesItPastItsDeadline() {
        let shell = shell()
        #expect(shell.run("dispatch search ab") == [#"~ query: "" -> "ab""#])
        #expect(shell.run("effects") == ["effect 1 (search ab): waits 0.3 s on the clock"])
        #expect(shell.run("advance 0.2") == ["(no changes)"])
        #expect(shell.run("effects") == ["effect 1 (search ab): waits 0.1 s on the clock"])
        #expect(
            shell.run("advance 0.1") == [
                #"=> response ["ab-1","ab-2"]"#, #"+ results[0]: "ab-1""#, #"+ results[1]: "ab-2""#,
            ])
        #expect(shell.run("effects") == ["(no effects running)"])
        #expect(shell.session.environment.now == ShellEnvironment.start.addingTimeInterval(0.3))
    }

    @Test func advanceWithNoNumberGoesToTheEarliestDeadline() {
        let shell = shell()
        shell.run("dispatch startTimer")
        shell.run("dispatch search q")
        #expect(shell.run("advance").first == #"=> response ["q-1","q-2"]"#)
        #expect(shell.run("advance") == ["=> tick", "~ ticks: 0 -> 1"])
        #expect(shell.run("advance 2.5") == ["=> tick", "~ ticks: 1 -> 2", "=> tick", "~ ticks: 2 -> 3"])
        #expect(shell.run("effects") == ["effect 1 (startTimer): waits 0.5 s on the clock"])
        #expect(shell.run("cancel") == [])
        #expect(shell.run("effects") == ["(no effects running)"])
    }

    @Test func theActionsEffectsSendAreStepsOfTheTimelineThatUndoAndHistorySee() {
        let shell = shell()
        shell.run("dispatch startTimer")
        shell.run("advance 2")
        #expect(shell.run("state ticks") == ["2"])
        #expect(shell.run("undo") == ["~ ticks: 2 -> 0"])
        #expect(shell.run("redo") == ["~ ticks: 0 -> 2"])
        let history = shell.run("history")
        #expect(history.contains { $0.hasSuffix("advance 2") }, "\(history)")
        #expect(history.contains { $0.contains("=> tick") }, "\(history)")
        #expect(shell.run("why ticks").contains { $0.contains("advance 2") })
    }

    @Test func badClockCommandsAreRefusedAndChangeNothing() {
        let shell = shell()
        #expect(shell.run("advance").first?.hasPrefix("error: nothing waits on the clock") == true)
        // NB: `cancel` with nothing running does nothing, and is no error: a scenario may end with it.
        #expect(shell.run("cancel") == [])
        for bad in ["-1", "1e400", "abc", ".", "1.2.3", "0x10", "nan"] {
            #expect(
                shell.run("advance \(bad)").first?.hasPrefix("error: advance takes a number of seconds") == true,
                "\(bad)")
        }
        #expect(shell.run("advance 1000000001").first?.hasPrefix("error: advance moves the clock at most") == true)
        #expect(shell.run("advance 1 2").first?.hasPrefix("error:") == true)
        #expect(shell.session.environment.now == ShellEnvironment.start)
        #expect(shell.run("history") == ["(no actions dispatched yet)"])
    }

    @Test func anAdvanceThatWouldWakeWithoutEndStopsAtTheFollowUpLimit() {
        let shell = shell()
        shell.session.followUpLimit = 5
        shell.run("dispatch startTimer")
        let lines = shell.run("advance 1000000000")
        #expect(lines.filter { $0 == "=> tick" }.count == 5, "\(lines)")
        #expect(
            lines.last?.hasPrefix(
                "error: advance stopped at 6 s of the session's clock, short of 1000000000 s: the effects sent more actions than one command takes"
            ) == true, "\(lines)")
        #expect(shell.session.environment.now == ShellEnvironment.start.addingTimeInterval(6))
        shell.run("cancel")
    }

    @Test func advanceReadsSecondsExactly() throws {
        #expect(try Seconds.duration("0.3") == .milliseconds(300))
        #expect(try Seconds.duration("2") == .seconds(2))
        #expect(try Seconds.duration(".5") == .milliseconds(500))
        #expect(try Seconds.duration("0.000000000000000001") == .init(secondsComponent: 0, attosecondsComponent: 1))
        #expect(Seconds.text(.milliseconds(300)) == "0.3")
        #expect(Seconds.text(.seconds(5)) == "5")
        #expect(Command.advance(.milliseconds(1500)).description == "advance 1.5")
    }

    @Test func anEffectThatNeverEndsNorSleepsIsCancelledAfterTheTimeLimit() {
        let shell = shell()
        shell.session.effectTimeLimit = .milliseconds(100)
        let lines = shell.run("dispatch spin")
        #expect(lines.count == 2)
        #expect(lines.first == "(no changes)")
        #expect(lines.last?.hasPrefix("error: effect 1 (spin) neither ended nor waited on the session's clock") == true)
        #expect(shell.run("effects") == ["(no effects running)"])
        #expect(shell.run("dispatch search x") == [#"~ query: "" -> "x""#])
    }

    @Test func anEffectThatThrowsIsReportedAndSendingAfterCancelIsAnError() {
        let shell = shell()
        #expect(
            shell.run("dispatch fail") == ["(no changes)", "error: effect 1 (fail) threw an error: the server said no"])
        shell.run("dispatch stubborn")
        #expect(
            shell.run("cancel") == [
                "error: effect 2 (stubborn) sent 'tick' after it was cancelled: the action was dropped"
                    + " (check Task.isCancelled, or let the CancellationError its sleep throws end the effect)"
            ])
        #expect(shell.run("state ticks") == ["0"])
    }

    @Test func theEnvironmentIsTheSameInEverySession() {
        let first = shell()
        first.run("dispatch newID")
        first.run("dispatch newID")
        #expect(
            first.run("state ids") == [
                #"["00000000-0000-0000-0000-000000000001","00000000-0000-0000-0000-000000000002"]"#
            ])
        var one = Session(catalog: Clocked.catalog).environment.random
        var two = Session(catalog: Clocked.catalog).environment.random
        #expect((0..<4).map { _ in one.next() } == (0..<4).map { _ in two.next() })
        var seeded = Session(catalog: Clocked.catalog, seed: 7).environment.random
        var other = Session(catalog: Clocked.catalog).environment.random
        #expect(seeded.next() != other.next())
    }

    @Test func aScenarioThatEndsWithEffectsRunningFailsAtItsLastLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = folder.appendingPathComponent("running.scenario").path
        try "load clocked\ndispatch startTimer\n(no changes)\nadvance 1\n=> tick\n~ ticks: 0 -> 1\n".write(
            toFile: running, atomically: true, encoding: .utf8)
        let failed = ScenarioRunner(catalog: Clocked.catalog).run(running)
        #expect(!failed.passed)
        #expect(
            failed.report == [
                "\(running):6: error: the scenario ends while an effect is still running",
                "    effect 1 (line 2: startTimer): waits 1 s on the clock",
                "  (advance the clock until they end, or cancel them before the end)",
            ])
        let cancelled = folder.appendingPathComponent("cancelled.scenario").path
        try "load clocked\ndispatch startTimer\n(no changes)\nadvance 1\n=> tick\n~ ticks: 0 -> 1\ncancel\n".write(
            toFile: cancelled, atomically: true, encoding: .utf8)
        let passed = ScenarioRunner(catalog: Clocked.catalog).run(cancelled)
        #expect(passed.passed, "\(passed.report)")
    }

    @Test func updateRewritesTheLinesOfAnAdvanceAndKeepsTheAdvance() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("stale.scenario").path
        try "load clocked\ndispatch startTimer\nadvance 2\n=> tick\n~ ticks: 0 -> 1\ncancel\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        var options = ScenarioRunner.Options()
        options.update = true
        let updated = ScenarioRunner(catalog: Clocked.catalog, options: options).run(file)
        #expect(updated.wasUpdated && updated.passed, "\(updated.report)")
        #expect(
            try String(contentsOfFile: file, encoding: .utf8)
                == "load clocked\ndispatch startTimer\nadvance 2\n=> tick\n~ ticks: 0 -> 1\n=> tick\n~ ticks: 1 -> 2\ncancel\n"
        )
        #expect(ScenarioRunner(catalog: Clocked.catalog).run(file).passed)
    }

    @Test func aSavedSessionWithEffectsReplays() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("saved.scenario").path
        let shell = shell()
        shell.run("dispatch search a")
        shell.run("dispatch startTimer")
        shell.run("advance 1.5")
        shell.run("dispatch newID")
        shell.run("cancel")
        #expect(shell.run("save \(file)").first?.hasPrefix("saved") == true)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("advance 1.5\n=> response"), "\(text)")
        #expect(text.contains("\ncancel\n"), "\(text)")
        var options = ScenarioRunner.Options()
        options.exhaustive = true
        let result = ScenarioRunner(catalog: Clocked.catalog, options: options).run(file)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
    }

    @Test func aStoreObjectIsMadeWithTheSessionsEnvironment() {
        final class Stamper {
            let env: ShellEnvironment
            var stamps: [String] = []
            init(env: ShellEnvironment) { self.env = env }
        }
        let catalog = StoreCatalog([
            StoreDefinition(
                "stamper", make: { env in Stamper(env: env) }, state: { $0.stamps },
                send: { (store: Stamper, _: Clocked.Action) in
                    store.stamps.append(ISO8601DateFormatter().string(from: store.env.now))
                })
        ])
        let shell = Transcript(catalog: catalog)
        shell.run("load stamper")
        #expect(shell.run("dispatch tick") == [#"+ [0]: "2026-01-01T00:00:00Z""#])
        #expect(shell.run("advance 60") == ["(no changes)"])
        #expect(shell.run("dispatch tick") == [#"+ [1]: "2026-01-01T00:01:00Z""#])
        // Made again by reset (no restore:), it keeps the session's environment and clock.
        shell.run("reset")
        shell.run("advance 60")
        #expect(shell.run("dispatch tick") == [#"+ [0]: "2026-01-01T00:02:00Z""#])
    }

    /// A timer whose ticks an invariant bounds: only `advance` steps can break it.
    enum Ticker {
        enum Action { case start, tick, reset }
        static func reduce(_ ticks: inout Int, _ action: Action) {
            switch action {
            case .tick: ticks += 1
            case .reset: ticks = 0
            case .start: break
            }
        }
        static func effect(_ action: Action, _ ticks: Int, _ context: EffectContext<Action>) async throws -> [Action] {
            guard action == .start else { return [] }
            while true {
                try await context.environment.clock.sleep(for: .seconds(1))
                context.send(.tick)
            }
        }
    }

    @Test func exploreAdvancesTheClockWhileEffectsSleepAndShrinksToTheSteps() throws {
        let catalog = StoreCatalog([
            StoreDefinition(
                "timer", state: 0, reduce: Ticker.reduce, effect: Ticker.effect,
                invariants: [StoreInvariant("fewer than 3 ticks") { $0 < 3 }])
        ])
        var options = Explorer.Options(stores: ["timer"], seed: 3)
        options.runs = 50
        options.steps = 30
        let explorer = try Explorer(catalog: catalog, options: options)
        let report = explorer.explore()
        let failure = try #require(report.failure)
        #expect(failure.check == .storeInvariant(store: "timer", name: "fewer than 3 ticks"))
        let minimal = failure.minimal.map(\.command)
        #expect(minimal.first == .dispatch(ActionInvocation(name: "start")))
        #expect(minimal.contains(.advance(nil)) && minimal.count <= 4, "\(minimal)")
        // NB: the steps fail the same way again, and the scenario is what `fluxsh test` replays.
        #expect(explorer.run(minimal) == failure.check)
        #expect(failure.scenario.contains("\nadvance\n=> tick\n"), "\(failure.scenario)")
        // The timer still runs at the end: the scenario cancels it, and fails only as explore did.
        #expect(failure.scenario.hasSuffix("invariants\ncancel\n"), "\(failure.scenario)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ticker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("found.scenario").path
        try failure.scenario.write(toFile: file, atomically: true, encoding: .utf8)
        let replay = ScenarioRunner(catalog: catalog).run(file)
        #expect(replay.report.count == 1, "\(replay.report)")
        #expect(replay.report.first?.contains("invariant 'fewer than 3 ticks' of store 'timer' does not hold") == true)
    }

    /// An effect's error is reported with its command, which explore does not take as refused.
    @Test func exploreDoesNotTakeAnEffectsErrorForARefusal() throws {
        let catalog = StoreCatalog([
            StoreDefinition(
                "failing", state: 0, reduce: Ticker.reduce, validate: { _, _ in },
                effect: { _, _, _ in throw Clocked.Failure() })
        ])
        var options = Explorer.Options(stores: ["failing"], seed: 1)
        options.runs = 5
        options.steps = 10
        let report = try Explorer(catalog: catalog, options: options).explore()
        #expect(report.failure == nil, "\(report.failure?.message ?? "")")
    }

    /// Dice whose effect rolls with the session's random numbers: explore seeds each run, and the
    /// saved scenario seeds them the same way, so it fails the same way under `test`.
    enum Dice {
        enum Action {
            case roll
            case rolled(Int)
        }
        static func reduce(_ last: inout Int, _ action: Action) {
            if case .rolled(let value) = action { last = value }
        }
        static func effect(_ action: Action, _ last: Int, _ context: EffectContext<Action>) async throws -> [Action] {
            guard case .roll = action else { return [] }
            var random = context.environment.random
            return [.rolled(Int.random(in: 1...20, using: &random))]
        }
    }

    @Test func exploreSeedsEachRunAndItsScenarioSeedsTheSame() throws {
        let catalog = StoreCatalog([
            StoreDefinition(
                "dice", state: 0, reduce: Dice.reduce, effect: Dice.effect,
                invariants: [StoreInvariant("never a 20") { $0 != 20 }])
        ])
        var options = Explorer.Options(stores: ["dice"], seed: 5)
        options.runs = 200
        options.steps = 10
        let report = try Explorer(catalog: catalog, options: options).explore()
        let failure = try #require(report.failure)
        #expect(failure.check == .storeInvariant(store: "dice", name: "never a 20"))
        #expect(failure.minimal.last?.command == .dispatch(ActionInvocation(name: "roll")))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dice-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("found.scenario").path
        try failure.scenario.write(toFile: file, atomically: true, encoding: .utf8)
        let replay = ScenarioRunner(catalog: catalog).run(file)
        #expect(!replay.passed)
        #expect(
            replay.report.first?.contains("invariant 'never a 20' of store 'dice' does not hold") == true,
            "\(replay.report)")
        // `seed` is a command of its own: the same seed gives the same rolls.
        let shell = Transcript(catalog: catalog)
        shell.run("load dice")
        shell.run("seed 9")
        shell.run("dispatch roll")
        let first = shell.run("state")
        shell.run("dispatch rolled 0")
        shell.run("seed 9")
        shell.run("dispatch roll")
        #expect(shell.run("state") == first)
        #expect(shell.run("seed -1").first?.hasPrefix("error: seed takes a whole number") == true)
    }
}
