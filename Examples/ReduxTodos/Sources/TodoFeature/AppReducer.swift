import MiniRedux

/// The app's root reducer (a `Reducer<AppState>`): the to-do actions change the list, the
/// visibility actions go to `visibilityReducer`; any other action leaves the state as it is.
public func appReducer(action: Action, state: AppState?) -> AppState {
    var state = state ?? AppState()
    switch action {
    case let action as AddTodo where !action.title.isEmpty:
        state.todos.append(Todo(id: state.nextID, title: action.title))
        state.nextID += 1
    case let action as ToggleTodo:
        if let index = state.todos.firstIndex(where: { $0.id == action.id }) {
            state.todos[index].completed.toggle()
        }
    case let action as EditTodo where !action.title.isEmpty:
        if let index = state.todos.firstIndex(where: { $0.id == action.id }) {
            state.todos[index].title = action.title
        }
    case let action as RenameToDoList:
        state.listName = action.newName
    case is ClearCompleted:
        state.todos.removeAll(where: \.completed)
    case let action as SetVisibility:
        state.visibility = visibilityReducer(action: action, state: state.visibility)
    default:
        break
    }
    return state
}

/// The visibility filter's own reducer.
func visibilityReducer(action: SetVisibility, state: VisibilityFilter) -> VisibilityFilter {
    switch action {
    case .show(let filter):
        filter
    case .cycle:
        switch state {
        case .all: .active
        case .active: .completed
        case .completed: .all
        }
    }
}
