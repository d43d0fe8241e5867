import FluxShellTestSupport
import Foundation
import Testing

/// Effects that take time through a real executable (`planted-shell`'s `radar`): a piped
/// session that advances the clock and saves, the scenario `test` replays, a scenario that ends
/// with an effect running, and an effect that traps, in `test` and in `explore`.
struct EffectsEndToEndTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("effects-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private var shell: URL { Fluxsh.executable("planted-shell") }

    @Test func aPipedSessionAdvancesTheClockAndItsSavedScenarioReplays() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let script = """
            load radar
            dispatch sweep
            effects
            advance 0.4
            advance
            effects
            save session.scenario
            """
        let result = try Fluxsh.run(["--no-color"], stdin: script + "\n", in: here, program: shell)
        #expect(
            result.stdout == """
                ~ sweeping: false -> true
                effect 1 (line 2: sweep): waits 0.5 s on the clock
                (no changes)
                => contact echo-0001
                + contacts[0]: "echo-0001"
                ~ sweeping: true -> false
                (no effects running)
                saved 2 state-changing commands to session.scenario

                """, "\(result.stdout)\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
        let replay = try Fluxsh.run(
            ["test", "--no-color", "--exhaustive", "session.scenario"], in: here, program: shell)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    }

    @Test func aScenarioThatEndsWithAnEffectRunningFailsAndOneThatTrapsInAnEffectIsLocated() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        try "load radar\ndispatch sweep\n~ sweeping: false -> true\n".write(
            to: here.appendingPathComponent("running.scenario"), atomically: true, encoding: .utf8)
        try "load radar\ndispatch overload\n~ sweeping: false -> true\nadvance 2\n".write(
            to: here.appendingPathComponent("trap.scenario"), atomically: true, encoding: .utf8)
        let result = try Fluxsh.run(
            ["test", "--no-color", "running.scenario", "trap.scenario"], in: here, program: shell)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(
            output.contains("running.scenario:3: error: the scenario ends while an effect is still running"),
            "\(output)")
        #expect(output.contains("effect 1 (line 2: sweep): waits 0.5 s on the clock"), "\(output)")
        #expect(output.contains("trap.scenario:4: error: the process trapped here: "), "\(output)")
        #expect(output.contains("Index out of range"), "\(output)")
    }

    @Test func exploreFindsTheEffectThatTrapsAndShrinksToItsSteps() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let result = try Fluxsh.run(
            ["explore", "radar", "--seed", "2", "--no-color", "--runs", "20", "--steps", "10"], in: here,
            program: shell)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("  dispatch overload\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  advance\n"), "\(result.stdout)")
        let scenario = try String(contentsOf: here.appendingPathComponent("explore-radar-2.scenario"), encoding: .utf8)
        #expect(scenario.contains("dispatch overload\nadvance"), "\(scenario)")
        let replay = try Fluxsh.run(["test", "--no-color", "explore-radar-2.scenario"], in: here, program: shell)
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
        #expect((replay.stdout + replay.stderr).contains("trapped"), "\(replay.stdout)\(replay.stderr)")
    }

    /// An effect closure written in a shell's `main.swift` (the main actor's code) runs on the
    /// shell's thread like any other, rather than waiting for the main actor.
    @Test func anEffectWrittenInMainSwiftRuns() throws {
        let result = try Fluxsh.run(
            ["--no-color"], stdin: "load beacon\ndispatch sweep\nadvance 1\n", program: shell)
        #expect(result.stdout == "(no changes)\n=> clear\n~ .: 0 -> 1\n", "\(result.stdout)\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
