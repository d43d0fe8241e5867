/// The whole app's state: one named list of to-dos and which of them the list shows.
public struct AppState: Equatable {
    public var listName = "To-do"
    public var todos: [Todo] = []
    public var visibility = VisibilityFilter.all
    /// The id of the next to-do added: ids come from the state, so the reducer stays pure.
    public var nextID = 1

    public init() {}

    /// The to-dos the list shows under its visibility filter.
    public var visibleTodos: [Todo] {
        switch visibility {
        case .all: todos
        case .active: todos.filter { !$0.completed }
        case .completed: todos.filter(\.completed)
        }
    }
}
