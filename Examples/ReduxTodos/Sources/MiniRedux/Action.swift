/// What an app's actions conform to, as in ReSwift: a marker, not `Sendable`. Actions are structs
/// (`struct AddTodo: Action { let title: String }`) or enums, and reducers switch on their type.
public protocol Action {}

/// The action a store reduces when it is created without a state, so that the reducer builds the
/// first one (ReSwift's `ReSwiftInit`).
public struct ReduxInit: Action {
    public init() {}
}
