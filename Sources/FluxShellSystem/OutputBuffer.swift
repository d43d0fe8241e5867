#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Growable UTF-8 text that the shell writes its output into: diff lines, values, JSON.
///
/// An `[UInt8]` would do the same job, but each of its appends asks the runtime whether the
/// storage is shared; a diff line takes a dozen appends, and a piped script millions of lines.
/// This buffer has one owner (it cannot be copied), so an append is a bounds check and a store.
@_documentation(visibility: internal)
public struct _OutputBuffer: ~Copyable {
    // NB: the one raw allocation of the engine's output. Safe because the buffer cannot be
    // copied (no two owners of `base`), `count <= capacity` always holds, every write past
    // `count` first grows the allocation, and `deinit` frees it once. An `[UInt8]` behind the
    // same methods checks its bounds and uniqueness on every append of every line.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var used = 0

    /// Bytes written so far.
    @inlinable public var count: Int { used }

    public init(capacity: Int = 64) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    @inlinable public var isEmpty: Bool { count == 0 }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if used == capacity { grow(toHold: 1) }
        base[used] = byte
        used += 1
    }

    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - used < bytes.count { grow(toHold: bytes.count) }
        (base + used).update(from: source, count: bytes.count)
        used += bytes.count
    }

    /// Appends what `other` holds.
    public mutating func append(contentsOf other: borrowing _OutputBuffer) {
        append(UnsafeBufferPointer(start: other.base, count: other.used))
    }

    /// Appends the bytes of `other` within `range` (what an attached shell that sent no hello is
    /// sent of a line's output: rare, so byte by byte).
    public mutating func append(contentsOf other: borrowing _OutputBuffer, in range: Range<Int>) {
        other.forEachByte(in: range) { append($0) }
    }

    @inlinable
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends an integer's decimal digits.
    public mutating func appendDecimal(_ number: Int) {
        if capacity - used < 20 { grow(toHold: 20) }
        // NB: digits counted, then written from the last by constant divisions by 10 (which the
        // compiler makes multiplications), into the room just made.
        var magnitude = number.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        if number < 0 {
            base[used] = 0x2D
            used += 1
        }
        var index = used + digits
        repeat {
            index -= 1
            base[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
            magnitude /= 10
        } while magnitude > 0
        used += digits
    }

    /// Appends `text` and a newline.
    @inlinable
    public mutating func appendLine(_ text: String) {
        append(text)
        append(0x0A)
    }

    @usableFromInline
    mutating func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Forgets what was written after the first `count` bytes.
    public mutating func removeAll(after count: Int) {
        precondition(count >= 0 && count <= used, "OutputBuffer: no such position")
        used = count
    }

    /// Forgets the text, keeping the memory.
    public mutating func removeAll() { used = 0 }

    /// The text written so far.
    package func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        // NB: the buffer's own bytes, within its count, lent for the call only (to write(2), or
        // to a network library's buffer that copies them); package, so no public API hands them
        // out.
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// Calls `body` with each byte written so far (within `range`: all of them by default), in
    /// order.
    @inlinable
    public func forEachByte(in range: Range<Int>? = nil, _ body: (UInt8) -> Void) {
        let range = range ?? 0..<used
        precondition(range.lowerBound >= 0 && range.upperBound <= used, "OutputBuffer: no such range")
        for index in range { body(base[index]) }
    }

    /// The text written within `range`, as a string (a `save`'s confirmation lines: rare, so
    /// through an array).
    public func text(in range: Range<Int>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        forEachByte(in: range) { bytes.append($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text written so far, as a string.
    public var text: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }
}

/// Where an ``OutputBuffer``'s text is copied in one piece: a network library's byte buffer,
/// whose own method this is (swift-nio's `ByteBuffer` has it).
package protocol ByteSink {
    /// Appends `bytes`, returning how many it appended.
    mutating func writeBytes(_ bytes: UnsafeRawBufferPointer) -> Int
}

extension OutputBuffer {
    /// Appends the text written so far to `sink`, in one copy.
    package func write(to sink: inout some ByteSink) {
        // NB: the buffer's bytes are lent to the sink for the call only, which copies them;
        // what it takes, so no measurement applies.
        _ = withUnsafeBytes { sink.writeBytes($0) }
    }
}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias OutputBuffer = _OutputBuffer
