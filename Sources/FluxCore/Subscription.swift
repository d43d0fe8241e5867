/// A token for a registered handler or observer; pass it back to unregister.
///
/// `Subject` is what it subscribes to, as in Prex: a dispatcher's `register` returns a
/// `Subscription<Action>`, a store's `observe` and `addListener` a `Subscription<State>`.
public struct Subscription<Subject>: Hashable, Sendable {
    @usableFromInline
    let id: UInt64

    @inlinable
    init(id: UInt64) { self.id = id }
}
