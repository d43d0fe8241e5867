/// A value that changed: the new `value` and the `oldValue` it replaced.
public struct ValueChange<Value> {
    /// The value before the change.
    public let oldValue: Value
    /// The value after the change.
    public let value: Value

    @inlinable
    public init(oldValue: Value, value: Value) {
        self.oldValue = oldValue
        self.value = value
    }
}

extension ValueChange: Sendable where Value: Sendable {}
extension ValueChange: Equatable where Value: Equatable {}
