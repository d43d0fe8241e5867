import FluxShell

// Stores of the forms apps are written in, beside the built-in ones: a Redux app whose actions are
// types, a TCA feature whose actions carry `Result<…, any Error>` at any depth, and a class-based
// store that is an object. Their code is the app's, so it never traps on what text gives it
// (wrapping arithmetic, indexes checked).

// MARK: - A Redux app (ReSwift): a marker protocol that is not `Sendable`, actions that are types

protocol ReduxAction {}

struct Due {
    var day: Int
    var note: String?
}

struct ReduxState {
    enum Filter: String { case all, active, done }
    struct Todo {
        var id: Int
        var title: String
        var done = false
        var tags: [String] = []
        var due: Due?
    }
    var todos: [Todo] = []
    var nextID = 1
    var filter = Filter.all
    var archived: [Int] = []
    var outbox: [String] = []
}

struct AddTodo: ReduxAction { let title: String }
struct ToggleTodo: ReduxAction { let id: Int }
struct EditTodo: ReduxAction {
    let id: Int
    let title: String
    let tags: [String]?
}
struct SetDue: ReduxAction {
    let id: Int
    let due: Due?
}
struct ClearCompleted: ReduxAction {}
enum VisibilityAction: ReduxAction {
    case show(ReduxState.Filter)
    case cycle
    case clear
}
// Types of two features that share a last component, and a case name another type has too.
enum Inbox { struct Archive: ReduxAction { let id: Int } }
enum Outbox { struct Archive: ReduxAction { let id: Int } }
enum Compose: ReduxAction {
    case clear
    case send(to: String)
}

let reduxActionTypes: [Any.Type] = [
    AddTodo.self, ToggleTodo.self, EditTodo.self, SetDue.self, ClearCompleted.self, VisibilityAction.self,
    Inbox.Archive.self, Outbox.Archive.self, Compose.self,
]

func reduxReducer(action: ReduxAction, state: ReduxState?) -> ReduxState {
    var state = state ?? ReduxState()
    switch action {
    case let action as AddTodo:
        state.todos.append(.init(id: state.nextID, title: action.title))
        state.nextID &+= 1
    case let action as ToggleTodo:
        if let index = state.todos.firstIndex(where: { $0.id == action.id }) { state.todos[index].done.toggle() }
    case let action as EditTodo:
        if let index = state.todos.firstIndex(where: { $0.id == action.id }) {
            state.todos[index].title = action.title
            if let tags = action.tags { state.todos[index].tags = tags }
        }
    case let action as SetDue:
        if let index = state.todos.firstIndex(where: { $0.id == action.id }) { state.todos[index].due = action.due }
    case is ClearCompleted: state.todos.removeAll { $0.done }
    case VisibilityAction.show(let filter): state.filter = filter
    case VisibilityAction.cycle:
        state.filter =
            switch state.filter {
            case .all: .active
            case .active: .done
            case .done: .all
            }
    case VisibilityAction.clear: state.filter = .all
    case let action as Inbox.Archive: state.archived.append(action.id)
    case let action as Outbox.Archive: state.archived.append(0 &- action.id)
    case Compose.clear: state.outbox = []
    case Compose.send(let to): state.outbox.append(to)
    default: break
    }
    return state
}

/// A pure reducer, and a follow-up: each message sent is archived next.
let reduxStore = StoreDefinition(
    "redux", summary: "a Redux app: actions that are types", state: ReduxState(), actionTypes: reduxActionTypes,
    reducer: { action, state in reduxReducer(action: action, state: state) },
    effect: { action, state in
        if case Compose.send = action { return [Outbox.Archive(id: state.outbox.count) as any ReduxAction] }
        return []
    })

/// ReSwift's `Store`, an object whose actions are types.
final class ReduxStoreObject {
    var state = ReduxState()

    func dispatch(_ action: any ReduxAction) { state = reduxReducer(action: action, state: state) }
}

let reduxObjectStore = StoreDefinition(
    "rstore", summary: "a Redux store object", make: { ReduxStoreObject() }, state: { $0.state },
    actionTypes: reduxActionTypes, send: { store, action in store.dispatch(action) })

// MARK: - A TCA feature: `Result<…, any Error>` and nested struct payloads

struct Location {
    var id: Int
    var name: String
}

struct Forecast {
    var high: Int
    var low: Int
    var summary: String?
}

/// An error two levels down: a member of a struct in a payload.
struct Attempt {
    var retry: Result<Int, any Error>
    var notes: [String]
}

struct Report {
    var code: Int
    var error: any Error
    var attempt: Attempt?
}

