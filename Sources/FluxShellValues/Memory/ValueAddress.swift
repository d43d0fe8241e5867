/// Where a value is in memory, as the value layer walks it (``ValueReader``, ``ValueDiffer``,
/// ``ShellValue`` and its rows): a typed view that hands out the value, its members and the
/// elements of an array, never a pointer, so that reading members in place is confined here and
/// to ``TypeShape``.
///
/// NB: an address is made only by ``of(_:_:)`` and ``of(_:_:_:)`` (values lent for the duration
/// of the closure), ``elements(of:_:_:)`` (two arrays' buffers, for the duration of the closure),
/// or from another at the offset the runtime gave for one of its members (``TypeShape/Field``)
/// or at an element's index times its stride; none outlives the closure that lent its value.
/// Reading members in place is what lets a 22-member state cost about a counter's time per line
/// instead of a `Mirror` walk that boxes every member (measured in `Scripts/bench-anchor.sh`).
@usableFromInline
struct ValueAddress {
    /// The address itself: read only by the code in `Memory/`.
    @usableFromInline let raw: UnsafeRawPointer

    @usableFromInline init(_ raw: UnsafeRawPointer) { self.raw = raw }

    /// Calls `body` with the address of `value` (a value: an address passed here would be lent
    /// as a value of its own, and its bits read).
    @inlinable @inline(__always)
    static func of<T, R>(_ value: T, _ body: (ValueAddress) throws -> R) rethrows -> R {
        assert(!(value is ValueAddress), "the address of an address")
        return try withUnsafePointer(to: value) { try body(ValueAddress(UnsafeRawPointer($0))) }
    }

    /// Calls `body` with the addresses of `a` and `b`.
    @inlinable @inline(__always)
    static func of<T, R>(_ a: T, _ b: T, _ body: (ValueAddress, ValueAddress) throws -> R) rethrows -> R {
        try withUnsafePointer(to: a) { a in
            try withUnsafePointer(to: b) { b in
                try body(ValueAddress(UnsafeRawPointer(a)), ValueAddress(UnsafeRawPointer(b)))
            }
        }
    }

    /// Calls `body` with the addresses of the first elements of `a` and `b`; the elements that
    /// follow are at multiples of `MemoryLayout<Element>.stride`. (`nil` only for an array with no
    /// buffer of its own: a native array, even empty, has one.)
    @inline(__always)
    static func elements<Element, R>(of a: [Element], _ b: [Element], _ body: (ValueAddress?, ValueAddress?) -> R) -> R
    {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                body(
                    a.baseAddress.map { ValueAddress(UnsafeRawPointer($0)) },
                    b.baseAddress.map { ValueAddress(UnsafeRawPointer($0)) })
            }
        }
    }

    /// The value here, of type `T` (the type this address holds), as a copy.
    @inline(__always)
    func value<T>(as _: T.Type) -> T { raw.assumingMemoryBound(to: T.self).pointee }

    /// The member or element `offset` bytes on.
    @inline(__always)
    static func + (address: ValueAddress, offset: Int) -> ValueAddress { ValueAddress(address.raw + offset) }
}

/// Memory a value is being built in (``ValueBuilder``, ``ActionCases/build(_:_:into:)``): the
/// writable twin of ``ValueAddress``, a typed view that builds, initializes and destroys values in
/// place and hands out no pointer, so that writing members in place is confined here, to
/// ``TypeShape`` and to ``RuntimeMetadata``.
///
/// NB: a slot is made only by ``build(_:_:)`` (temporary memory allocated as the value's own type,
/// for the duration of the closure), by ``RuntimeMetadata`` for an `indirect` payload's box, or
/// from another at the offset the runtime gave for one of its members; none outlives the closure.
/// Each member is initialized once (``initialize(to:)``) and destroyed only if it was
/// (``deinitialize(as:)``), so `build` moves out only a whole value. Building in place is what
/// makes a distinct piped line's action without a detour through boxes
/// (``ActionCases/make(_:_:as:)``); this view costs nothing over raw pointers (the budget's
/// `piped distinct` path counts it).
@usableFromInline
struct ValueSlot {
    /// The address itself: read only by the code in `Memory/`.
    @usableFromInline let raw: UnsafeMutableRawPointer

    @usableFromInline init(_ raw: UnsafeMutableRawPointer) { self.raw = raw }

    /// Builds a `T` in memory of its own type: `body` initializes all of it, or throws having left
    /// it uninitialized; the value is then moved out, with what `body` returned.
    @inlinable @inline(__always)
    static func build<T, R>(_: T.Type, _ body: (ValueSlot) throws -> R) rethrows -> (value: T, result: R) {
        try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            let base = buffer.baseAddress!
            let result = try body(ValueSlot(UnsafeMutableRawPointer(base)))
            return (base.move(), result)
        }
    }

    /// Initializes the uninitialized memory here, of type `T`, to `value`.
    @inline(__always)
    func initialize<T>(to value: T) { raw.initializeMemory(as: T.self, to: value) }

    /// Destroys the value of type `T` here, which ``initialize(to:)`` wrote.
    @inline(__always)
    func deinitialize<T>(as _: T.Type) { raw.assumingMemoryBound(to: T.self).deinitialize(count: 1) }

    /// The value written here, to read.
    @inline(__always)
    var address: ValueAddress { ValueAddress(UnsafeRawPointer(raw)) }

    /// The member `offset` bytes on.
    @inline(__always)
    static func + (slot: ValueSlot, offset: Int) -> ValueSlot { ValueSlot(slot.raw + offset) }
}
