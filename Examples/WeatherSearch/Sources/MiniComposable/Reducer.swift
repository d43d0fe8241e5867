/// A feature's logic, as the Composable Architecture writes it: how an action changes the state,
/// and the effect it starts. A reducer either implements `reduce(into:action:)` or composes others
/// in its `body`:
///
/// ```swift
/// struct Search: Reducer {
///     var body: some Reducer<State, Action> {
///         Scope(state: \.weather, action: Action.weatherCase) { LocationWeather() }
///         Reduce { state, action in … }
///     }
/// }
/// ```
public protocol Reducer<State, Action> {
    associatedtype State
    associatedtype Action
    associatedtype Body

    /// Applies `action` to `state` in place, and returns the effect it starts.
    func reduce(into state: inout State, action: Action) -> Effect<Action>

    /// The reducers this one is made of, run in order.
    @ReducerBuilder<State, Action>
    var body: Body { get }
}

extension Reducer where Body == Never {
    /// A reducer that implements `reduce(into:action:)` has no body.
    public var body: Body {
        // NB: as in TCA: only code that reads the `body` of a reducer that implements
        // `reduce(into:action:)` itself gets here; running a reducer never does.
        fatalError("'\(Self.self)' has no body.")
    }
}

extension Reducer where Body: Reducer<State, Action> {
    /// A reducer made of others runs its body.
    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        body.reduce(into: &state, action: action)
    }
}
