/// An array for large states: its elements live in chunks that copies share, so changing one
/// element of a 100,000-element state copies one chunk and the list of chunks, not every element,
/// and comparing two versions skips the chunks they still share.
///
/// It is a `RandomAccessCollection`, `MutableCollection` and `RangeReplaceableCollection` of
/// `Int` indices, and encodes as a plain JSON array.
///
/// ```swift
/// struct TodosState: State {
///     var todos: ChunkedArray<Todo> = []
/// }
/// ```
public struct ChunkedArray<Element> {
    /// The most elements a chunk holds after an append.
    @usableFromInline
    static var chunkCapacity: Int { 256 }

    @usableFromInline
    var chunks: [[Element]]
    /// The index of the first element of each chunk.
    @usableFromInline
    var starts: [Int]
    @usableFromInline
    var total: Int

    public init() {
        chunks = []
        starts = []
        total = 0
    }

    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        for element in elements { append(element) }
    }

    /// The chunk holding `index`, and the offset in it.
    @inlinable
    func locate(_ index: Int) -> (chunk: Int, offset: Int) {
        precondition(index >= 0 && index < total, "ChunkedArray index \(index) out of range 0..<\(total)")
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return (low, index - starts[low])
    }

    @usableFromInline
    mutating func rebuildStarts() {
        starts.removeAll(keepingCapacity: true)
        var start = 0
        for chunk in chunks {
            starts.append(start)
            start += chunk.count
        }
        total = start
    }

    /// How many elements at the front, and at the back, `self` and `other` hold in shared chunks:
    /// what a diff between two versions can skip without comparing them.
    @inlinable
    public func sharedChunkElements(with other: ChunkedArray) -> (prefix: Int, suffix: Int) {
        // NB: an Array is exactly one reference to its buffer, so the outer arrays' memory is a
        // sequence of buffer pointers: compare those, without copying or retaining any chunk.
        let stride = MemoryLayout<[Element]>.stride
        let (front, back) = chunks.withUnsafeBytes { mine in
            other.chunks.withUnsafeBytes { theirs in
                let mineCount = mine.count / stride
                let theirsCount = theirs.count / stride
                func same(_ a: Int, _ b: Int) -> Bool {
                    mine.load(fromByteOffset: a * stride, as: UnsafeRawPointer.self)
                        == theirs.load(fromByteOffset: b * stride, as: UnsafeRawPointer.self)
                }
                var front = 0
                while front < mineCount, front < theirsCount, same(front, front) { front += 1 }
                var back = 0
                while back < mineCount - front, back < theirsCount - front,
                    same(mineCount - 1 - back, theirsCount - 1 - back)
                {
                    back += 1
                }
                return (front, back)
            }
        }
        let prefix = front < starts.count ? starts[front] : total
        let suffix = back == 0 ? 0 : total - starts[starts.count - back]
        return (prefix, suffix)
    }
}

extension ChunkedArray: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { total }
    public var count: Int { total }
    public var isEmpty: Bool { total == 0 }

    @inlinable
    public subscript(position: Int) -> Element {
        get {
            let (chunk, offset) = locate(position)
            return chunks[chunk][offset]
        }
        set {
            let (chunk, offset) = locate(position)
            chunks[chunk][offset] = newValue
        }
    }
}

extension ChunkedArray: RangeReplaceableCollection {
    public mutating func append(_ newElement: Element) {
        if let last = chunks.indices.last, chunks[last].count < Self.chunkCapacity {
            chunks[last].append(newElement)
        } else {
            starts.append(total)
            chunks.append([newElement])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkCapacity)
        }
        total += 1
    }

    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        let (chunk, offset) = locate(position)
        let removed = chunks[chunk].remove(at: offset)
        if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
        rebuildStarts()
        return removed
    }

    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        // NB: chunks without a removed element are kept as they are, so they stay shared.
        var changed = false
        for index in chunks.indices {
            guard try chunks[index].contains(where: shouldBeRemoved) else { continue }
            try chunks[index].removeAll(where: shouldBeRemoved)
            changed = true
        }
        guard changed else { return }
        chunks.removeAll { $0.isEmpty }
        rebuildStarts()
    }

    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == Element {
        if subrange.isEmpty, subrange.lowerBound == total {
            for element in newElements { append(element) }
            return
        }
        var elements = Array(self)
        elements.replaceSubrange(subrange, with: newElements)
        self = ChunkedArray(elements)
    }
}

extension ChunkedArray: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension ChunkedArray: Equatable where Element: Equatable {
    /// Equal elements in order; shared chunks compare in O(1).
    public static func == (lhs: ChunkedArray, rhs: ChunkedArray) -> Bool {
        guard lhs.total == rhs.total else { return false }
        let common = lhs.commonPrefixAndSuffix(with: rhs)
        return common.prefix + common.suffix >= lhs.total
    }
}

