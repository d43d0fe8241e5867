/// What one action did to a state: the state before and after.
///
/// Ask it for one property: the answer is non-nil exactly when that property changed.
///
/// ```swift
/// func reflect(change: StateChange<CounterState>) {
///     if let count = change.count?.value { label.text = "\(count)" }
///     // or: change.changedProperty(for: \.count)?.value
/// }
/// ```
@dynamicMemberLookup
public struct StateChange<State: FluxCore.State>: Sendable {
    /// The state before the action.
    public let oldState: State
    /// The state after the action.
    public let newState: State

    @inlinable
    public init(oldState: State, newState: State) {
        self.oldState = oldState
        self.newState = newState
    }

    /// The change of the value at `keyPath`, or `nil` when it is equal before and after.
    @inlinable @inline(__always)
    public func changedProperty<Value: Equatable>(for keyPath: KeyPath<State, Value>)
        -> ValueChange<Value>?
    {
        let old = oldState[keyPath: keyPath]
        let new = newState[keyPath: keyPath]
        return old == new ? nil : ValueChange(oldValue: old, value: new)
    }

    /// `change.count` is `change.changedProperty(for: \.count)`.
    @inlinable @inline(__always)
    public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>)
        -> ValueChange<Value>?
    {
        changedProperty(for: keyPath)
    }
}
