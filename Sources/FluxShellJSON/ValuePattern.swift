/// A value in which `*` stands for any value, as a whole value or at any depth inside an array or
/// object: what a value of an expected diff line and of `expect PATH == VALUE` may be
/// (`~ todos[0].createdAt: null -> *`, `expect todos[0] == {"id":1,"createdAt":*}`).
///
/// Only where a value stands: in quotes, `"*"` is a string, and no key is a `*`.
package struct ValuePattern: Sendable, Equatable, CustomStringConvertible {
    /// The value as written, `null` where each `*` stands.
    public var value: JSONValue
    /// Where each `*` stands in `value`, in the order written (empty: the pattern is the value).
    public var wildcards: [[ValuePath.Segment]]

    /// The pattern `*`: any value.
    public static let any = ValuePattern(value: .null, wildcards: [[]])

    public init(value: JSONValue, wildcards: [[ValuePath.Segment]]) {
        self.value = value
        self.wildcards = wildcards
    }

    /// The pattern of a JSON literal with `*` where values may stand.
    ///
    /// - Throws: ``JSONParseError`` when `text` is not such a literal (`*` inside a key, next to
    ///   another value: `2*`).
    package static func parse(_ text: Substring) throws(JSONParseError) -> ValuePattern {
        var wildcards: [[ValuePath.Segment]] = []
        let value = try JSONParser.parse(text, wildcards: &wildcards)
        return ValuePattern(value: value, wildcards: wildcards)
    }

    /// Whether `text` has a `*` outside quotes: a pattern, or no JSON at all.
    package static func mayHoldWildcard(_ text: Substring) -> Bool {
        firstOutsideQuotes("*", in: text, atDepthZero: false) != nil
    }

    /// Where `needle` (ASCII) first occurs in `text` outside JSON strings, and with `atDepthZero`
    /// outside brackets too: the `: ` after a path (`scores["a: b"]: 1`), the ` -> ` between a
    /// `~` line's values.
    package static func firstOutsideQuotes(_ needle: String, in text: Substring, atDepthZero: Bool) -> Substring.Index?
    {
        let needle = Array(needle.utf8)
        let bytes = text.utf8
        var depth = 0
        var inString = false
        var escaped = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default:
                    if depth == 0 || !atDepthZero, byte == needle[0], bytes[index...].starts(with: needle) {
                        return index
                    }
                }
            }
            bytes.formIndex(after: &index)
        }
        return nil
    }

    /// Whether `actual` is the value written, whatever it holds where a `*` stands (`*` matches
    /// `null` too, but not a member or element that is not there). Compared as `==` compares
    /// values: structurally, `1` the same number as `1.0`.
    public func matches(_ actual: JSONValue) -> Bool {
        filled(from: actual) == actual
    }

    /// The value written, each `*` replaced by what `actual` holds at its place (left `null` where
    /// `actual` has no such place): equal to `actual` exactly when the pattern matches it, and
    /// what a failure compares with `actual` to name what differs.
    public func filled(from actual: JSONValue) -> JSONValue {
        var filled = value
        for place in wildcards {
            if let found = Self.value(in: actual, at: place[...]) { filled.put(found, at: place[...]) }
        }
        return filled
    }

    /// `value` with a `*` at each of this pattern's places that it has: it matches `value`.
    package func keepingWildcards(in value: JSONValue) -> ValuePattern {
        ValuePattern(value: value, wildcards: wildcards.filter { Self.value(in: value, at: $0[...]) != nil })
    }

    /// The value at `place` inside `value`: members by key, elements by index; `nil` when it is
    /// not there.
    private static func value(in value: JSONValue, at place: ArraySlice<ValuePath.Segment>) -> JSONValue? {
        var current = value
        for segment in place {
            switch (current, segment) {
            case (.array(let elements), .index(let index)) where elements.indices.contains(index):
                current = elements[index]
            case (.object(let object), .key(let key)):
                guard let member = object[key] else { return nil }
                current = member
            default:
                return nil
            }
        }
        return current
    }

    /// The pattern as written, compact: `{"id":1,"createdAt":*}`.
    public var description: String {
        var text = ""
        JSONText.writeCompact(value, marking: wildcards.map { ($0[...], "*") }, to: &text)
        return text
    }
}
