/// An array for large states: its elements live in chunks, grouped in pages, that copies share,
/// so changing one element of a 100,000-element state copies one chunk of 64 elements, one page's
/// list of 64 chunks and the short list of pages, not every element; and comparing two versions
/// skips the pages and chunks they still share.
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
    static var chunkCapacity: Int { 64 }
    /// The most chunks a page holds after an append.
    @usableFromInline
    static var pageCapacity: Int { 64 }

    /// Up to ``pageCapacity`` chunks. Changing an element copies the list of pages (a few dozen
    /// for 100,000 elements), one page's list of chunks and one chunk: not every element, nor
    /// one reference per chunk.
    @usableFromInline
    struct Page {
        @usableFromInline
        var chunks: [[Element]]
        /// The index in the page of the first element of each chunk.
        @usableFromInline
        var starts: [Int]
        @usableFromInline
        var count: Int

        @usableFromInline
        init(_ chunk: [Element]) {
            chunks = [chunk]
            starts = [0]
            count = chunk.count
        }

        @usableFromInline
        mutating func rebuildStarts() { count = fillStarts(&starts, counts: chunks.lazy.map(\.count)) }

    }

    /// Where an element is: its page, the chunk in the page, the offset in the chunk.
    @usableFromInline
    struct Position {
        @usableFromInline var page: Int
        @usableFromInline var chunk: Int
        @usableFromInline var offset: Int

        @usableFromInline
        init(page: Int, chunk: Int, offset: Int) {
            self.page = page
            self.chunk = chunk
            self.offset = offset
        }
    }

    @usableFromInline
    var pages: [Page]
    /// The index of the first element of each page.
    @usableFromInline
    var pageStarts: [Int]
    @usableFromInline
    var total: Int

    public init() {
        pages = []
        pageStarts = []
        total = 0
    }

    public init<S: Sequence>(_ elements: S) where S.Element == Element {
        self.init()
        for element in elements { append(element) }
    }

    /// The position of `index`.
    @inlinable
    func locate(_ index: Int) -> Position {
        precondition(index >= 0 && index < total, "ChunkedArray index \(index) out of range 0..<\(total)")
        let page = Self.lastStart(atMost: index, in: pageStarts)
        let inPage = index - pageStarts[page]
        let chunk = Self.lastStart(atMost: inPage, in: pages[page].starts)
        return Position(page: page, chunk: chunk, offset: inPage - pages[page].starts[chunk])
    }

    /// The index of the last of the ascending `starts` that is at most `index`.
    @inlinable
    static func lastStart(atMost index: Int, in starts: [Int]) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    @usableFromInline
    mutating func rebuildPageStarts() { total = fillStarts(&pageStarts, counts: pages.lazy.map(\.count)) }

    /// After a change to `page`'s chunks: drops empty chunks and pages, recounts.
    @usableFromInline
    mutating func rebuild(page: Int) {
        pages[page].chunks.removeAll { $0.isEmpty }
        if pages[page].chunks.isEmpty {
            pages.remove(at: page)
        } else {
            pages[page].rebuildStarts()
        }
        rebuildPageStarts()
    }

    /// How many elements at the front, and at the back, `self` and `other` hold in shared chunks:
    /// what a diff between two versions can skip without comparing them.
    public func sharedChunkElements(with other: ChunkedArray) -> (prefix: Int, suffix: Int) {
        // NB: shared pages are skipped whole; in the first (and last) page that differs, chunks
        // are compared by the address of their storage, without copying or retaining any.
        let limit = Swift.min(total, other.total)
        let prefix = Swift.min(sharedElements(with: other, fromBack: false), limit)
        return (prefix, Swift.min(sharedElements(with: other, fromBack: true), limit - prefix))
    }

    /// The elements in the leading (or trailing) pages and chunks `self` and `other` share.
    func sharedElements(with other: ChunkedArray, fromBack: Bool) -> Int {
        // NB: the pages are walked as raw memory, as the chunks are below: a page's list of chunks
        // is one reference to its storage, equal for two pages that are copies of each other, and
        // its count is an `Int` at its own offset. Walking them as typed copies of `Page` made
        // every page a retain, a release and (in the shell's generic code) a metadata look-up, so
        // that an add cost more the more todos there were.
        let stride = MemoryLayout<Page>.stride
        let chunksOffset = MemoryLayout<Page>.offset(of: \Page.chunks)!
        let countOffset = MemoryLayout<Page>.offset(of: \Page.count)!
        let (index, shared) = pages.withUnsafeBytes { left in
            other.pages.withUnsafeBytes { right in
                let leftCount = left.count / stride
                let rightCount = right.count / stride
                var index = 0
                var shared = 0
                while index < Swift.min(leftCount, rightCount) {
                    let a = (fromBack ? leftCount - 1 - index : index) * stride
                    let b = (fromBack ? rightCount - 1 - index : index) * stride
                    guard
                        left.load(fromByteOffset: a + chunksOffset, as: UnsafeRawPointer.self)
                            == right.load(fromByteOffset: b + chunksOffset, as: UnsafeRawPointer.self)
                    else { break }
                    shared += left.load(fromByteOffset: a + countOffset, as: Int.self)
                    index += 1
                }
                return (index, shared)
            }
        }
        guard index < Swift.min(pages.count, other.pages.count) else { return shared }
        let mine = pages[fromBack ? pages.count - 1 - index : index]
        let theirs = other.pages[fromBack ? other.pages.count - 1 - index : index]
        return shared + Self.sharedElements(mine.chunks, theirs.chunks, fromBack: fromBack)
    }

    /// The elements in the leading (or trailing) chunks that two lists share.
    static func sharedElements(_ mine: [[Element]], _ theirs: [[Element]], fromBack: Bool) -> Int {
        // NB: an Array is exactly one reference to its buffer, so a list of chunks is a sequence
        // of buffer pointers in memory.
        let stride = MemoryLayout<[Element]>.stride
        let shared = mine.withUnsafeBytes { left in
            theirs.withUnsafeBytes { right in
                var count = 0
                let limit = Swift.min(left.count, right.count) / stride
                while count < limit {
                    let a = fromBack ? left.count / stride - 1 - count : count
                    let b = fromBack ? right.count / stride - 1 - count : count
                    guard
                        left.load(fromByteOffset: a * stride, as: UnsafeRawPointer.self)
                            == right.load(fromByteOffset: b * stride, as: UnsafeRawPointer.self)
                    else { break }
                    count += 1
                }
                return count
            }
        }
        var elements = 0
        for index in 0..<shared { elements += mine[fromBack ? mine.count - 1 - index : index].count }
        return elements
    }

    /// The chunk at `position`.
    @inlinable
    func chunk(at position: Position) -> [Element] { pages[position.page].chunks[position.chunk] }

    /// The first element of the next chunk, or `nil` after the last.
    @usableFromInline
    func nextChunk(after position: Position) -> Position? {
        if position.chunk + 1 < pages[position.page].chunks.count {
            return Position(page: position.page, chunk: position.chunk + 1, offset: 0)
        }
        return position.page + 1 < pages.count ? Position(page: position.page + 1, chunk: 0, offset: 0) : nil
    }

    /// The last element of the previous chunk, or `nil` before the first.
    @usableFromInline
    func previousChunk(before position: Position) -> Position? {
        var page = position.page
        var chunk = position.chunk - 1
        if chunk < 0 {
            page -= 1
            guard page >= 0 else { return nil }
            chunk = pages[page].chunks.count - 1
        }
        return Position(page: page, chunk: chunk, offset: pages[page].chunks[chunk].count - 1)
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
            let at = locate(position)
            return pages[at.page].chunks[at.chunk][at.offset]
        }
        set {
            let at = locate(position)
            pages[at.page].chunks[at.chunk][at.offset] = newValue
        }
    }
}

