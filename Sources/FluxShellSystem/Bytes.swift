#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Comparisons of bytes, read through their memory: a line's, what the runner asks of every
/// line, and a value's bits.
package enum Bytes {
    /// Whether `bytes` are the UTF-8 of `text` (a line as it was read, so its storage is
    /// contiguous UTF-8).
    package static func equal(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        guard bytes.count == text.utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { a in
            text.utf8.withContiguousStorageIfAvailable { b in
                // NB: lines that differ mostly differ at their end (`dispatch set 41`, `… 42`).
                a.isEmpty || (a[a.count - 1] == b[a.count - 1] && memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            } ?? a.elementsEqual(text.utf8)
        }
    }

    /// Whether two strings are the same bytes: what prints, not what Unicode calls equivalent
    /// (`==` takes `"é"` and `"e\u{301}"` as one string, and they print differently).
    package static func equal(_ a: String, _ b: String) -> Bool {
        a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }.flatMap { $0 } ?? a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `a` and `b` have the same bits: the same references and the same plain values,
    /// what a copy of a value has. For telling a copy of a value whose type is not `Equatable`
    /// from a value made anew; values that are equal may still differ in their bits.
    package static func sameBits<Value>(_ a: Value, _ b: Value) -> Bool {
        // NB: each value's bytes are lent for the call only, within its size.
        withUnsafeBytes(of: a) { x in withUnsafeBytes(of: b) { y in x.elementsEqual(y) } }
    }

    /// The 1-based column (in Unicode scalars, as the shell counts them) where `needle` first
    /// occurs in `text`, or `nil`.
    package static func column(of needle: Substring, in text: String) -> Int? {
        firstOffset(of: Array(needle.utf8), in: text.utf8).map { offset in
            text.utf8.prefix(offset).reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }
    }

    /// Where `key` first occurs in `bytes`, by Knuth, Morris and Pratt: time linear in the
    /// length of both, whatever the bytes (a naive search is quadratic on `aaaa…` lines).
    static func firstOffset(of key: [UInt8], in bytes: some Sequence<UInt8>) -> Int? {
        guard !key.isEmpty else { return nil }
        // fallback[i]: the length of the longest proper prefix of key[...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: key.count)
        var matched = 0
        for index in key.indices.dropFirst() {
            while matched > 0, key[index] != key[matched] { matched = fallback[matched - 1] }
            if key[index] == key[matched] { matched += 1 }
            fallback[index] = matched
        }
        matched = 0
        for (index, byte) in bytes.enumerated() {
            while matched > 0, byte != key[matched] { matched = fallback[matched - 1] }
            if byte == key[matched] { matched += 1 }
            if matched == key.count { return index + 1 - key.count }
        }
        return nil
    }

    /// Whether every byte is ASCII.
    package static func areASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var combined: UInt8 = 0
            for byte in buffer { combined |= byte }
            return combined < 0x80
        }
    }
}
