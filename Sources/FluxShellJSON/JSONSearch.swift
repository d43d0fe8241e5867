/// The places of a printed value that `find` lists: those whose key or scalar holds a text, or
/// whose value matches a pattern (reference: "find").
package enum JSONSearch {
    /// Every place at or under `path` in `value` whose key, or whose scalar as printed (a string's
    /// text, a number, `true`, `false`, `null`), holds `text` in any case; in the value's order,
    /// each place once.
    package static func places(holding text: String, in value: JSONValue, at path: ValuePath = .root)
        -> [(path: ValuePath, value: JSONValue)]
    {
        var found: [(path: ValuePath, value: JSONValue)] = []
        var segments = path.segments
        search(value, at: &segments, keyMatched: false, for: Needle(text), into: &found)
        return found
    }

    /// Every place at or under `path` in `value` whose value `pattern` matches, in the value's
    /// order; under a place found, nothing more is looked for.
    package static func places(matching pattern: ValuePattern, in value: JSONValue, at path: ValuePath = .root)
        -> [(path: ValuePath, value: JSONValue)]
    {
        var found: [(path: ValuePath, value: JSONValue)] = []
        var segments = path.segments
        match(value, at: &segments, pattern, into: &found)
        return found
    }

    // NB: the walks keep the path as one stack of segments, pushed and popped in place, and make a
    // `ValuePath` only for a place found: a path made for every place looked at was most of the
    // time of a search.

    private static func search(
        _ value: JSONValue, at segments: inout [ValuePath.Segment], keyMatched: Bool, for needle: Needle,
        into found: inout [(path: ValuePath, value: JSONValue)]
    ) {
        switch value {
        case .object(let object):
            if keyMatched { found.append((ValuePath(segments), value)) }
            let isKeyed = object.isKeyed
            for (key, member) in object.members {
                segments.append(isKeyed ? .entry(key) : .key(key))
                search(member, at: &segments, keyMatched: needle.isFound(in: key), for: needle, into: &found)
                segments.removeLast()
            }
        case .array(let elements):
            if keyMatched { found.append((ValuePath(segments), value)) }
            for (index, element) in elements.enumerated() {
                segments.append(.index(index))
                search(element, at: &segments, keyMatched: false, for: needle, into: &found)
                segments.removeLast()
            }
        case .string(let text):
            if keyMatched || needle.isFound(in: text) { found.append((ValuePath(segments), value)) }
        default:
            if keyMatched || needle.isFound(in: JSONText.compact(value)) { found.append((ValuePath(segments), value)) }
        }
    }

    private static func match(
        _ value: JSONValue, at segments: inout [ValuePath.Segment], _ pattern: ValuePattern,
        into found: inout [(path: ValuePath, value: JSONValue)]
    ) {
        if mayMatch(pattern, value), pattern.matches(value) { return found.append((ValuePath(segments), value)) }
        switch value {
        case .object(let object):
            let isKeyed = object.isKeyed
            for (key, member) in object.members {
                segments.append(isKeyed ? .entry(key) : .key(key))
                match(member, at: &segments, pattern, into: &found)
                segments.removeLast()
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                segments.append(.index(index))
                match(element, at: &segments, pattern, into: &found)
                segments.removeLast()
            }
        default:
            break
        }
    }

    /// Whether `pattern` may match `value`, told cheaply: a container of another kind or size, or
    /// an object that differs in a scalar member written without `*`, does not; what passes is
    /// matched in full. Most places of a large state are rejected here with nothing made.
    private static func mayMatch(_ pattern: ValuePattern, _ value: JSONValue) -> Bool {
        if pattern.wildcards.contains(where: \.isEmpty) { return true }
        switch pattern.value {
        case .object(let written):
            guard case .object(let actual) = value, actual.count == written.count else { return false }
            for (key, member) in written.members {
                switch member {
                case .object, .array: continue
                default:
                    guard !pattern.wildcards.contains([.key(key)]) else { continue }
                    guard let held = actual[key], held == member else { return false }
                }
            }
            return true
        case .array(let written):
            guard case .array(let actual) = value else { return false }
            return actual.count == written.count
        default:
            switch value {
            case .object, .array: return false
            default: return true
            }
        }
    }

    /// A text looked for in any case: ASCII letters folded byte by byte, with no string made; a
    /// text with other letters compared lowercased.
    private struct Needle {
        let bytes: [UInt8]
        let lowercased: String
        let isASCII: Bool

        init(_ text: String) {
            lowercased = text.lowercased()
            bytes = Array(lowercased.utf8)
            isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        }

        func isFound(in text: String) -> Bool {
            guard isASCII else { return text.lowercased().contains(lowercased) }
            let utf8 = text.utf8
            var start = utf8.startIndex
            while start != utf8.endIndex {
                var index = start
                var matched = 0
                while matched < bytes.count, index != utf8.endIndex, Self.folded(utf8[index]) == bytes[matched] {
                    utf8.formIndex(after: &index)
                    matched += 1
                }
                if matched == bytes.count { return true }
                utf8.formIndex(after: &start)
            }
            return bytes.isEmpty
        }

        private static func folded(_ byte: UInt8) -> UInt8 {
            byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
        }
    }
}