struct Weather {
    struct State {
        var query = ""
        var forecast: Result<Int, any Error>?
        var locations: [Location] = []
        var detail: Result<Forecast, any Error>?
        var nested: Result<Result<Int, any Error>, any Error>?
        var reports: [Report] = []
        var error: (any Error)?
        var seen = ""
        var child = Child()
    }

    struct Child {
        var isOn = false
        var name = ""
        var last: Result<Int, any Error>?
    }

    enum Action {
        case searchQueryChanged(String)
        case forecastResponse(Result<Int, any Error>)
        case searchResponse(id: Int, Result<[Location], any Error>)
        case detail(Result<Forecast, any Error>)
        case nested(Result<Result<Int, any Error>, any Error>)
        case report(Report)
        case reports([Report])
        case fail(any Error)
        case setError((any Error)?)
        case child(ChildAction)
    }

    enum ChildAction {
        case toggle
        case rename(String)
        case response(Result<Int, any Error>)
    }

    enum Effect {
        case none
        case run
    }

    func reduce(into state: inout State, action: Action) -> Effect {
        switch action {
        case .searchQueryChanged(let query):
            state.query = query
            if query.isEmpty { state.locations = [] }
            return query.isEmpty ? .none : .run
        case .forecastResponse(let result):
            state.forecast = result
            if case .failure(let error) = result { state.seen = error.localizedDescription }
        case .searchResponse(let id, .success(let locations)):
            state.locations = locations.filter { $0.id != id }
        case .searchResponse(_, .failure(let error)):
            state.locations = []
            state.seen = "\(error)"
        case .detail(let result): state.detail = result
        case .nested(let result):
            state.nested = result
            if case .success(.failure(let error)) = result { state.seen = String(describing: error) }
        case .report(let report):
            state.reports.append(report)
            if case .failure(let error)? = report.attempt?.retry { state.seen = "\(error)" }
        case .reports(let reports): state.reports = reports
        case .fail(let error), .setError(let error?):
            state.error = error
            state.seen = "\(error)"
        case .setError(nil): state.error = nil
        case .child(.toggle): state.child.isOn.toggle()
        case .child(.rename(let name)): state.child.name = name
        case .child(.response(let result)): state.child.last = result
        }
        return .none
    }
}

/// A reducer that changes the state in place and returns an effect value, dropped.
let weatherStore = StoreDefinition(
    "weather", summary: "a TCA feature: Result<…, any Error> payloads", state: Weather.State(),
    reduce: { state, action in _ = Weather().reduce(into: &state, action: action) })

// MARK: - A class-based store (VueFlux): a class state of variables, changed by its commits

final class Variable<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

final class CounterState {
    let count = Variable(0)
    let step = Variable(1)
    let marks = Variable<[Int]>([])
    let label = Variable<String?>(nil)
}

final class CounterStore {
    enum Action {
        case increment
        case decrement
        case add(Int)
        case setStep(Int)
        case mark
        case clearMarks
        case label(String?)
        case batch([Action])
    }

    /// What the shell shows: the variables copied as values.
    struct Snapshot {
        var count: Int
        var step: Int
        var marks: [Int]
        var label: String?
    }

    let state = CounterState()

    var snapshot: Snapshot {
        Snapshot(count: state.count.value, step: state.step.value, marks: state.marks.value, label: state.label.value)
    }

    func commit(_ action: Action) {
        switch action {
        case .increment: state.count.value &+= state.step.value
        case .decrement: state.count.value &-= state.step.value
        case .add(let amount): state.count.value &+= amount
        case .setStep(let step): state.step.value = step
        case .mark: state.marks.value.append(state.count.value)
        case .clearMarks: state.marks.value = []
        case .label(let label): state.label.value = label
        case .batch(let actions): for action in actions { commit(action) }
        }
    }

    func restore(_ snapshot: Snapshot) {
        state.count.value = snapshot.count
        state.step.value = snapshot.step
        state.marks.value = snapshot.marks
        state.label.value = snapshot.label
    }
}

/// Undone, redone and reset by replay: a new store is sent the kept actions again.
let classStore = StoreDefinition(
    "vcounter", summary: "a class-based store, undone by replay", make: { CounterStore() }, state: { $0.snapshot },
    send: { store, action in store.commit(action) })

/// The same store, set by `restore:`.
let restoredClassStore = StoreDefinition(
    "vrestore", summary: "a class-based store, undone by restore", make: { CounterStore() },
    state: { $0.snapshot }, send: { store, action in store.commit(action) },
    restore: { store, snapshot in store.restore(snapshot) })

/// Every store a fuzz input runs against.
let fuzzCatalog = StoreCatalog(
    [reduxStore, reduxObjectStore, weatherStore, classStore, restoredClassStore] + StoreCatalog.builtIn.definitions)
