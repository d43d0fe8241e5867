/// Builds a reducer's `body` from the reducers listed in it, run one after another in the order
/// written, their effects merged.
@resultBuilder
public enum ReducerBuilder<State, Action> {
    public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R {
        expression
    }

    public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
        first
    }

    public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
        accumulated: R0, next: R1
    ) -> _Sequence<R0, R1> {
        _Sequence(first: accumulated, second: next)
    }

    /// Two reducers run in order.
    public struct _Sequence<R0: Reducer<State, Action>, R1: Reducer<State, Action>>: Reducer {
        let first: R0
        let second: R1

        public func reduce(into state: inout State, action: Action) -> Effect<Action> {
            let effect = first.reduce(into: &state, action: action)
            return effect.merge(with: second.reduce(into: &state, action: action))
        }
    }
}
