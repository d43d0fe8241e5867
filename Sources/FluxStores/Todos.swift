import FluxCore
import FluxShell

struct Todo: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var done = false
}

enum Filter: String, Codable, CaseIterable, Sendable {
    case all
    case active
    case done
}

struct TodosState: State, Codable, Equatable {
    /// NB: chunked, so toggling one todo among 100,000 copies one chunk, and the shell's diff
    /// skips the chunks that did not change.
    var todos: ChunkedArray<Todo> = []
    var filter: Filter = .all
    var nextID = 1
}

extension TodosState {
    /// The position of the todo with `id`. Ids only grow, and removal keeps the order, so the
    /// list is sorted by id: a binary search.
    func index(ofID id: Int) -> Int? {
        var low = 0
        var high = todos.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let candidate = todos[middle].id
            if candidate == id { return middle }
            if candidate < id { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }
}

enum TodosAction: Action, Codable, Equatable {
    case add(title: String)
    case toggle(id: Int)
    case rename(id: Int, title: String)
    case remove(id: Int)
    case setFilter(Filter)
    case clearDone
}

struct TodosMutation: Mutation {
    func mutate(action: TodosAction, state: inout TodosState) {
        switch action {
        case .add(let title):
            state.todos.append(Todo(id: state.nextID, title: title))
            state.nextID += 1
        case .toggle(let id):
            if let index = state.index(ofID: id) { state.todos[index].done.toggle() }
        case .rename(let id, let title):
            if let index = state.index(ofID: id) { state.todos[index].title = title }
        case .remove(let id):
            if let index = state.index(ofID: id) { state.todos.remove(at: index) }
        case .setFilter(let filter):
            state.filter = filter
        case .clearDone:
            state.todos.removeAll(where: \.done)
        }
    }
}

/// An unknown id is an error and changes nothing.
@Sendable
func validateTodos(_ action: TodosAction, _ state: TodosState) throws {
    let id: Int
    switch action {
    case .toggle(let target), .rename(let target, _), .remove(let target): id = target
    default: return
    }
    guard state.index(ofID: id) != nil else {
        let ids = state.todos.map { String($0.id) }
        throw ShellError(
            "no todo has id \(id)",
            hint: ids.isEmpty ? "the list is empty" : "ids: \(ids.prefix(20).joined(separator: ", "))")
    }
}

extension StoreDefinition {
    /// A todo list with ids, a filter, and an unknown id being an error.
    public static let todos = StoreDefinition(
        "todos", summary: "a todo list: add, toggle, rename, remove, setFilter, clearDone",
        state: TodosState(), mutation: TodosMutation(), validate: validateTodos
    ).demonstration()
}
