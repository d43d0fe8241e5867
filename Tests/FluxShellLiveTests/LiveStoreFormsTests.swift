import Dispatch
import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// A ReSwift-like store: a class that runs a pure reducer and then its middleware, which is where
/// an app taps its actions for the shell.
final class ReduxStore: @unchecked Sendable {
    // NB: @unchecked Sendable for the tests: every access is on the thread of `dispatch`, or of
    // `queue` when one is given.
    private(set) var state = ReduxState()
    var afterReduce: [(ReduxAction, ReduxState) -> Void] = []
    /// A middleware before the reducer: the actions it lets through instead of the one dispatched.
    var middleware: ((ReduxAction) -> [ReduxAction])?
    /// Where the store applies the actions it is sent, when not on the sender's thread.
    let queue: DispatchQueue?

    init(queue: DispatchQueue? = nil) { self.queue = queue }

    /// `dispatch` applies the action on the queue's own thread, as an app's main thread would
    /// (`queue.sync` may run it on the caller's).
    var appliesOnQueueThread = false

    func dispatch(_ action: ReduxAction) {
        guard let queue else { return apply(action) }
        guard appliesOnQueueThread else { return queue.sync { apply(action) } }
        let done = DispatchSemaphore(value: 0)
        let action = AppValue(action)
        queue.async {
            self.apply(action.value)
            done.signal()
        }
        done.wait()
    }

    /// Queues actions of the app's own on the store's queue, applied once `gate` is signalled.
    func dispatchLater(_ actions: [ReduxAction], after gate: DispatchSemaphore) {
        let actions = AppValue(actions)
        queue!.async {
            gate.wait()
            for action in actions.value { self.apply(action) }
        }
    }

    func apply(_ action: ReduxAction) {
        for action in middleware?(action) ?? [action] {
            state = reduxReducer(action: action, state: state)
            for hook in afterReduce { hook(action, state) }
        }
    }

    /// Sets the state as a ReSwift app does, through an action its middleware sees too.
    func replace(_ state: ReduxState) {
        self.state = state
        for hook in afterReduce { hook(ReplaceState(state: state), state) }
    }
}

struct Rename: ReduxAction {
    let title: String
}

struct ReplaceState: ReduxAction {
    let state: ReduxState
}

struct LiveStoreFormsTests {
    static let actionTypes: [Any.Type] = [AddTodo.self, ToggleTodo.self, ClearCompleted.self, VisibilityAction.self]

    /// The app: its store served through a middleware tap, and a session attached to it.
    final class App {
        let store: ReduxStore
        let live: LiveStore
        let shell: Transcript
        var session: Session { shell.session }

        init(restores: Bool = true, queue: DispatchQueue? = nil) throws {
            let store = ReduxStore(queue: queue)
            self.store = store
            live = LiveStore(
                as: "todos", state: { store.state }, actionTypes: LiveStoreFormsTests.actionTypes,
                send: { store.dispatch($0) }, restore: restores ? { store.replace($0) } : nil)
            let live = self.live
            store.afterReduce.append { action, state in live.record(action, state: state) }
            shell = Transcript(session: try Session(attachingTo: [live], wake: {}))
        }

        func appLines() -> [String] {
            var output = OutputBuffer()
            for step in session.takeAppSteps() { Renderer().write(step, to: &output) }
            return output.text.split(separator: "\n").map(String.init)
        }
    }