extension ChunkedArray: RangeReplaceableCollection {
    public mutating func append(_ newElement: Element) {
        let last = pages.count - 1
        if last >= 0, let chunk = pages[last].chunks.indices.last {
            if pages[last].chunks[chunk].count < Self.chunkCapacity {
                pages[last].chunks[chunk].append(newElement)
                pages[last].count += 1
                total += 1
                return
            }
            if pages[last].chunks.count < Self.pageCapacity {
                var fresh = [newElement]
                fresh.reserveCapacity(Self.chunkCapacity)
                pages[last].starts.append(pages[last].count)
                pages[last].chunks.append(fresh)
                pages[last].count += 1
                total += 1
                return
            }
        }
        var fresh = [newElement]
        fresh.reserveCapacity(Self.chunkCapacity)
        pageStarts.append(total)
        pages.append(Page(fresh))
        total += 1
    }

    @discardableResult
    public mutating func remove(at position: Int) -> Element {
        let at = locate(position)
        let removed = pages[at.page].chunks[at.chunk].remove(at: at.offset)
        rebuild(page: at.page)
        return removed
    }

    public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
        // NB: chunks (and pages) without a removed element are kept as they are, so they stay
        // shared.
        var changed = false
        for page in pages.indices {
            var pageChanged = false
            for chunk in pages[page].chunks.indices {
                guard try pages[page].chunks[chunk].contains(where: shouldBeRemoved) else { continue }
                try pages[page].chunks[chunk].removeAll(where: shouldBeRemoved)
                pageChanged = true
            }
            guard pageChanged else { continue }
            changed = true
            pages[page].chunks.removeAll { $0.isEmpty }
            pages[page].rebuildStarts()
        }
        guard changed else { return }
        pages.removeAll { $0.chunks.isEmpty }
        rebuildPageStarts()
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
        if let equal = lhs.equalChunkByChunk(rhs) { return equal }
        let common = lhs.commonPrefixAndSuffix(with: rhs)
        return common.prefix + common.suffix >= lhs.total
    }
}

