import FluxShellSystem

/// `K/N`: the K-th (1-based) of N equal slices of a sorted list, for CI matrices. Every item is in
/// exactly one shard.
public struct Shard: Sendable, Equatable {
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) throws(ShellError) {
        guard count >= 1, (1...count).contains(index) else {
            throw ShellError("invalid shard \(index)/\(count)", hint: "K/N with 1 <= K <= N, e.g. 1/4")
        }
        self.index = index
        self.count = count
    }

    public init(parsing text: String) throws(ShellError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShellError("invalid shard '\(text)'", hint: "K/N with 1 <= K <= N, e.g. 1/4")
        }
        try self.init(index: index, count: count)
    }

    /// The items of this shard: every N-th item of the sorted list, starting at the K-th.
    public func select<T>(_ items: [T]) -> [T] {
        items.enumerated().filter { includes($0.offset) }.map(\.element)
    }

    /// Whether the item at 0-based `position` of the list is in this shard.
    public func includes(_ position: Int) -> Bool { position % count == index - 1 }
}
