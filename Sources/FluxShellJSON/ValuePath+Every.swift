import FluxShellSystem

/// Paths with `[*]`: every element of an array, every value of an object.
extension ValuePath {
    /// Whether the path holds a `[*]`.
    public var namesEveryElement: Bool {
        var found = false
        forEachSegment { segment, _ in
            if case .every = segment { found = true }
            return !found
        }
        return found
    }

    /// The path with each `[*]` made `[0]`: an example of one place it stands for.
    package var firstElement: ValuePath {
        ValuePath(segments.map { $0 == .every ? .index(0) : $0 })
    }

    /// Every place the path names in `root`, with its value, in the state's order: the one place
    /// of a path without `[*]`; one per element for each `[*]` (none for an empty collection).
    ///
    /// - Throws: what ``lookup(in:)`` throws for a place that is not there, naming the element
    ///   (`no key 'done' in todos[3]`), or when a `[*]` is applied to something that is not a
    ///   collection.
    public func places(in root: JSONValue) throws(ShellError) -> [(path: ValuePath, value: JSONValue)] {
        guard namesEveryElement else { return [(self, try lookup(in: root))] }
        var prefixes: [[Segment]] = [[]]
        var pending: [Segment] = []
        for segment in segments {
            guard case .every = segment else {
                pending.append(segment)
                continue
            }
            var expanded: [[Segment]] = []
            for prefix in prefixes {
                let base = ValuePath(prefix + pending)
                switch try base.lookup(in: root) {
                case .array(let elements):
                    for index in elements.indices { expanded.append(prefix + pending + [.index(index)]) }
                case .object(let object):
                    for key in object.keys {
                        expanded.append(prefix + pending + [object.isKeyed ? .entry(key) : .key(key)])
                    }
                case let scalar:
                    throw ShellError(
                        "\(base.isRoot ? "the state" : base.description) is \(scalar.kindName): [*] needs an array or an object",
                        hint: "\(self) names every element of a collection")
                }
            }
            prefixes = expanded
            pending = []
        }
        var places: [(path: ValuePath, value: JSONValue)] = []
        places.reserveCapacity(prefixes.count)
        for prefix in prefixes {
            let path = ValuePath(prefix + pending)
            places.append((path, try path.lookup(in: root)))
        }
        return places
    }

    /// Whether `path` (with no `[*]`) is this path or a place under it, a `[*]` here matching any
    /// index or key there.
    package func covers(_ path: ValuePath) -> Bool {
        let pattern = segments
        let concrete = path.segments
        guard concrete.count >= pattern.count else { return false }
        for (wanted, actual) in zip(pattern, concrete) {
            switch wanted {
            case .every:
                if case .every = actual { return false }
            default:
                if wanted != actual { return false }
            }
        }
        return true
    }
}
