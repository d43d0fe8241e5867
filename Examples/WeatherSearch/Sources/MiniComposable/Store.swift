/// The runtime of a feature, as TCA's `Store` is: it holds the state on the main actor, runs the
/// reducer for each action sent, sends an effect's actions at once, and runs its asynchronous work
/// in tasks of its own that send their actions back to it on the main actor.
@MainActor
public final class Store<R: Reducer> where R.Action: Sendable {
    public private(set) var state: R.State
    private let reducer: R

    public init(initialState: R.State, @ReducerBuilder<R.State, R.Action> reducer: () -> R) {
        self.state = initialState
        self.reducer = reducer()
    }

    /// Runs the reducer for `action`, then the effect it returned.
    public func send(_ action: R.Action) {
        let effect = reducer.reduce(into: &state, action: action)
        for action in effect.actions { send(action) }
        for operation in effect.operations {
            start(operation, sending: { action in self.send(action) })
        }
    }
}

/// As TCA's `Store` runs an effect's work: a task of its own on the main actor, whose operation
/// runs off it and sends its actions back to it.
@MainActor
private func start<Action: Sendable>(
    _ operation: @escaping @Sendable (Send<Action>) async -> Void, sending send: @escaping @MainActor (Action) -> Void
) {
    Task { @MainActor in
        await operation(Send { action in await send(action) })
    }
}
