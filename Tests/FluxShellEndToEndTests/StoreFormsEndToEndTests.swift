import FluxShellTestSupport
import Foundation
import Testing

/// Stores of other forms through a real executable (`planted-shell`): a ReSwift-style store of
/// struct actions and a class-based store object, explored, replayed and refused as a user sees it.
struct StoreFormsEndToEndTests {
    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private var shell: URL { Fluxsh.executable("planted-shell") }

    /// `explore` generates struct actions by name, finds the broken invariant, shrinks it, and
    /// saves a scenario in the same syntax that `test` replays (and fails, until it is fixed).
    @Test func exploreFindsABrokenInvariantOfAStoreOfStructActions() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let result = try Fluxsh.run(["explore", "ledger", "--seed", "1", "--no-color"], in: here, program: shell)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("the balance is never negative"), "\(result.stdout)")
        #expect(result.stdout.contains("  dispatch Withdraw amount: "), "\(result.stdout)")
        let scenario = try String(contentsOf: here.appendingPathComponent("explore-ledger-1.scenario"), encoding: .utf8)
        #expect(scenario.contains("load ledger\ndispatch Withdraw amount: "), "\(scenario)")
        let replay = try Fluxsh.run(["test", "--no-color", "explore-ledger-1.scenario"], in: here, program: shell)
        #expect(replay.status == 1, "\(replay.stdout)\(replay.stderr)")
    }

    /// A piped session on the same store: labels, positions, bare words, undo, and an error that
    /// changes nothing; `save` writes what `test` replays.
    @Test func aPipedSessionOnStructActionsReplays() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let script = """
            load ledger
            dispatch Deposit amount: 10
            dispatch Withdraw 3
            dispatch Deposit value: 1
            dispatch Close
            undo
            save session.scenario
            state
            """
        let result = try Fluxsh.run(["--no-color"], stdin: script + "\n", in: here, program: shell)
        #expect(
            result.stdout
                == "~ balance: 0 -> 10\n~ balance: 10 -> 7\n~ isClosed: false -> true\n~ isClosed: true -> false\n"
                + "saved 4 state-changing commands to session.scenario\n{\n  \"balance\": 7,\n  \"isClosed\": false\n}\n",
            "\(result.stdout)")
        #expect(
            result.stderr
                == "<stdin>:4: error: 'Deposit' has no argument 'value' (usage: dispatch Deposit amount: 1)\n",
            "\(result.stderr)")
        #expect(result.status == 1)
        let replay = try Fluxsh.run(
            ["test", "--no-color", "--exhaustive", "session.scenario"], in: here, program: shell)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    }

    /// A store object whose replay reaches another state: `undo` is refused and changes nothing,
    /// and `explore` reports the replay.
    @Test func aStoreObjectThatDoesNotReplayIsRefusedNeverWrong() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let result = try Fluxsh.run(
            ["--no-color"], stdin: "load meter\ndispatch tick\ndispatch tick\nundo\nstate\n", in: here, program: shell)
        #expect(result.stdout == "~ .: 0 -> 1\n~ .: 1 -> 2\n2\n", "\(result.stdout)")
        #expect(
            result.stderr.hasPrefix(
                "<stdin>:4: error: store 'meter' does not come back to that state: a new store sent the same 1 action reaches another"
            ), "\(result.stderr)")
        let explore = try Fluxsh.run(
            ["explore", "meter", "--seed", "1", "--runs", "20", "--no-color"], in: here, program: shell)
        #expect(explore.status == 1, "\(explore.stdout)\(explore.stderr)")
    }

    /// An action type that is a class stops the shell before anything runs, naming it.
    @Test func aClassActionTypeStopsTheShellAtStart() throws {
        let result = try Fluxsh.run(
            ["--no-color"], stdin: "load ledger\n", environment: ["PLANTED_CLASS_ACTION": "1"], program: shell)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(
            result.stderr
                == "error: store 'shouts': the action type Shout is a class (actions listed in actionTypes: are structs or enums, which the shell builds from text and keeps)\n",
            "\(result.stderr)")
    }
}
