/// What a reducer returns besides the new state: the work it starts, which ends in actions sent
/// back into the store. `.none` starts nothing; `.send(action)` sends an action at once.
public struct Effect<Action> {
    // NB: opaque, as TCA's `Effect` is over its `Operation`; this stand-in has only the
    // synchronous kinds (TCA's `.run` also starts asynchronous work).
    let actions: [Action]

    /// The effect that does nothing.
    public static var none: Self { Effect(actions: []) }

    /// An effect that sends `action` back into the store at once.
    public static func send(_ action: Action) -> Self {
        Effect(actions: [action])
    }

    /// The effect whose actions are this one's, transformed: how a child's effect becomes the
    /// parent's.
    public func map<T>(_ transform: (Action) -> T) -> Effect<T> {
        Effect<T>(actions: actions.map(transform))
    }

    /// Both effects, this one's actions first.
    public func merge(with other: Self) -> Self {
        Effect(actions: actions + other.actions)
    }
}
