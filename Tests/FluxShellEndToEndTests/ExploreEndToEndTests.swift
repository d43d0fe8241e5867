import FluxShellTestSupport
import Foundation
import Testing

/// `explore` through real executables: a trap in a mutation is a failure reported with its
/// shrunk actions, not the end of the shell; the same seed prints the same bytes.
struct ExploreEndToEndTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aTrapInAMutationIsShrunkAndSaved() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let shell = Fluxsh.executable("planted-shell")
        let result = try Fluxsh.run(["explore", "quotient", "--seed", "1", "--no-color"], in: here, program: shell)
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL: the last action trapped"))
        #expect(result.stdout.contains("Fatal error: Division by zero"))
        #expect(result.stdout.contains("shrunk from ") && result.stdout.contains(" to 1:\n  dispatch divide by: 0\n"))
        let scenario = try String(
            contentsOf: here.appendingPathComponent("explore-quotient-1.scenario"), encoding: .utf8)
        #expect(scenario.hasSuffix("load quotient\ndispatch divide by: 0\n"))
        // The scenario fails under `test` (it dies at its last line) until the bug is fixed.
        let replay = try Fluxsh.run(
            ["test", "explore-quotient-1.scenario"], environment: ["SWIFT_BACKTRACE": "enable=no"], in: here,
            program: shell)
        #expect(replay.status != 0)
    }

    /// Found in review: shrinking took any crash for the one found.
    @Test func shrinkingATrapKeepsItsFatalError() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let shell = Fluxsh.executable("planted-shell")
        let result = try Fluxsh.run(
            ["explore", "level", "--seed", "3", "--no-color", "--jobs", "2"], environment: ["TMPDIR": here.path],
            in: here,
            program: shell)
        #expect(result.status == 1)
        #expect(result.stdout.contains("Fatal error: A: above twenty"))
        #expect(result.stdout.contains(" to 1:\n  dispatch set 21\n"))
        // No file is left in the temporary folder (this test's own).
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: here.path).filter {
            $0.hasPrefix("planted-shell-explore-")
        }
        #expect(leftovers.isEmpty)
    }

    /// “fluxsh explore” in the reference: a mutation that depends on hash order fails the replay (a
    /// set's order depends on where its storage is, so a replay in the same process may differ, and
    /// the first runs are also replayed in another process, whose hash seed differs). Such a
    /// failure may not shrink: a shorter replay may allocate alike and print alike.
    @Test func aMutationThatDependsOnHashOrderFailsTheReplayInAnotherProcess() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let shell = Fluxsh.executable("planted-shell")
        let result = try Fluxsh.run(
            ["explore", "bag", "--seed", "1", "--runs", "20", "--no-color"], in: here, program: shell)
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL: replaying the same actions gave other states or diff lines"))
        // Its scenario fails under `test`, a process of its own.
        let replay = try Fluxsh.run(["test", "explore-bag-1.scenario"], in: here, program: shell)
        #expect(replay.status == 1)
    }

    /// A mutation whose output depends only on the process's hash seed prints alike in every
    /// replay of the exploring process: the runs replayed by `run FILE --format json` in another
    /// process find it, and it shrinks to the one action.
    @Test func anOrderThatOnlyAnotherProcessChangesIsFoundThere() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let shell = Fluxsh.executable("planted-shell")
        let result = try Fluxsh.run(
            ["explore", "tags", "--seed", "3", "--runs", "4", "--no-color"], in: here, program: shell)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "  replayed in another process (another hash seed), the same actions printed other lines"))
        #expect(result.stdout.contains("shrunk from ") && result.stdout.contains(" to 1:\n  dispatch fill\n"))
    }

    @Test func theSameSeedPrintsTheSameBytesAndAFailureIsSaved() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let arguments = [
            "explore", "counter", "--seed", "9", "--runs", "30", "--invariant", "count < 40", "--no-color",
        ]
        let saved = here.appendingPathComponent("explore-counter-9.scenario")
        let first = try Fluxsh.run(arguments, in: here)
        try FileManager.default.removeItem(at: saved)
        let second = try Fluxsh.run(arguments + ["--jobs", "3"], in: here)
        #expect(first.status == 1)
        // Only the elapsed time may differ, also with three jobs.
        func withoutTiming(_ text: String) -> String {
            text.replacing(/, [0-9.]+ s \([0-9]+ actions\/s\)/, with: "")
        }
        #expect(withoutTiming(first.stdout) == withoutTiming(second.stdout))
        #expect(first.stdout.contains("FAIL: invariant 'count < 40'"))
        // The header repeats the whole command, so that running it again finds the same failure.
        let header = try String(contentsOf: saved, encoding: .utf8).split(separator: "\n").first
        #expect(
            header?.hasPrefix("# Found by fluxsh explore counter --seed 9 --runs 30 --invariant 'count < 40': ") == true
        )
        // The checks are named alike whatever the outcome.
        #expect(first.stdout.contains("undo and redo restore, the process survives each action\n"))
        let test = try Fluxsh.run(["test", saved.path])
        #expect(test.status == 1)
        #expect(test.stdout.contains("expectation failed: count < 40"))
    }

    /// A run with no failure ends in its replay elsewhere: a child once inherited the worker's
    /// role from its environment and started another worker, and so on without end.
    @Test(.timeLimit(.minutes(1))) func aPassingExplorationEnds() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let result = try Fluxsh.run(
            ["explore", "todos", "--seed", "2", "--runs", "12", "--no-color", "--invariant", "todos[*].id < $nextID"],
            environment: ["TMPDIR": here.path], in: here)
        #expect(result.status == 0)
        #expect(result.stdout.contains("600 actions in 12 runs"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: here.path).isEmpty)
    }

    @Test func usageErrorsExitWithTwo() throws {
        let unknown = try Fluxsh.run(["explore", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("error: unknown store 'nope'"))
        let badInvariant = try Fluxsh.run(["explore", "todos", "--invariant", "todos[ == 1"])
        #expect(badInvariant.status == 2)
        #expect(badInvariant.stderr.contains("--invariant 'todos[ == 1'"))
    }

    /// Ctrl-C while exploring: no further run starts, and the report of the runs made is printed,
    /// marked as interrupted, with status 130.
    // NB: alone, this test takes a fraction of a second; beside the whole suite, the worker took up
    // to 40 s to begin its first run.
    @Test(.timeLimit(.minutes(2))) func anInterruptedExplorationReportsItsRuns() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let process = Process()
        process.executableURL = Fluxsh.binary
        process.arguments = ["explore", "todos", "--runs", "100000000", "--seed", "1", "--no-color"]
        process.currentDirectoryURL = here
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = here.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // NB: waits for the condition (the worker's journal of its first run, begun: its `# run 0`
        // line), not for a time. A run begun is a run reported: no further run starts once the
        // worker is stopped, but the one under way ends.
        func journalExists() -> Bool {
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: here.path)) ?? []
            return folders.contains { folder in
                let journal = here.appendingPathComponent(folder).appendingPathComponent("run.0.scenario").path
                return (try? String(contentsOfFile: journal, encoding: .utf8))?.hasPrefix("# run ") == true
            }
        }
        let limit = Date().addingTimeInterval(75)
        while !journalExists(), Date() < limit { usleep(10_000) }
        #expect(journalExists())
        process.interrupt()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        #expect(text.contains(", interrupted: no failure\n"), "\(text)")
        #expect(text.contains("dispatched  refused  changed state\n"))
    }

    /// Explorations with one seed on different stores, or the same one twice, each keep their
    /// scenario: the store is in the name, and a name already taken gets a number.
    @Test func noExplorationOverwritesAnothersScenario() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let counter = ["explore", "counter", "--seed", "9", "--runs", "30", "--invariant", "count < 40", "--no-color"]
        let todos = ["explore", "todos", "--seed", "9", "--runs", "30", "--invariant", "nextID < 3", "--no-color"]
        #expect(try Fluxsh.run(counter, in: here).stdout.contains("saved explore-counter-9.scenario "))
        #expect(try Fluxsh.run(todos, in: here).stdout.contains("saved explore-todos-9.scenario "))
        let again = try Fluxsh.run(counter, in: here)
        #expect(again.stdout.contains("saved explore-counter-9-2.scenario "))
        #expect(again.stderr.isEmpty)
        // A file named with --save is replaced, and the shell says so.
        let named = try Fluxsh.run(counter + ["--save", "explore-todos-9.scenario"], in: here)
        #expect(named.stderr == "warning: replaced 'explore-todos-9.scenario', which was there before\n")
        let files = try FileManager.default.contentsOfDirectory(atPath: here.path).filter { $0.hasSuffix(".scenario") }
        #expect(
            files.sorted() == [
                "explore-counter-9-2.scenario", "explore-counter-9.scenario", "explore-todos-9.scenario",
            ])
    }
}
