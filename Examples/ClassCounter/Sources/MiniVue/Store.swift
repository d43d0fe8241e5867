import Foundation

/// Manages a state: the actions dispatched through `actions` are committed to its mutations, and
/// views read it through `computed` (VueFlux's `Store`, used as is or subclassed by an app).
///
/// ```swift
/// let store = Store<CounterState>(state: CounterState(max: 1000), mutations: CounterMutations(), executor: .immediate)
/// store.actions.dispatch(action: .increment)
/// store.computed.count.value  // 1
/// ```
open class Store<State: MiniVue.State> {
    /// Dispatches actions to this store.
    public let actions: Actions<State>
    /// What this store's state publishes, through the app's `extension Computed where State == …`.
    public let computed: Computed<State>

    private let observers = Observers<State.Action>()

    /// A store of `state`, committing each action to `mutations` on `executor`.
    public init(state: State, mutations: State.Mutations, executor: Executor) {
        let observers = observers
        self.actions = Actions { action in
            executor.execute {
                mutations.commit(action: action, state: state)
                observers.notify(action)
            }
        }
        self.computed = Computed(state: state)
    }

    /// Calls `observer` after each action was committed, on the executor's thread.
    public func subscribe(_ observer: @escaping (State.Action) -> Void) {
        observers.add(observer)
    }
}

/// A store's subscribers, added on any thread and told on the executor's.
final class Observers<Action>: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `list` is touched only with `lock` held.
    private let lock = NSLock()
    private var list: [(Action) -> Void] = []

    func add(_ observer: @escaping (Action) -> Void) { lock.withLock { list.append(observer) } }

    func notify(_ action: Action) {
        for observer in lock.withLock({ list }) { observer(action) }
    }
}

/// Dispatches actions to a store.
public struct Actions<State: MiniVue.State> {
    private let dispatchAction: (State.Action) -> Void

    init(dispatch: @escaping (State.Action) -> Void) {
        self.dispatchAction = dispatch
    }

    /// Sends `action` to the store, which commits it to its mutations.
    public func dispatch(action: State.Action) {
        dispatchAction(action)
    }
}

/// What a state publishes: an app extends it where `State` is its own state type, to read the
/// `fileprivate` members of that state from the state's own file.
public struct Computed<State: MiniVue.State> {
    public let state: State
}
