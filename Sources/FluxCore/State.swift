/// The data a screen or a feature shows, owned by a ``Store``.
///
/// A state is a value type; it crosses threads inside ``StateChange`` values, hence `Sendable`.
///
/// ```swift
/// struct CounterState: State {
///     var count: Int = 0
/// }
/// ```
public protocol State: Sendable {}
