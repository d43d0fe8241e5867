/// An observable value that can be changed directly (VueFluxReactive's `Variable`): a state's
/// members are variables, changed by its mutations and observed by its views.
public final class Variable<Value> {
    /// The current value; setting it tells every observer, in the order they started observing.
    public var value: Value {
        didSet {
            for observer in observers { observer(value) }
        }
    }

    private var observers: [(Value) -> Void] = []

    /// A variable with its first value.
    public init(_ value: Value) {
        self.value = value
    }

    /// A read-only view of this variable, for what a state publishes.
    public var constant: Constant<Value> {
        Constant(variable: self)
    }

    /// Calls `observer` with the current value now and with every new value.
    public func observe(_ observer: @escaping (Value) -> Void) {
        observer(value)
        observers.append(observer)
    }
}