extension ChunkedArray where Element: Equatable {
    /// Whether `self` and `other` hold equal elements, when their chunks have the same bounds (two
    /// versions of one array a few changes apart do): only the chunks they do not share are
    /// compared. `nil` when the bounds differ.
    ///
    /// NB: walked as raw memory, as ``sharedElements(with:fromBack:)`` does, so that a page or a
    /// chunk both share, wherever it is, costs one comparison of two addresses. Comparing
    /// 100,000 todos with a copy a few scattered toggles apart (the undo history's check) walked
    /// every element after the first changed chunk otherwise.
    func equalChunkByChunk(_ other: ChunkedArray) -> Bool? {
        guard pages.count == other.pages.count else { return nil }
        let stride = MemoryLayout<Page>.stride
        let chunksOffset = MemoryLayout<Page>.offset(of: \Page.chunks)!
        let count = pages.count
        var index = 0
        while true {
            // The next page whose list of chunks is not shared.
            index = pages.withUnsafeBytes { left in
                other.pages.withUnsafeBytes { right in
                    var page = index
                    while page < count,
                        left.load(fromByteOffset: page * stride + chunksOffset, as: UnsafeRawPointer.self)
                            == right.load(fromByteOffset: page * stride + chunksOffset, as: UnsafeRawPointer.self)
                    {
                        page += 1
                    }
                    return page
                }
            }
            guard index < count else { return true }
            let equal = Self.equalChunkByChunk(pages[index].chunks, other.pages[index].chunks)
            guard equal == true else { return equal }
            index += 1
        }
    }

    /// Whether two lists of chunks with the same bounds hold equal elements; `nil` when the bounds
    /// differ.
    static func equalChunkByChunk(_ mine: [[Element]], _ theirs: [[Element]]) -> Bool? {
        guard mine.count == theirs.count else { return nil }
        let stride = MemoryLayout<[Element]>.stride
        let count = mine.count
        var index = 0
        while true {
            // The next chunk not shared.
            index = mine.withUnsafeBytes { left in
                theirs.withUnsafeBytes { right in
                    var chunk = index
                    while chunk < count,
                        left.load(fromByteOffset: chunk * stride, as: UnsafeRawPointer.self)
                            == right.load(fromByteOffset: chunk * stride, as: UnsafeRawPointer.self)
                    {
                        chunk += 1
                    }
                    return chunk
                }
            }
            guard index < count else { return true }
            let a = mine[index]
            let b = theirs[index]
            guard a.count == b.count else { return nil }
            if equalRun(a, from: 0, b, from: 0, count: a.count, forward: true) < a.count { return false }
            index += 1
        }
    }

