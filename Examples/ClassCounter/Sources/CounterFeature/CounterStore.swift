import MiniVue

/// The counter's store: the app makes one per counter screen.
public final class CounterStore: Store<CounterState> {
    /// A store of a new counter that goes up to `max`, committing its actions on `executor`.
    public init(max: Int = 1000, executor: Executor = .immediate) {
        super.init(state: CounterState(max: max), mutations: CounterMutations(), executor: executor)
    }
}
