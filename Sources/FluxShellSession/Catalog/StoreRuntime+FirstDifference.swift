import FluxShellJSON
import FluxShellValues

extension StoreRuntime {
    /// Not known for a store whose state the shell only reads as printed (a running app's).
    @usableFromInline package func firstDifference(from other: any StoreRuntime) -> ValuePath? { nil }
}

extension ReducerRuntime {
    @usableFromInline func firstDifference(from other: any StoreRuntime) -> ValuePath? {
        guard let other = other as? Self else { return nil }
        return ValueDiffer.firstDifference(from: other.state.value, to: state.value)
    }
}

extension StoreObjectRuntime {
    @usableFromInline func firstDifference(from other: any StoreRuntime) -> ValuePath? {
        guard let other = other as? Self else { return nil }
        return ValueDiffer.firstDifference(from: other.recorded, to: recorded)
    }
}
