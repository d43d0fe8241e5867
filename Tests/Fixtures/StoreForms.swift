import FluxShellSession
import Synchronization

// A Redux app as ReSwift writes it: a marker protocol that is not `Sendable`, actions that are
// structs (one without stored properties) and an enum, a pure reducer that switches on types.
package protocol ReduxAction {}

package struct AddTodo: ReduxAction {
    package let title: String
    package init(title: String) { self.title = title }
}

package struct ToggleTodo: ReduxAction {
    package let index: Int
    package init(index: Int) { self.index = index }
}

package struct ClearCompleted: ReduxAction { package init() {} }

package enum VisibilityAction: ReduxAction {
    case show(ReduxState.Filter)
    case clear
}

package struct ReduxState {
    package enum Filter: String { case all, active, done }
    package struct Todo {
        package var title: String
        package var done = false
    }
    package var todos: [Todo] = []
    package var filter = Filter.all
    package init() {}
}

package func reduxReducer(action: ReduxAction, state: ReduxState?) -> ReduxState {
    var state = state ?? ReduxState()
    switch action {
    case let action as AddTodo: state.todos.append(.init(title: action.title))
    case let action as ToggleTodo where state.todos.indices.contains(action.index):
        state.todos[action.index].done.toggle()
    case is ClearCompleted: state.todos.removeAll { $0.done }
    case VisibilityAction.show(let filter): state.filter = filter
    case VisibilityAction.clear: state.filter = .all
    default: break
    }
    return state
}

// Types of two features that share a last component, as two modules' would.
package enum Inbox {
    package struct Archive: ReduxAction {
        package let id: Int
        package init(id: Int) { self.id = id }
    }
}
package enum Outbox {
    package struct Archive: ReduxAction {
        package let id: Int
        package init(id: Int) { self.id = id }
    }
}
package enum Compose: ReduxAction { case clear, send }

package final class ClassAction: ReduxAction { package init() {} }

// Listed types that are easy to name or print wrongly.
package struct Wrapper<Value>: ReduxAction {
    package let value: Value
    package init(value: Value) { self.value = value }
}
package enum Feature<Value> {
    package struct Load: ReduxAction {
        package let id: Int
        package init(id: Int) { self.id = id }
    }
}
package enum Overloaded: ReduxAction {
    case add(Int)
    case add(title: String)
}
package struct Priority: ReduxAction, RawRepresentable {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}
package enum Level: String, ReduxAction {
    case low = "LOW"
    case high = "HIGH"
}

// A TCA feature: `reduce(into:action:)` on a state with a child's, returning an effect value.
package struct CounterFeature {
    package struct State: Equatable {
        package var count = 0
        package var child = Child()
        package init() {}
    }
    package struct Child: Equatable {
        package var isOn = false
        package init() {}
    }
    package enum Action {
        case increment
        case add(Int)
        case child(ChildAction)
    }
    package enum ChildAction { case toggle }
    package enum Effect { case none, run }

    package func reduce(into state: inout State, action: Action) -> Effect {
        switch action {
        case .increment: state.count += 1
        case .add(let amount): state.count += amount
        case .child(.toggle): state.child.isOn.toggle()
        }
        return .none
    }
}

// A VueFlux store: a class state of observable variables, changed in place by its commits.
package final class Variable<Value> {
    package var value: Value
    package init(_ value: Value) { self.value = value }
}

package final class VueState {
    package let count = Variable(0)
    package let history = Variable<[Int]>([])
    package init() {}
}

package final class VueStore {
    package let state = VueState()
    // NB: nonisolated(unsafe) is safe: one test uses this instance, from one thread (a store
    // object that is not Sendable, as VueFlux's are, cannot be a Sendable static).
    package nonisolated(unsafe) static let shared = VueStore()

    package init() {}

    package enum Action {
        case increment
        case add(Int)
    }

    package struct Snapshot {
        package var count: Int
        package var history: [Int]
    }

    package var snapshot: Snapshot { Snapshot(count: state.count.value, history: state.history.value) }

    package func commit(_ action: Action) {
        switch action {
        case .increment: state.count.value += 1
        case .add(let amount): state.count.value += amount
        }
        state.history.value.append(state.count.value)
    }
}

/// A store whose every action reads the world: made again, it reaches another state.
package final class DriftingStore {
    /// Counts every action of every such store, in every test running at the same time.
    private static let ticks = Atomic(0)
    package var state = 0

    package init() {}

    package func send(_ action: VueStore.Action) {
        state = DriftingStore.ticks.add(1, ordering: .relaxed).newValue
    }
}

/// The stores above registered with the shell, as their apps would register them.
package enum StoreForms {
    package static let reduxTodos = StoreDefinition(
        "redux", state: ReduxState(),
        actionTypes: [AddTodo.self, ToggleTodo.self, ClearCompleted.self, VisibilityAction.self],
        reducer: { action, state in reduxReducer(action: action, state: state) })

    package static let counter = StoreDefinition(
        "tca", state: CounterFeature.State(),
        reduce: { state, action in _ = CounterFeature().reduce(into: &state, action: action) })

    package static let vue = StoreDefinition(
        "vue", make: { VueStore() }, state: { $0.snapshot }, send: { store, action in store.commit(action) })

    /// The VueFlux-style store with `restore:`, which sets its variables.
    package static let restorable = StoreDefinition(
        "restorable", make: { VueStore() }, state: { $0.snapshot }, send: { store, action in store.commit(action) },
        restore: { store, snapshot in
            store.state.count.value = snapshot.count
            store.state.history.value = snapshot.history
        })

    package static func shell(_ definitions: StoreDefinition...) -> Transcript {
        Transcript(catalog: StoreCatalog(definitions))
    }
}
