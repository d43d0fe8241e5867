/// A read-only view of a `Variable` (VueFluxReactive's `Constant`): what `Computed` publishes, so
/// that only mutations change a state.
public struct Constant<Value> {
    private let variable: Variable<Value>

    init(variable: Variable<Value>) {
        self.variable = variable
    }

    /// The variable's current value.
    public var value: Value {
        variable.value
    }

    /// Calls `observer` with the current value now and with every new value.
    public func observe(_ observer: @escaping (Value) -> Void) {
        variable.observe(observer)
    }
}
