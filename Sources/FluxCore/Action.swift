/// The internal API of a feature: what can happen to its state.
///
/// Actions are enums, so a ``Mutation`` switches over them exhaustively.
///
/// ```swift
/// enum CounterAction: Action {
///     case increment
///     case decrement
/// }
/// ```
public protocol Action: Sendable {}
