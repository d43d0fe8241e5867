import FluxShell
import FluxShellCommand
import TodoFeature

// The whole shell: the app's ReSwift reducer and its action types, registered in one expression.
let todos = StoreDefinition(
    "todos", summary: "a ReSwift to-do list: add, toggle, edit, rename, clear, filter", state: AppState(),
    actionTypes: [
        AddTodo.self, ToggleTodo.self, EditTodo.self, RenameToDoList.self, ClearCompleted.self, SetVisibility.self,
    ],
    reducer: { action, state in appReducer(action: action, state: state) })
FluxShellMain.run(catalog: StoreCatalog([todos]))