    /// How many leading and trailing elements `self` and `other` have in common: shared chunks
    /// are skipped at once, the rest compared element by element, walking the chunks in place.
    public func commonPrefixAndSuffix(with other: ChunkedArray) -> (prefix: Int, suffix: Int) {
        let shared = sharedChunkElements(with: other)
        let limit = Swift.min(total, other.total)
        var prefix = shared.prefix
        if prefix < limit {
            var a = locate(prefix)
            var b = other.locate(prefix)
            while prefix < limit {
                // NB: one chunk pair at a time, compared through buffer pointers, so no element
                // or chunk is copied per comparison.
                let left = chunk(at: a)
                let right = other.chunk(at: b)
                let span = Swift.min(left.count - a.offset, right.count - b.offset, limit - prefix)
                let equal = Self.equalRun(left, from: a.offset, right, from: b.offset, count: span, forward: true)
                prefix += equal
                if equal < span { break }
                a.offset += equal
                b.offset += equal
                if a.offset == left.count {
                    guard let next = nextChunk(after: a) else { break }
                    a = next
                }
                if b.offset == right.count {
                    guard let next = other.nextChunk(after: b) else { break }
                    b = next
                }
            }
        }
        var suffix = Swift.min(shared.suffix, limit - prefix)
        if suffix < limit - prefix {
            // Positions of the last element not yet known to be equal, counted from the front.
            var a = locate(total - 1 - suffix)
            var b = other.locate(other.total - 1 - suffix)
            while suffix < limit - prefix {
                let left = chunk(at: a)
                let right = other.chunk(at: b)
                let span = Swift.min(a.offset + 1, b.offset + 1, limit - prefix - suffix)
                let equal = Self.equalRun(left, from: a.offset, right, from: b.offset, count: span, forward: false)
                suffix += equal
                if equal < span { break }
                a.offset -= equal
                b.offset -= equal
                if a.offset < 0 {
                    guard let previous = previousChunk(before: a) else { break }
                    a = previous
                }
                if b.offset < 0 {
                    guard let previous = other.previousChunk(before: b) else { break }
                    b = previous
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
}

extension ChunkedArray {
    /// The elements in `range`, copied chunk by chunk.
    public func elements(in range: Range<Int>) -> [Element] {
        var result: [Element] = []
        guard !range.isEmpty else { return result }
        result.reserveCapacity(range.count)
        var position = locate(range.lowerBound)
        while result.count < range.count {
            let elements = chunk(at: position)
            let take = Swift.min(elements.count - position.offset, range.count - result.count)
            result.append(contentsOf: elements[position.offset..<(position.offset + take)])
            guard let next = nextChunk(after: position) else { break }
            position = next
        }
        return result
    }
}

/// Replaces `starts` with the running totals before each of `counts`; returns the sum.
@usableFromInline
func fillStarts(_ starts: inout [Int], counts: some Sequence<Int>) -> Int {
    starts.removeAll(keepingCapacity: true)
    var start = 0
    for count in counts {
        starts.append(start)
        start += count
    }
    return start
}

/// Whether `count` bytes at `a` and `b` are the same.
@usableFromInline
func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    var offset = 0
    while offset + 8 <= count {
        if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
            return false
        }
        offset += 8
    }
    while offset < count {
        if a.load(fromByteOffset: offset, as: UInt8.self) != b.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        offset += 1
    }
    return true
}

extension ChunkedArray: Sendable where Element: Sendable {}
extension ChunkedArray.Page: Sendable where Element: Sendable {}

extension ChunkedArray: Encodable where Element: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for page in pages {
            for chunk in page.chunks {
                for element in chunk { try container.encode(element) }
            }
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
