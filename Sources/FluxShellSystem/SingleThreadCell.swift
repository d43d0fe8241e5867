/// A value that one thread at a time reads and changes, in memory of its own, whose accesses
/// skip Swift's run-time exclusivity checks: what an object keeps (in a `let`) of what it touches
/// on every line, action or effect.
///
/// Outside FluxCore, this is the one place where the package turns those checks off (a
/// ``LockedValue`` keeps its value in one). Each owner's `// NB:` says why one thread at a time uses its cell (its thread, or a
/// lock it holds). The owner also guarantees what the checks would catch: no access to `value`
/// begins while another is under way (no `inout` of it lent to code that reaches it again).
///
/// NB: the checks cost a call at the start and at the end of every access to a class's stored
/// property: on the values of a session, its runner, resolver and trace, a tenth of a piped
/// line's work, and more of an effect's. A cell costs one more load an access than a property
/// marked `@exclusivity(unchecked)`. See docs/performance.md.
@_documentation(visibility: internal)
@frozen
public struct _SingleThreadCell<Value: ~Copyable>: ~Copyable {
    // NB: the value lives at this address from `init` to `deinit`, and is reached through it
    // only: accessed by address, it is not a stored property, which is what the run-time checks
    // are made on. Safe as the owner's contract above says.
    @usableFromInline let address: UnsafeMutablePointer<Value>

    @inlinable public init(_ value: consuming Value) {
        address = .allocate(capacity: 1)
        address.initialize(to: value)
    }

    @inlinable deinit {
        address.deinitialize(count: 1)
        address.deallocate()
    }

    /// The value. Public (not package) because a store runtime's inlinable code, compiled in the
    /// module that registers a store, uses it.
    @inlinable public var value: Value {
        unsafeAddress { UnsafePointer(address) }
        nonmutating unsafeMutableAddress { address }
    }
}

// NB: @unchecked Sendable is safe as the owner's contract above says: one thread at a time
// reads and changes the value (the owner's thread, or under a lock the owner holds). This is
// where that contract is stated once, so that an object that keeps its changing state in a cell
// and nothing else mutable is checked `Sendable` by the compiler, not declared it.
extension SingleThreadCell: @unchecked Sendable where Value: ~Copyable {}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias SingleThreadCell = _SingleThreadCell
