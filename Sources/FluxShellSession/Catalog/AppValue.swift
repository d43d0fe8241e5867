/// What an app gives a ``StoreDefinition`` or a `LiveStore` (an initial state, a reducer, a
/// store's `make` and `send`), held where Swift asks for `Sendable`, which the app's types need
/// not be: ReSwift's `Action` protocol is not `Sendable`, and an app cannot make `any Action` so.
///
/// NB: @unchecked Sendable is safe as the shell uses these values: a loaded store (its state, its
/// store object, its actions) lives in one session and is used on that session's thread only;
/// what several sessions share is the definition, whose initial state is a value that each `load`
/// copies (a state that is a class instance is refused at registration; one that holds a class
/// instance shares it, which the reference tells the app to avoid) and whose closures each
/// session calls with values of its own. A closure that captures mutable state of the app's is
/// the app's to guard, as with any callback it hands a library. A running app's store is read
/// and sent actions on the threads the app's own hook runs on (see `LiveStore`).
@usableFromInline
package struct AppValue<Value>: @unchecked Sendable {
    @usableFromInline package let value: Value

    @inlinable package init(_ value: Value) { self.value = value }
}
