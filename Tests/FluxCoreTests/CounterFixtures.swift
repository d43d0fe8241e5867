import FluxCore
import Synchronization

// The counter of the Prex README, in our own words.

struct CounterState: State {
    var count: Int = 0
}

enum CounterAction: Action {
    case increment
    case decrement
}

struct CounterMutation: Mutation {
    func mutate(action: CounterAction, state: inout CounterState) {
        switch action {
        case .increment:
            state.count += 1
        case .decrement:
            state.count -= 1
        }
    }
}

extension Presenter where Action == CounterAction, State == CounterState {
    func increment() {
        dispatch(.increment)
    }

    func decrement() {
        if state.count > 0 {
            dispatch(.decrement)
        }
    }
}

final class MockView: View {
    var refrectParameters: ((StateChange<CounterState>) -> Void)?

    func reflect(change: StateChange<CounterState>) {
        refrectParameters?(change)
    }
}

final class CounterPresenter: Presenter<CounterAction, CounterState> {
    init<T: View>(view: T) where T.State == CounterState {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        super.init(view: view, flux: flux)
    }

    func incrementTwice() {
        dispatch(.increment)
        dispatch(.increment)
    }
}

enum SharedFlux {
    static let counter = Flux(state: CounterState(), mutation: CounterMutation())
}

extension Flux where Action == CounterAction, State == CounterState {
    // NB: the README's `static let shared` cannot compile (generic types have no static stored
    // properties); a computed property over a stored one elsewhere stands in.
    static var shared: Flux<CounterAction, CounterState> { SharedFlux.counter }
}

/// A state that is `Equatable`, so unchanged updates are not announced.
struct TodoState: State, Equatable {
    var titles: [String] = []
    var filter = "all"
}

enum TodoAction: Action, Equatable {
    case add(String)
    case setFilter(String)
    case noop
}

struct TodoMutation: Mutation {
    func mutate(action: TodoAction, state: inout TodoState) {
        switch action {
        case .add(let title): state.titles.append(title)
        case .setFilter(let filter): state.filter = filter
        case .noop: break
        }
    }
}

/// Records what it is given, from any thread.
final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var items: [Element] { storage.withLock { $0 } }
}
