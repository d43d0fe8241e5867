/// The only place where a ``State`` changes: a pure function of an action and the state.
///
/// ```swift
/// struct CounterMutation: Mutation {
///     func mutate(action: CounterAction, state: inout CounterState) {
///         switch action {
///         case .increment: state.count += 1
///         case .decrement: state.count -= 1
///         }
///     }
/// }
/// ```
public protocol Mutation {
    associatedtype Action: FluxCore.Action
    associatedtype State: FluxCore.State

    /// Applies `action` to `state` in place.
    func mutate(action: Action, state: inout State)
}
