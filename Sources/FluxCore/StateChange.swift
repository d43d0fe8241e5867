/// What one action did to a state: the state before and after.
///
/// Ask it for one property: the answer is non-nil exactly when that property changed. A forced
/// reflection (``Presenter/reflect()``) has no old state, and every property counts as changed.
///
/// ```swift
/// func reflect(change: StateChange<CounterState>) {
///     if let count = change.count?.value { label.text = "\(count)" }
///     // or: change.changedProperty(for: \.count)?.value
/// }
/// ```
@dynamicMemberLookup
public struct StateChange<State: FluxCore.State>: Sendable {
    /// NB: the old state is stored as a plain value and a flag, not an optional: reading one
    /// member of an optional state (binding it, or a key path through it) copied the whole state
    /// or went through a slower key path, on every action a view reads.
    @usableFromInline let previous: State
    /// The state after the action.
    public let new: State
    @usableFromInline let isForced: Bool

    @inlinable
    public init(old: State?, new: State) {
        self.previous = old ?? new
        self.isForced = old == nil
        self.new = new
    }

    @inlinable
    public init(oldState: State, newState: State) {
        self.previous = oldState
        self.isForced = false
        self.new = newState
    }

    /// The state before the action; `nil` for a forced reflection.
    @inlinable public var old: State? { isForced ? nil : previous }
    /// The state after the action (``new``).
    @inlinable public var newState: State { new }
    /// The state before the action (``old``).
    @inlinable public var oldState: State? { old }

    /// The change of the value at `keyPath`, or `nil` when it is equal before and after.
    @inlinable @inline(__always)
    public func changedProperty<Value: Equatable>(for keyPath: KeyPath<State, Value>)
        -> ValueChange<Value>?
    {
        let value = new[keyPath: keyPath]
        guard !isForced else { return ValueChange(old: nil, new: value) }
        let before = previous[keyPath: keyPath]
        return before == value ? nil : ValueChange(old: before, new: value)
    }

    /// `change.count` is `change.changedProperty(for: \.count)`.
    @inlinable @inline(__always)
    public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>)
        -> ValueChange<Value>?
    {
        changedProperty(for: keyPath)
    }
}

extension StateChange {
    /// Prex's name for what ``changedProperty(for:)`` returns: `StateChange<S>.PropertyChange<T>`
    /// is a ``ValueChange`` of `T`, read as `change.count?.value`.
    public typealias PropertyChange<T> = ValueChange<T>
}
