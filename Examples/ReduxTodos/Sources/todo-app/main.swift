import Dispatch
import Foundation
import MiniRedux
import TodoFeature

#if DEBUG
    import FluxShell
    import FluxShellAgent
#endif

// The to-do app, running, written as a ReSwift app is: one store on the main thread, a view that
// subscribes to it, and the user's intents dispatched as actions. Its "screen" is standard output
// (the list, after every change) and its input is a line typed on standard input:
//   add TITLE   toggle ID   edit ID TITLE   clear   show all|active|completed   rename NAME
// Its debug build serves its store to `todosh attach todos` (or `fluxsh attach todos`) through a
// middleware. Ctrl-C stops it.

/// Sets the whole state at once: how the shell's `undo`, `redo` and `reset` reach the store (the
/// "hydrate" action of a Redux app).
struct ReplaceState: Action {
    let state: AppState
}

/// The app's root reducer: `ReplaceState` sets the state; every other action goes to the feature.
func rootReducer(action: Action, state: AppState?) -> AppState {
    if let replace = action as? ReplaceState { return replace.state }
    return appReducer(action: action, state: state)
}

/// A line on standard output, written at once (a script waits for it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The list on screen: one line for every new state.
final class ListView: StoreSubscriber {
    func newState(state: AppState) {
        let items = state.visibleTodos.map { "[\($0.completed ? "x" : " ")] \($0.id) \($0.title)" }
        let list = items.isEmpty ? "nothing to do" : items.joined(separator: ", ")
        say("todo-app: \(state.listName) (\(state.visibility.rawValue)): \(list)")
    }
}

/// The action a typed line stands for, if it stands for one.
func intent(_ line: String) -> Action? {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    let rest = words.count > 1 ? words[1] : ""
    switch words.first {
    case "add": return AddTodo(title: rest)
    case "toggle": return Int(rest).map { ToggleTodo(id: $0) }
    case "edit":
        let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = Int(parts[0]) else { return nil }
        return EditTodo(id: id, title: parts[1])
    case "clear": return ClearCompleted()
    case "show": return VisibilityFilter(rawValue: rest).map { SetVisibility.show($0) }
    case "rename": return RenameToDoList(newName: rest)
    default: return nil
    }
}

let store = Store<AppState>(reducer: rootReducer, state: nil)
let listView = ListView()
store.subscribe(listView)

#if DEBUG
    /// Runs `body` on the main thread, where the store lives, and waits for it: the shell calls the
    /// closures below from a thread of its own.
    func onMain<Value>(_ body: () -> Value) -> Value {
        Thread.isMainThread ? body() : DispatchQueue.main.sync(execute: body)
    }

    /// The shell's tap, a middleware as ReSwift writes one: it tells `live` of each action after
    /// the reducer applied it.
    func shellMiddleware(_ live: LiveStore) -> Middleware<AppState> {
        { _, getState in
            { next in
                { action in
                    next(action)
                    if let state = getState() { live.record(action, state: state) }
                }
            }
        }
    }

    let live = LiveStore(
        as: "todos", state: { onMain { store.state } },
        actionTypes: [
            AddTodo.self, ToggleTodo.self, EditTodo.self, RenameToDoList.self, ClearCompleted.self,
            SetVisibility.self,
        ],
        send: { (action: Action) in onMain { store.dispatch(action) } },
        restore: { state in onMain { store.dispatch(ReplaceState(state: state)) } })
    store.middleware.append(shellMiddleware(live))
    // NB: caught, not thrown at the top level (which stops the app): the agent is a debugging
    // aid, and an app whose store cannot be served runs on without it.
    let agent: ShellAgent?
    do {
        agent = try ShellAgent(serving: [live], as: "todos")
        // NB: written at once, not buffered: a script waits for this line before it attaches.
        say("todo-app: serving its store; attach with: swift run todosh attach todos (in its package)")
    } catch {
        agent = nil
        say("todo-app: not served to todosh attach: \(error)")
    }
#endif

// The user's typing, read off the main thread; each intent is dispatched on it, whose run loop
// runs the app as an app's main thread does.
Thread.detachNewThread {
    while let line = readLine() {
        DispatchQueue.main.async {
            if let action = intent(line) { store.dispatch(action) }
        }
    }
}
RunLoop.main.run()
