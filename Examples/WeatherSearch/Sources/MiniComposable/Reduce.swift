/// A reducer written as a closure, for the feature's own logic inside a `body`.
public struct Reduce<State, Action>: Reducer {
    private let reduce: (inout State, Action) -> Effect<Action>

    /// A reducer that runs `reduce`.
    public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
        self.reduce = reduce
    }

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        reduce(&state, action)
    }
}
