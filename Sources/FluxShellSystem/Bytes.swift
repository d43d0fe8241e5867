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
        var unlimited = Int.max
        return Array(text.utf8).firstOccurrence(of: Array(needle.utf8), budget: &unlimited).map { offset in
            text.utf8.prefix(offset).reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }
    }

    /// Whether every byte is ASCII.
    package static func areASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }
}

extension Array where Element: Equatable {
    /// The first place at or after `start` where `pattern` occurs, by Knuth, Morris and Pratt:
    /// time linear in the lengths of both, whatever the elements (a naive search is quadratic on
    /// `aaaa…`). Each element read takes one from `budget`; `nil` when it runs out first, when
    /// `pattern` is empty, or when it does not occur.
    package func firstOccurrence(of pattern: [Element], from start: Int = 0, budget: inout Int) -> Int? {
        guard !pattern.isEmpty else { return nil }
        // fallback[i]: the length of the longest proper prefix of pattern[...i] that is also its suffix.
        var fallback = [Int](repeating: 0, count: pattern.count)
        var matched = 0
        for index in pattern.indices.dropFirst() {
            while matched > 0, pattern[index] != pattern[matched] { matched = fallback[matched - 1] }
            if pattern[index] == pattern[matched] { matched += 1 }
            fallback[index] = matched
        }
        matched = 0
        var index = start
        while index < count, budget > 0 {
            budget -= 1
            while matched > 0, self[index] != pattern[matched] { matched = fallback[matched - 1] }
            if self[index] == pattern[matched] { matched += 1 }
            if matched == pattern.count { return index + 1 - pattern.count }
            index += 1
        }
        return nil
    }
}
