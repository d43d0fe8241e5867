/// A pure function from an action and the current state to the next state (ReSwift's shape: the
/// state is `nil` only for `ReduxInit`, when the reducer builds the first state).
public typealias Reducer<ReducerStateType> = (_ action: Action, _ state: ReducerStateType?) -> ReducerStateType
