/// Runs a child feature's reducer on a part of the parent's state, for the parent's actions that
/// carry a child action; the child's effects come back as parent actions.
///
/// ```swift
/// Scope(state: \.weather, action: Action.weatherCase) { LocationWeather() }
/// ```
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
    private let toChildState: WritableKeyPath<ParentState, Child.State>
    private let toChildAction: AnyCasePath<ParentAction, Child.Action>
    private let child: Child

    /// A scope of the child reducer `child()`.
    ///
    /// - Parameters:
    ///   - toChildState: where the child's state is in the parent's.
    ///   - toChildAction: the parent's action case that carries the child's actions.
    ///   - child: the child's reducer.
    public init<ChildState, ChildAction>(
        state toChildState: WritableKeyPath<ParentState, ChildState>,
        action toChildAction: AnyCasePath<ParentAction, ChildAction>,
        @ReducerBuilder<ChildState, ChildAction> child: () -> Child
    ) where ChildState == Child.State, ChildAction == Child.Action {
        self.toChildState = toChildState
        self.toChildAction = toChildAction
        self.child = child()
    }

    public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
        guard let childAction = toChildAction.extract(from: action) else { return .none }
        return child.reduce(into: &state[keyPath: toChildState], action: childAction).map(toChildAction.embed)
    }
}
