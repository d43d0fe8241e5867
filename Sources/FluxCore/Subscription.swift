/// A token for a registered handler or observer; pass it back to unregister.
public struct Subscription: Hashable, Sendable {
    @usableFromInline
    let id: UInt64

    @inlinable
    init(id: UInt64) { self.id = id }
}
