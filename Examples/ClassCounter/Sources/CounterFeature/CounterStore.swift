import MiniVue

/// The counter's store: the app makes one per counter screen.
public final class CounterStore: Store<CounterState> {
    /// A store of a new counter that goes up to `max`.
    public init(max: Int = 1000) {
        super.init(state: CounterState(max: max), mutations: CounterMutations(), executor: .immediate)
    }
}
