/// Comparisons of bytes: a line's, what the runner asks of every line, and a text's.
package enum Bytes {
    /// Whether `bytes` are the UTF-8 of `text` (a line as it was read, so its storage is
    /// contiguous UTF-8).
    package static func equal(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        Platform.sameBytes(bytes, text)
    }

    /// Whether two strings are the same bytes: what prints, not what Unicode calls equivalent
    /// (`==` takes `"é"` and `"e\u{301}"` as one string, and they print differently).
    package static func equal(_ a: String, _ b: String) -> Bool {
        Platform.sameBytes(a, b)
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
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }
}
