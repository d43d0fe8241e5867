#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Comparisons of a line's bytes, read through their memory: what the runner asks of every line.
enum Bytes {
    /// Whether `bytes` are the UTF-8 of `text` (a line as it was read, so its storage is
    /// contiguous UTF-8).
    static func equal(_ bytes: ArraySlice<UInt8>, _ text: String) -> Bool {
        guard bytes.count == text.utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { a in
            text.utf8.withContiguousStorageIfAvailable { b in
                // NB: lines that differ mostly differ at their end (`dispatch set 41`, `… 42`).
                a.isEmpty || (a[a.count - 1] == b[a.count - 1] && memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0)
            } ?? a.elementsEqual(text.utf8)
        }
    }

    /// Whether every byte is ASCII.
    static func areASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var combined: UInt8 = 0
            for byte in buffer { combined |= byte }
            return combined < 0x80
        }
    }
}
