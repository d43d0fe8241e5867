import FluxShellFixtures
import FluxStores
import Foundation
import Testing

@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// A `! ` line whose command succeeds: an error after what the command printed, and what the
/// command did is taken back, so that the failed line changes nothing.
struct SessionRetractTests {
    /// Runs `script` as piped mode does; standard output's lines as `out: …` and standard
    /// error's as `err: …`, in the order they were written.
    private func run(_ script: String, catalog: StoreCatalog = .builtIn) -> (log: [String], session: Session) {
        run(script, in: Session(catalog: catalog))
    }

    private func run(_ script: String, in session: Session) -> (log: [String], session: Session) {
        var log: [String] = []
        let runner = ScriptRunner(
            session: session, options: ScriptRunner.Options(),
            output: Printer(
                renderer: Renderer(),
                streams: .lines(
                    standardOutput: { log.append("out: " + $0) }, standardError: { log.append("err: " + $0) })
            ))
        runner.run(Array(script.utf8), file: "s")
        return (log, session)
    }

    private static func tookBack(line: Int) -> String {
        "err: s:\(line): error: expected this command to fail, but it succeeded: what it did is taken back (remove the '! ' if it should succeed)"
    }

    private func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("retract-\(UUID().uuidString).scenario").path
    }

    @Test func aFluxCoreStoreIsAsIfTheLineHadNotRun() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (log, _) = run(
            "load counter\ndispatch increment\n! dispatch increment\nstate count\nhistory\nsave \(file)\nundo\nredo\nredo\n"
        )
        #expect(
            log == [
                "out: ~ count: 0 -> 1",
                // What the command printed comes first, then the error: in the order they happened.
                "out: ~ count: 1 -> 2",
                Self.tookBack(line: 3),
                "out: 1",
                "out:   1  increment",
                "out: saved 1 state-changing command to \(file)",
                "out: ~ count: 1 -> 0",
                "out: ~ count: 0 -> 1",
                "err: s:9: error: nothing to redo",
            ])
        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved.components(separatedBy: "\n").filter { $0.hasPrefix("dispatch") } == ["dispatch increment"])
        #expect(saved.contains(#"expect . == {"count":1}"#))
    }

    /// The undone steps a new step would have discarded are still there to redo.
    @Test func aReducerStoreKeepsItsUndoneStepsAndItsHistory() {
        let (log, session) = run(
            "load tca\ndispatch add 5\ndispatch increment\nundo\n! dispatch add 10\nhistory\nredo\nstate count\n",
            catalog: StoreCatalog([StoreForms.counter]))
        #expect(
            log == [
                "out: ~ count: 0 -> 5",
                "out: ~ count: 5 -> 6",
                "out: ~ count: 6 -> 5",
                "out: ~ count: 5 -> 15",
                Self.tookBack(line: 5),
                "out:   1  add 5",
                "out:   2  increment   (undone)",
                "out: ~ count: 5 -> 6",
                "out: 6",
            ])
        #expect(session.undoableSteps == 2)
    }

    @Test func aPureReducerWithActionTypesIsTakenBackToo() {
        let (log, _) = run(
            "load redux\ndispatch AddTodo milk\n! dispatch ToggleTodo 0\nstate todos[0].done\nundo\nundo\n",
            catalog: StoreCatalog([StoreForms.reduxTodos]))
        #expect(
            log == [
                #"out: + todos[0]: {"title":"milk","done":false}"#,
                "out: ~ todos[0].done: false -> true",
                Self.tookBack(line: 3),
                "out: false",
                "out: - todos[0]: {\"title\":\"milk\",\"done\":false}",
                "err: s:6: error: nothing to undo",
            ])
    }

    /// A store object has no state value to keep: it is set back as `undo` sets it (here a new
    /// store, sent the kept actions again).
    @Test func aStoreObjectIsSetBackAsUndoSetsIt() {
        let (log, _) = run(
            "load vue\ndispatch add 2\n! dispatch increment\nstate\ndispatch increment\n",
            catalog: StoreCatalog([StoreForms.vue]))
        #expect(
            log == [
                "out: ~ count: 0 -> 2", "out: + history[0]: 2",
                "out: ~ count: 2 -> 3", "out: + history[1]: 3",
                Self.tookBack(line: 3),
                "out: {", #"out:   "count": 2,"#, #"out:   "history": ["#, "out:     2", "out:   ]", "out: }",
                "out: ~ count: 2 -> 3", "out: + history[1]: 3",
            ])
    }

    /// A store that cannot come back to its state leaves everything as it is, and says so.
    @Test func aStoreThatCannotComeBackSaysWhatStands() {
        let drifting = StoreDefinition(
            "drift", make: { DriftingStore() }, state: { $0.state }, send: { store, action in store.send(action) })
        let (log, session) = run(
            "load drift\ndispatch increment\n! dispatch increment\n", catalog: StoreCatalog([drifting]))
        #expect(log.count == 3)
        #expect(
            log.last?.hasPrefix(
                "err: s:3: error: expected this command to fail, but it succeeded, and what it did stands: store 'drift' does not come back to that state"
            ) == true, "\(log)")
        #expect(session.undoableSteps == 2)
    }

    @Test func undoRedoResetAndSessionSettingsAreTakenBack() {
        let (log, session) = run(
            """
            load counter
            load todos
            dispatch add title: milk
            ! undo
            state todos.count
            ! reset
            ! use counter
            ! watch nextID
            ! exhaustive on
            ! quit
            dispatch add title: tea
            history
            """)
        #expect(
            log == [
                #"out: + todos.todos[0]: {"id":1,"title":"milk","done":false}"#, "out: ~ todos.nextID: 1 -> 2",
                #"out: - todos.todos[0]: {"id":1,"title":"milk","done":false}"#, "out: ~ todos.nextID: 2 -> 1",
                Self.tookBack(line: 4),
                "out: 1",
                #"out: - todos.todos[0]: {"id":1,"title":"milk","done":false}"#, "out: ~ todos.nextID: 2 -> 1",
                Self.tookBack(line: 6),
                Self.tookBack(line: 7),
                Self.tookBack(line: 8),
                Self.tookBack(line: 9),
                Self.tookBack(line: 10),
                // Still the todos store, unwatched, not exhaustive, and the script went on.
                #"out: + todos.todos[1]: {"id":2,"title":"tea","done":false}"#, "out: ~ todos.nextID: 2 -> 3",
                "out:   1  add title: milk",
                "out:   2  add title: tea",
            ])
        #expect(session.activeAlias == "todos")
        #expect(!session.isExhaustive)
    }

    /// The effects it started are cancelled, and the ids it drew are drawn again.
    @Test func theEffectsItStartedAndTheIdsItDrewAreTakenBack() {
        let (log, _) = run(
            "load clocked\n! dispatch search ab\neffects\n! dispatch newID\ndispatch newID\n", catalog: Clocked.catalog)
        #expect(
            log == [
                #"out: ~ query: "" -> "ab""#,
                Self.tookBack(line: 2),
                "out: (no effects running)",
                #"out: => stamped "00000000-0000-0000-0000-000000000001""#,
                #"out: + ids[0]: "00000000-0000-0000-0000-000000000001""#,
                Self.tookBack(line: 4),
                #"out: => stamped "00000000-0000-0000-0000-000000000001""#,
                #"out: + ids[0]: "00000000-0000-0000-0000-000000000001""#,
            ])
    }

    /// What cannot be taken back is said: a file written, a store loaded.
    @Test func whatCannotBeTakenBackIsSaid() {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (log, _) = run("! load counter\n! save \(file)\n")
        #expect(
            log == [
                "err: s:1: error: expected this command to fail, but it succeeded, and what it did stands: the store it loaded stays loaded (remove the '! ' if it should succeed)",
                "out: saved 0 state-changing commands to \(file)",
                "err: s:2: error: expected this command to fail, but it succeeded, and what it did stands: it wrote '\(file)' (remove the '! ' if it should succeed)",
            ])
    }

    /// Attached, the action ran in the app: it stands, and the error says so.
    @Test func anAttachedAppsActionStands() throws {
        let app = try LiveSessionTests.App()
        let (log, session) = run("! dispatch bump\nstate bumps\n", in: app.session)
        #expect(
            log == [
                "out: ~ bumps: 0 -> 1",
                "err: s:1: error: expected this command to fail, but it succeeded, and what it did stands: it ran in the app, which the shell cannot take back (remove the '! ' if it should succeed)",
                "out: 1",
            ])
        #expect(session.undoableSteps == 1)
    }

    /// In a scenario, the line fails, and the lines after it see the session as if it had not run.
    @Test func aScenarioGoesOnAsIfTheLineHadNotRun() throws {
        let file = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        try "load counter\n! dispatch increment\nexpect count == 0\ndispatch increment\n~ count: 0 -> 1\n".write(
            toFile: file, atomically: true, encoding: .utf8)
        let result = ScenarioRunner(catalog: .builtIn).run(file)
        #expect(
            result.report == [
                "\(file):2: error: expected this command to fail, but it succeeded: what it did is taken back (remove the '! ' if it should succeed)"
            ])
    }
}
