/// A value that changed: the ``new`` value and the ``old`` one it replaced (`nil` for a forced
/// reflection, where there is no old state).
public struct ValueChange<Value> {
    /// The value after the change.
    public let new: Value
    /// The value before the change; `nil` for a forced reflection.
    public let old: Value?

    @inlinable
    public init(old: Value?, new: Value) {
        self.old = old
        self.new = new
    }

    @inlinable
    public init(oldValue: Value, value: Value) { self.init(old: oldValue, new: value) }

    /// The value after the change (``new``), as Prex's README reads it: `change.count?.value`.
    @inlinable public var value: Value { new }
    /// The value before the change (``old``).
    @inlinable public var oldValue: Value? { old }
}

extension ValueChange: Sendable where Value: Sendable {}
extension ValueChange: Equatable where Value: Equatable {}