    @Test func theAppsStructActionsAreStepsWrittenByTheirTypes() throws {
        let app = try App()
        app.store.dispatch(AddTodo(title: "Milk"))
        app.store.dispatch(VisibilityAction.show(.done))
        #expect(
            app.appLines() == [
                "<= AddTodo title: Milk", #"+ todos[0]: {"title":"Milk","done":false}"#, "<= show done",
                #"~ filter: "all" -> "done""#,
            ])
        #expect(app.shell.run("history") == ["  1  AddTodo title: Milk", "  2  show done"])
    }

    /// An action the store was not given the type of is written by its type and properties,
    /// never as a case it is not.
    @Test func anUnlistedStructActionIsWrittenByItsType() throws {
        let app = try App()
        app.store.dispatch(Rename(title: "Groceries"))
        #expect(app.appLines() == [#"<= Rename title: Groceries"#, "(no changes)"])
    }

    @Test func theShellsActionGoesThroughSendAndIsItsOwn() throws {
        let app = try App()
        #expect(app.shell.run("dispatch AddTodo title: \"Tea\"") == [#"+ todos[0]: {"title":"Tea","done":false}"#])
        #expect(app.store.state.todos.map(\.title) == ["Tea"])
        #expect(app.appLines() == [])
        #expect(app.shell.run("dispatch ToggleTodo 0") == ["~ todos[0].done: false -> true"])
        #expect(app.shell.run("dispatch ClearCompleted") == [#"- todos[0]: {"title":"Tea","done":true}"#])
        #expect(app.shell.run("actions").first == "AddTodo(title: String)")
    }

    /// A store that applies what it is sent on a thread of its own (a TCA store's main actor):
    /// what its hook records while `send` runs is still the shell's.
    @Test func aStoreThatAppliesOnItsOwnThreadStillShowsTheShellsActionAsItsOwn() throws {
        let app = try App(queue: DispatchQueue(label: "the app's store"))
        #expect(app.shell.run("dispatch AddTodo title: \"Tea\"") == [#"+ todos[0]: {"title":"Tea","done":false}"#])
        #expect(app.appLines() == [])
        app.store.dispatch(AddTodo(title: "Milk"))
        #expect(app.appLines() == ["<= AddTodo title: Milk", #"+ todos[1]: {"title":"Milk","done":false}"#])
    }

    /// A store that applies on its own queue, with the app's actions queued there before the
    /// shell's: they are the app's (`<=`), and the shell's diff holds its own change only.
    @Test func theAppsActionsQueuedBeforeTheShellsAreTheAppsOwn() throws {
        let queue = DispatchQueue(label: "the app's store")
        let store = ReduxStore(queue: queue)
        let gate = DispatchSemaphore(value: 0)
        let live = LiveStore(
            as: "todos", state: { queue.sync { store.state } }, actionTypes: Self.actionTypes,
            send: { action in
                gate.signal()
                store.dispatch(action)
            })
        store.afterReduce.append { action, state in live.record(action, state: state) }
        let shell = Transcript(session: try Session(attachingTo: [live], wake: {}))
        store.dispatchLater([AddTodo(title: "a1"), AddTodo(title: "a2")], after: gate)
        #expect(shell.run("dispatch AddTodo title: \"Tea\"") == [#"+ todos[2]: {"title":"Tea","done":false}"#])
        var output = OutputBuffer()
        for step in shell.session.takeAppSteps() { Renderer().write(step, to: &output) }
        #expect(
            output.text.split(separator: "\n").map(String.init) == [
                "<= AddTodo title: a1", #"+ todos[0]: {"title":"a1","done":false}"#, "<= AddTodo title: a2",
                #"+ todos[1]: {"title":"a2","done":false}"#,
            ])
        #expect(
            shell.run("history") == ["  1  AddTodo title: a1", "  2  AddTodo title: a2", "  3  AddTodo title: Tea"])
    }

    /// A store restored on its own queue, with the app's actions queued there before the
    /// restore: their order against it is unknown, so the shell says it missed them and takes the
    /// newest state, never a diff against a state the app did not have; the app's `state` is
    /// read only when the shell attaches (it may wait for the app's thread).
    @Test func theAppsActionsDuringARestoreOnItsQueueAreToldMissed() throws {
        let queue = DispatchQueue(label: "the app's store")
        let store = ReduxStore(queue: queue)
        let gate = DispatchSemaphore(value: 0)
        let reads = LockedValue(0)
        let live = LiveStore(
            as: "todos",
            state: {
                reads.withLock { $0 += 1 }
                return queue.sync { store.state }
            }, actionTypes: Self.actionTypes, send: { store.dispatch($0) },
            restore: { state in
                gate.signal()
                queue.sync { store.replace(state) }
            })
        store.afterReduce.append { action, state in live.record(action, state: state) }
        let shell = Transcript(session: try Session(attachingTo: [live], wake: {}))
        let readsAtAttach = reads.withLock { $0 }
        _ = shell.run("dispatch AddTodo title: \"Tea\"")
        store.dispatchLater([AddTodo(title: "a1")], after: gate)
        #expect(
            shell.run("undo") == [
                #"- todos[0]: {"title":"Tea","done":false}"#,
                "(undid step 1: AddTodo title: Tea, which this shell dispatched)",
            ])
        #expect(queue.sync { store.state.todos.isEmpty })
        var output = OutputBuffer()
        for step in shell.session.takeAppSteps() { Renderer().write(step, to: &output) }
        #expect(output.text.hasPrefix("(1 change dropped)\n"), "\(output.text)")
        #expect(shell.run("state todos") == ["[]"])
        // Read once more: the state the restore left, read back (outside the feed's lock).
        #expect(reads.withLock { $0 } == readsAtAttach + 1)
    }

    /// A restore the app applies on its own thread, through an action its hook records there:
    /// that action is the restore's, not the app's, and nothing is said to be missed.
    @Test func aRestoreAppliedOnTheAppsThreadIsNotTheAppsAction() throws {
        let queue = DispatchQueue(label: "the app's store")
        let store = ReduxStore(queue: queue)
        let live = LiveStore(
            as: "todos", state: { queue.sync { store.state } }, actionTypes: Self.actionTypes,
            send: { store.dispatch($0) },
            restore: { state in
                // NB: on the queue's own thread, as an app's main thread would apply it.
                let done = DispatchSemaphore(value: 0)
                queue.async {
                    store.replace(state)
                    done.signal()
                }
                done.wait()
            })
        store.afterReduce.append { action, state in live.record(action, state: state) }
        let shell = Transcript(session: try Session(attachingTo: [live], wake: {}))
        _ = shell.run("dispatch AddTodo title: \"Tea\"")
        #expect(
            shell.run("undo") == [
                #"- todos[0]: {"title":"Tea","done":false}"#,
                "(undid step 1: AddTodo title: Tea, which this shell dispatched)",
            ])
        var output = OutputBuffer()
        for step in shell.session.takeAppSteps() { Renderer().write(step, to: &output) }
        #expect(output.text.isEmpty, "\(output.text)")
        #expect(shell.run("history") == ["  1  AddTodo title: Tea   (undone)"])
    }

    /// A middleware of the app's that drops the shell's action and dispatches another, on the
    /// app's thread: what it applied prints as the command's follow-up, after its echo, never as
    /// an action of the app's before it.
    @Test(arguments: [false, true])
    func anActionTheAppsMiddlewareReplacesShowsWhatItAppliedInstead(onTheAppsThread: Bool) throws {
        let app = try App(queue: DispatchQueue(label: "the app's store"))
        app.store.appliesOnQueueThread = onTheAppsThread
        app.store.middleware = { action in
            guard let toggle = action as? ToggleTodo, toggle.index == 77 else { return [action] }
            return [VisibilityAction.show(.done)]
        }
        #expect(app.shell.run("dispatch ToggleTodo 77") == ["=> show done", #"~ filter: "all" -> "done""#])
        #expect(app.appLines() == [])
        #expect(app.shell.run("history") == ["  1  ToggleTodo 77", "     => show done"])
        #expect(app.shell.run("dispatch AddTodo title: x") == [#"+ todos[0]: {"title":"x","done":false}"#])
    }

    /// A middleware that reacts to the restore's own action on the app's thread: its reaction is
    /// part of the restore, so undo and redo keep their place and save blames no slow reader.
    @Test func theAppsReactionToARestoreIsPartOfTheRestore() throws {
        let queue = DispatchQueue(label: "the app's store")
        let store = ReduxStore(queue: queue)
        let live = LiveStore(
            as: "todos", state: { queue.sync { store.state } }, actionTypes: Self.actionTypes,
            send: { store.dispatch($0) }, restore: { state in queue.sync { store.replace(state) } })
        store.afterReduce.append { action, state in live.record(action, state: state) }
        store.afterReduce.append { action, _ in
            if action is ReplaceState { store.apply(VisibilityAction.show(.active)) }
        }
        let shell = Transcript(session: try Session(attachingTo: [live], wake: {}))
        _ = shell.run("dispatch AddTodo title: Tea")
        #expect(
            shell.run("undo") == [
                #"- todos[0]: {"title":"Tea","done":false}"#, #"~ filter: "all" -> "active""#,
                "(undid step 1: AddTodo title: Tea, which this shell dispatched)",
            ])
        #expect(shell.session.takeAppSteps().isEmpty)
        #expect(
            shell.run("redo") == [
                #"+ todos[0]: {"title":"Tea","done":false}"#,
                "(redid step 1: AddTodo title: Tea, which this shell dispatched)",
            ])
        #expect(shell.session.takeAppSteps().isEmpty)
        #expect(shell.run("history") == ["  1  AddTodo title: Tea"])
        #expect(shell.run("save /dev/null").first?.hasPrefix("error") != true)
    }

    @Test func undoSetsTheAppsStoreThroughRestore() throws {
        let app = try App()
        app.store.dispatch(AddTodo(title: "Milk"))
        _ = app.shell.run("dispatch AddTodo \"Tea\"")
        #expect(app.appLines() == ["<= AddTodo title: Milk", #"+ todos[0]: {"title":"Milk","done":false}"#])
        #expect(
            app.shell.run("undo") == [
                #"- todos[1]: {"title":"Tea","done":false}"#,
                "(undid step 2: AddTodo Tea, which this shell dispatched)",
            ])
        #expect(app.store.state.todos.map(\.title) == ["Milk"])
        #expect(app.shell.run("reset") == [#"- todos[0]: {"title":"Milk","done":false}"#])
        #expect(app.store.state.todos.isEmpty)
        // What the hook recorded while the shell set the state is not an action of the app's.
        #expect(app.appLines() == [])
        #expect(
            app.shell.run("history") == [
                "  1  AddTodo title: Milk", "     (step 2 was undone, then replaced)", "  3  reset",
            ])
    }

    @Test func withoutRestoreUndoIsRefusedAndChangesNothing() throws {
        let app = try App(restores: false)
        _ = app.shell.run("dispatch AddTodo \"Tea\"")
        #expect(
            app.shell.run("undo") == [
                "error: the running app's store 'todos' cannot be set: its LiveStore was given no restore: (undo, redo and reset need LiveStore(…, restore: { state in … }) in the app)"
            ])
        #expect(app.shell.run("reset").first?.hasPrefix("error: the running app's store 'todos' cannot be set") == true)
        #expect(app.store.state.todos.map(\.title) == ["Tea"])
        #expect(app.shell.run("history") == ["  1  AddTodo Tea"])
    }

    @Test func recordingWithoutAShellCostsOnlyACheck() throws {
        let store = ReduxStore()
        let live = LiveStore(
            as: "todos", state: { store.state }, actionTypes: Self.actionTypes, send: { store.dispatch($0) })
        store.afterReduce.append { action, state in live.record(action, state: state) }
        for index in 0..<100 { store.dispatch(AddTodo(title: "\(index)")) }
        #expect(store.state.todos.count == 100)
        // A shell that attaches then starts from the state now.
        let shell = Transcript(session: try Session(attachingTo: [live], wake: {}))
        #expect(shell.run("state todos[99].title") == [#""99""#])
    }

    @Test func theRecorderWritesAScenarioThatTheRegisteredStoreReplays() throws {
        let store = ReduxStore()
        let live = LiveStore(
            as: "redux", state: { store.state }, actionTypes: Self.actionTypes, send: { store.dispatch($0) })
        store.afterReduce.append { action, state in live.record(action, state: state) }
        let path = ScenarioRecorderTests.scratchFile("redux.scenario")
        let recorder = try ScenarioRecorder(recording: live, to: path)
        store.dispatch(AddTodo(title: "say \"hi\""))
        store.dispatch(ToggleTodo(index: 0))
        store.dispatch(ClearCompleted())
        store.dispatch(AddTodo(title: "Eggs"))
        store.dispatch(VisibilityAction.show(.active))
        try recorder.finish()
        let lines = try ScenarioRecorderTests.lines(of: path)
        #expect(
            Array(lines.prefix(6)) == [
                "load redux", #"dispatch AddTodo title: "say \"hi\"""#, "dispatch ToggleTodo index: 0",
                "dispatch ClearCompleted", "dispatch AddTodo title: Eggs", "dispatch show active",
            ])
        let result = ScenarioRunner(catalog: StoreCatalog([StoreForms.reduxTodos])).run(path)
        #expect(result.passed, "\(result.failures.map(\.message))")
    }
}