extension ChunkedArray where Element: Equatable {
    /// How many leading and trailing elements `self` and `other` have in common: shared chunks
    /// are skipped at once, the rest compared element by element, walking the chunks in place.
    public func commonPrefixAndSuffix(with other: ChunkedArray) -> (prefix: Int, suffix: Int) {
        let shared = sharedChunkElements(with: other)
        let limit = Swift.min(total, other.total)
        var prefix = shared.prefix
        if prefix < limit {
            var (chunkA, offsetA) = locate(prefix)
            var (chunkB, offsetB) = other.locate(prefix)
            while prefix < limit {
                // NB: one chunk pair at a time, compared through buffer pointers, so no element
                // or chunk is copied per comparison.
                let a = chunks[chunkA]
                let b = other.chunks[chunkB]
                let span = Swift.min(a.count - offsetA, b.count - offsetB, limit - prefix)
                let equal = Self.equalRun(a, from: offsetA, b, from: offsetB, count: span, forward: true)
                prefix += equal
                if equal < span { break }
                offsetA += equal
                offsetB += equal
                if offsetA == a.count { chunkA += 1; offsetA = 0 }
                if offsetB == b.count { chunkB += 1; offsetB = 0 }
            }
        }
        var suffix = Swift.min(shared.suffix, limit - prefix)
        if suffix < limit - prefix {
            // Positions of the last element not yet known to be equal, counted from the front.
            var (chunkA, offsetA) = locate(total - 1 - suffix)
            var (chunkB, offsetB) = other.locate(other.total - 1 - suffix)
            while suffix < limit - prefix {
                let a = chunks[chunkA]
                let b = other.chunks[chunkB]
                let span = Swift.min(offsetA + 1, offsetB + 1, limit - prefix - suffix)
                let equal = Self.equalRun(a, from: offsetA, b, from: offsetB, count: span, forward: false)
                suffix += equal
                if equal < span { break }
                offsetA -= equal
                offsetB -= equal
                if offsetA < 0 {
                    if chunkA == 0 { break }
                    chunkA -= 1
                    offsetA = chunks[chunkA].count - 1
                }
                if offsetB < 0 {
                    if chunkB == 0 { break }
                    chunkB -= 1
                    offsetB = other.chunks[chunkB].count - 1
                }
            }
        }
        return (prefix, suffix)
    }

    /// How many of `count` elements are equal, walking from the given offsets forward or back.
    ///
    /// NB: an element copied from another (as a chunk's elements are when one of them changes)
    /// has the same bytes: those are taken as equal without calling `==`, which for generic code
    /// costs a copy of each element. Bytes that differ (padding, other storage) still ask `==`.
    @usableFromInline
    static func equalRun(_ a: [Element], from startA: Int, _ b: [Element], from startB: Int, count: Int, forward: Bool)
        -> Int
    {
        // NB: raw pointers and byte offsets, so that this generic code (the diff calls it for any
        // element type) does no per-element work through type metadata until `==` is needed.
        let size = MemoryLayout<Element>.size
        let stride = MemoryLayout<Element>.stride
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return 0 }
                let step = forward ? stride : -stride
                var l = leftBase + startA * stride
                var r = rightBase + startB * stride
                var equal = 0
                while equal < count {
                    if !sameBytes(l, r, count: size),
                        l.assumingMemoryBound(to: Element.self).pointee
                            != r.assumingMemoryBound(to: Element.self).pointee
                    {
                        break
                    }
                    equal += 1
                    l += step
                    r += step
                }
                return equal
            }
        }
    }

    /// The elements in `range`, copied chunk by chunk.
    public func elements(in range: Range<Int>) -> [Element] {
        var result: [Element] = []
        guard !range.isEmpty else { return result }
        result.reserveCapacity(range.count)
        var (chunk, offset) = locate(range.lowerBound)
        while result.count < range.count {
            let take = Swift.min(chunks[chunk].count - offset, range.count - result.count)
            result.append(contentsOf: chunks[chunk][offset..<(offset + take)])
            chunk += 1
            offset = 0
        }
        return result
    }
}

/// Whether `count` bytes at `a` and `b` are the same.
@usableFromInline
func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        offset += 8
    }
    while offset < count {
        if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) { return false }
        offset += 1
    }
    return true
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: Encodable where Element: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for chunk in chunks {
            for element in chunk { try container.encode(element) }
        }
    }
}

extension ChunkedArray: Decodable where Element: Decodable {
    public init(from decoder: any Decoder) throws {
        self.init(try [Element](from: decoder))
    }
}

extension ChunkedArray: CustomStringConvertible {
    public var description: String { Array(self).description }
}
