/// Holds an app's state: each action dispatched goes through the middleware, in the order given,
/// then the reducer, and each subscriber is told of the new state, in the order it subscribed.
///
/// ```swift
/// let store = Store<AppState>(reducer: appReducer, state: nil, middleware: [logging])
/// store.subscribe(listViewController)
/// store.dispatch(AddTodo(title: "Milk"))
/// ```
open class Store<State> {
    /// The current state.
    public private(set) var state: State

    /// The middleware each action goes through before the reducer, first to last.
    public var middleware: [Middleware<State>] {
        didSet { dispatchFunction = makeDispatchFunction() }
    }

    private let reducer: Reducer<State>
    private lazy var dispatchFunction: DispatchFunction = makeDispatchFunction()
    private var subscriptions: [Subscription] = []
    private var isReducing = false
    private var pendingActions: [Action] = []

    /// A store with its reducer and first state.
    ///
    /// - Parameters:
    ///   - reducer: the app's root reducer.
    ///   - state: the first state; with `nil`, the reducer builds it from `ReduxInit`.
    ///   - middleware: what each action goes through before the reducer, first to last.
    public init(reducer: @escaping Reducer<State>, state: State?, middleware: [Middleware<State>] = []) {
        self.reducer = reducer
        self.middleware = middleware
        self.state = state ?? reducer(ReduxInit(), nil)
    }

    /// Sends an action through the middleware to the reducer.
    open func dispatch(_ action: Action) {
        dispatchFunction(action)
    }

    /// Tells `subscriber` of the current state now and of every new state, until it unsubscribes
    /// or is released.
    open func subscribe<S: StoreSubscriber>(_ subscriber: S) where S.StoreSubscriberStateType == State {
        subscriptions.append(Subscription(subscriber: subscriber))
        subscriber.newState(state: state)
    }

    /// Stops telling `subscriber` of new states.
    open func unsubscribe(_ subscriber: AnyStoreSubscriber) {
        subscriptions.removeAll { $0.subscriber === subscriber }
    }

    private func makeDispatchFunction() -> DispatchFunction {
        let reduce: DispatchFunction = { [unowned self] action in self.reduce(action) }
        return middleware.reversed().reduce(reduce) { next, middleware in
            let dispatch: DispatchFunction = { [weak self] action in self?.dispatch(action) }
            let getState: () -> State? = { [weak self] in self?.state }
            return middleware(dispatch, getState)(next)
        }
    }

    private func reduce(_ action: Action) {
        // NB: ReSwift traps when an action arrives while another is reduced (a subscriber that
        // dispatches); this store reduces it next, as TCA buffers the actions sent meanwhile.
        pendingActions.append(action)
        guard !isReducing else { return }
        isReducing = true
        defer { isReducing = false }
        while !pendingActions.isEmpty {
            state = reducer(pendingActions.removeFirst(), state)
            subscriptions.removeAll { $0.subscriber == nil }
            for subscription in subscriptions {
                subscription.subscriber?._newState(state: state)
            }
        }
    }
}

/// A subscriber as a store holds it: weakly, so that a released view stops receiving states.
private struct Subscription {
    weak var subscriber: AnyStoreSubscriber?
}
