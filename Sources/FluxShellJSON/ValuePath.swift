import FluxShellSystem

/// A place in a state: `.` (the whole state), `count`, `todos[0].title`, `scores["alice"]`; in
/// `expect`, `state` and `watch`, `todos[*].done` stands for every element's.
@_documentation(visibility: internal)
public struct ValuePath: Sendable, Hashable, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        /// `.name`: a member of a struct, a tuple or an enum case's payload; also a dictionary's
        /// key written bare (`budget.zeta`), except `.count`, which is a dictionary's count.
        case key(String)
        /// `["name"]`: a dictionary's key, as diff lines print it (`budget["zeta"]`); always the
        /// key, never the count. A member written so (`hours["open"]`) is the member.
        case entry(String)
        case index(Int)
        /// `[*]`: every element of an array (every value of an object).
        case every
        /// `[id: X]`: the element of an array whose `id` prints as `X` (docs/reference.md, Paths).
        case id(JSONValue)

        /// The name of a ``key(_:)`` or an ``entry(_:)``.
        package var keyText: String? {
            switch self {
            case .key(let key), .entry(let key): key
            default: nil
            }
        }

        /// NB: a key names the same place however it is written (`budget.zeta`, `budget["zeta"]`),
        /// so a watch or `why` written either way follows the diff lines; only reading `.count`
        /// of a dictionary tells the two apart (``ValuePath/lookup(in:)``).
        public static func == (lhs: Segment, rhs: Segment) -> Bool {
            switch (lhs, rhs) {
            case (.key(let a), .key(let b)), (.key(let a), .entry(let b)), (.entry(let a), .key(let b)),
                (.entry(let a), .entry(let b)):
                a == b
            case (.index(let a), .index(let b)): a == b
            case (.every, .every): true
            case (.id(let a), .id(let b)): a == b
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .key(let key), .entry(let key):
                hasher.combine(0)
                hasher.combine(key)
            case .index(let index):
                hasher.combine(1)
                hasher.combine(index)
            case .every: hasher.combine(2)
            case .id(let id):
                hasher.combine(3)
                hasher.combine(id)
            }
        }
    }

    /// NB: a path of one segment (a state's member, as most diff lines have) keeps it inline,
    /// with no array to allocate; any other keeps a list. Never a list of one, so that equal
    /// paths have equal storage.
    @usableFromInline
    enum Storage: Sendable, Hashable {
        case one(Segment)
        case list([Segment])
    }

    @usableFromInline var storage: Storage

    public var segments: [Segment] {
        get {
            switch storage {
            case .one(let segment): [segment]
            case .list(let segments): segments
            }
        }
        set { storage = Self.storage(of: newValue) }
    }

    @inlinable public init(_ segments: [Segment] = []) { storage = Self.storage(of: segments) }

    @inlinable static func storage(of segments: [Segment]) -> Storage {
        segments.count == 1 ? .one(segments[0]) : .list(segments)
    }

    @inlinable public static var root: ValuePath { ValuePath() }

    @inlinable public func appending(_ segment: Segment) -> ValuePath {
        if case .list(let segments) = storage, segments.isEmpty { return ValuePath(one: segment) }
        return ValuePath(segments + [segment])
    }

    @inlinable init(one segment: Segment) { storage = .one(segment) }

    /// Whether this is the root (`.`).
    @inlinable package var isRoot: Bool {
        if case .list(let segments) = storage { return segments.isEmpty }
        return false
    }

    /// Calls `body` with each segment in order (and whether it is the first), without making
    /// a list of a one-segment path; stops when `body` returns `false`.
    @inlinable func forEachSegment(_ body: (Segment, _ isFirst: Bool) -> Bool) {
        switch storage {
        case .one(let segment): _ = body(segment, true)
        case .list(let segments):
            for (index, segment) in segments.enumerated() where !body(segment, index == 0) { return }
        }
    }

    /// The path as the shell prints it: `.` for the root, else `todos[0].title`.
    public var description: String {
        var text = OutputBuffer()
        write(to: &text)
        return text.text
    }

    /// Appends the path as printed to `output`, as UTF-8.
    @inlinable public func write(to output: inout _OutputBuffer) {
        guard !isRoot else {
            output.append(0x2E)
            return
        }
        forEachSegment { segment, isFirst in
            switch segment {
            case .index(let index):
                output.append(0x5B)
                output.appendDecimal(index)
                output.append(0x5D)
            case .every:
                output.append("[*]")
            case .id(let id):
                output.append("[id: ")
                JSONText.writeCompact(id, to: &output)
                output.append(0x5D)
            case .entry(let key):
                output.append(0x5B)
                JSONText.writeQuoted(key, to: &output)
                output.append(0x5D)
            case .key(let key):
                // NB: most keys are plain: written as they are while checked, in one pass, and
                // taken back to be written quoted when they turn out not to be.
                let start = output.count
                if !isFirst { output.append(0x2E) }
                if !Self.appendPlain(key, to: &output) {
                    output.removeAll(after: start)
                    output.append(0x5B)
                    JSONText.writeQuoted(key, to: &output)
                    output.append(0x5D)
                }
            }
            return true
        }
    }

    /// Appends `key` when it is plain; `false` (with some of it appended) when it is not.
    @usableFromInline static func appendPlain(_ key: String, to output: inout OutputBuffer) -> Bool {
        var key = key
        return key.withUTF8 { bytes in
            guard let first = bytes.first, isPlainKeyStart(first) else { return false }
            for byte in bytes {
                guard isPlainKeyByte(byte) else { return false }
                output.append(byte)
            }
            return true
        }
    }

    /// Keys that print bare: letters, digits and `_`, not starting with a digit.
    package static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, isPlainKeyStart(first) else { return false }
        // NB: over the contiguous bytes (every key the shell makes), not the generic UTF-8 view.
        return key.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where !isPlainKeyByte(byte) { return false }
            return true
        } ?? key.utf8.allSatisfy(isPlainKeyByte)
    }

    /// A byte a bare key may hold: a letter, a digit, `_`, or part of a non-ASCII character.
    static func isPlainKeyByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == 0x5F || byte >= 0x80
    }

    /// A byte a bare key may start with: any of those but a digit.
    static func isPlainKeyStart(_ byte: UInt8) -> Bool { isPlainKeyByte(byte) && !(0x30...0x39).contains(byte) }

    /// Parses a path as typed in `state` and `expect`.
    public static func parse(_ text: Substring) throws(ShellError) -> ValuePath {
        try parse(text, column: nil)
    }

    /// Parses a path; an error names `column`, where its `$` stands in its line, when given (a
    /// `$PATH` inside a JSON argument, one of several on the line).
    package static func parse(_ text: Substring, column: Int?) throws(ShellError) -> ValuePath {
        if text == "." { return .root }
        var parser = PathParser(text: text, column: column)
        return ValuePath(try parser.segments())
    }

    /// The index of the element whose `id` member prints as `id`, in an array's printed elements.
    ///
    /// NB: an id typed as a bare number also finds an id that prints as that number's string (a
    /// `Tagged<User, String>` of `"7"`), as a dictionary's key does.
    static func index(ofID id: JSONValue, in elements: [JSONValue]) -> Int? {
        let text: String? = if case .string(let string) = id { string } else { nil }
        return elements.firstIndex { element in
            guard case .object(let object) = element, let value = object["id"] else { return false }
            if value == id { return true }
            if let text, value.numberValue != nil { return JSONText.compact(value) == text }
            if case .string(let string) = value, id.numberValue != nil { return string == JSONText.compact(id) }
            return false
        }
    }

    /// This path with each `[id: X]` replaced by the index of that element in `root`, as diff
    /// lines and history index elements.
    public func resolvingIDs(in root: JSONValue) throws(ShellError) -> ValuePath {
        guard segments.contains(where: { if case .id = $0 { true } else { false } }) else { return self }
        let segments = self.segments
        var resolved: [Segment] = []
        resolved.reserveCapacity(segments.count)
        // NB: the value at `resolved` is kept as the walk goes, so that a path of many ids costs
        // time linear in its length; `nil` once the path names nothing.
        var current: JSONValue? = root
        for (offset, segment) in segments.enumerated() {
            var plain = segment
            if case .id(let id) = segment {
                guard case .array(let elements)? = current, let index = Self.index(ofID: id, in: elements) else {
                    _ = try ValuePath(resolved + [segment]).lookup(in: root)
                    throw ShellError("no element has the id \(JSONText.compact(id))")
                }
                plain = .index(index)
            }
            resolved.append(plain)
            current = current.flatMap { try? step(plain, of: $0, at: segments[..<offset]) }
        }
        return ValuePath(resolved)
    }

    /// The value at this path in `root`; `.count` of an array or object is its element count.
    public func lookup(in root: JSONValue) throws(ShellError) -> JSONValue {
        var current = root
        switch storage {
        case .one(let segment):
            current = try step(segment, of: current, at: [])
        case .list(let segments):
            for (offset, segment) in segments.enumerated() {
                current = try step(segment, of: current, at: segments[..<offset])
            }
        }
        return current
    }

    /// The longest part of this path that names a value in `root`, as its number of segments,
    /// and that value: in time linear in the path's length, however long.
    package func deepestValue(in root: JSONValue) -> (count: Int, value: JSONValue) {
        var current = root
        let segments = self.segments
        for (offset, segment) in segments.enumerated() {
            guard let next = try? step(segment, of: current, at: segments[..<offset]) else { return (offset, current) }
            current = next
        }
        return (segments.count, current)
    }

    private func noKey(_ key: String, in object: JSONObject, _ here: String) -> ShellError {
        if key == "count" {
            return ShellError(
                "no key 'count' in \(here)", hint: "\(here == "the state" ? "" : here).count is its number of keys")
        }
        return ShellError(
            "no key '\(key)' in \(here)",
            hint: Suggestion.didYouMean(key, among: object.keys)
                ?? "its keys are: \(object.keys.joined(separator: ", "))")
    }

    /// The value that `segment` names in `current`, the value at `walked` (a part of this path).
    private func step(_ segment: Segment, of current: JSONValue, at walked: ArraySlice<Segment>) throws(ShellError)
        -> JSONValue
    {
        // NB: only errors name the place; building its text for every segment is wasted work.
        var here: String { walked.isEmpty ? "the state" : ValuePath(Array(walked)).description }
        switch (segment, current) {
        case (.every, _):
            throw ShellError(
                "\(self) stands for several values; [*] is for expect, state and watch",
                hint: "name one element, e.g. \(firstElement)")
        case (.key(let key), .object(let object)):
            // NB: `.count` of a dictionary is its count even when it has the key "count", which
            // is written `["count"]`; a struct's own `count` member wins over its count.
            if key == "count", object.isKeyed { return .int(object.count) }
            if let value = object[key] { return value }
            if key == "count" { return .int(object.count) }
            throw noKey(key, in: object, here)
        case (.entry(let key), .object(let object)):
            if let value = object[key] { return value }
            throw noKey(key, in: object, here)
        case (.key("count"), .array(let elements)), (.entry("count"), .array(let elements)):
            return .int(elements.count)
        case (.key(let key), .array), (.entry(let key), .array):
            throw ShellError(
                "\(here) is an array, not an object: no key '\(key)'",
                hint: "use an index such as \(ValuePath(Array(walked) + [.index(0)])) or .count")
        case (.index(let index), .array(let elements)):
            guard index < elements.count else {
                throw ShellError(
                    "index \(index) is past the end of \(here) (\(elements.count) element\(elements.count == 1 ? "" : "s"))"
                )
            }
            return elements[index]
        case (.index(let index), .object):
            throw ShellError("\(here) is an object, not an array: no index \(index)")
        case (.id(let id), .array(let elements)):
            guard let index = Self.index(ofID: id, in: elements) else {
                let ids = elements.prefix(4).compactMap { element -> String? in
                    guard case .object(let object) = element, let id = object["id"] else { return nil }
                    return JSONText.compact(id)
                }
                throw ShellError(
                    "no element of \(here) has the id \(JSONText.compact(id))",
                    hint: elements.isEmpty
                        ? "\(here) is empty"
                        : ids.isEmpty
                            ? "\(here) has no elements with an id"
                            : "its ids include \(ids.joined(separator: ", "))\(elements.count > ids.count ? ", …" : "")"
                )
            }
            return elements[index]
        case (.id, .object):
            throw ShellError("\(here) is an object, not an array: [id: ] finds an element of an array by its id")
        case (_, let scalar):
            throw ShellError("\(here) is \(scalar.kindName), which has no \(ValuePath([segment]))")
        }
    }
}

/// One path being parsed (``ValuePath/parse(_:column:)``): its bytes and where it is read.
private struct PathParser {
    typealias Segment = ValuePath.Segment

    let text: Substring
    let column: Int?
    let bytes: [UInt8]
    var position = 0

    init(text: Substring, column: Int?) {
        self.text = text
        self.column = column
        bytes = Array(text.utf8)
    }

    func fail(_ message: String) -> ShellError {
        ShellError(
            "invalid path '\(text)'\(column.map { " at column \($0)" } ?? ""): \(message)",
            hint: "paths look like count, todos[0].title or scores[\"alice\"]")
    }

    /// The segments, from the first byte to the last.
    mutating func segments() throws(ShellError) -> [Segment] {
        var segments: [Segment] = []
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") { position += 1 }
        var expectKey = true
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "[") {
                position += 1
                guard position < bytes.count else { throw fail("missing ']'") }
                segments.append(try bracketed())
                guard position < bytes.count, bytes[position] == UInt8(ascii: "]") else {
                    throw fail("missing ']'")
                }
                position += 1
                expectKey = false
            } else if byte == UInt8(ascii: ".") {
                guard !expectKey || segments.isEmpty == false else { throw fail("unexpected '.'") }
                position += 1
                expectKey = true
                guard position < bytes.count else { throw fail("missing key after '.'") }
            } else {
                guard expectKey else { throw fail("expected '.' or '[' before a key") }
                var end = position
                while end < bytes.count, bytes[end] != UInt8(ascii: "."), bytes[end] != UInt8(ascii: "["),
                    bytes[end] != UInt8(ascii: "]")
                {
                    end += 1
                }
                segments.append(.key(String(decoding: bytes[position..<end], as: UTF8.self)))
                position = end
                expectKey = false
            }
        }
        return segments
    }

    /// What stands between `[` and `]`: `*`, `id: X`, a quoted key or an index; read up to the `]`.
    mutating func bracketed() throws(ShellError) -> Segment {
        if bytes[position] == UInt8(ascii: "*") {
            position += 1
            return .every
        }
        if bytes[position...].starts(with: "id:".utf8) { return try id() }
        if bytes[position] == UInt8(ascii: "\"") {
            var end = position + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard end < bytes.count else { throw fail("unterminated quoted key") }
            let literal = String(decoding: bytes[position...end], as: UTF8.self)
            guard case .string(let key)? = try? JSONParser.parse(literal) else {
                throw fail("invalid quoted key \(literal)")
            }
            position = end + 1
            return .entry(key)
        }
        var end = position
        while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
        guard end > position else {
            throw fail("expected an index, * or a quoted key inside [ ]")
        }
        guard let index = Int(String(decoding: bytes[position..<end], as: UTF8.self))
        else { throw fail("index out of range") }
        position = end
        return .index(index)
    }

    /// `id: X`: X is a value as in arguments, up to the bracket that closes it.
    mutating func id() throws(ShellError) -> Segment {
        let start = position + 3
        var end = start
        var depth = 0
        var inString = false
        while end < bytes.count {
            let byte = bytes[end]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    end += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                if depth == 0 { break }
                depth -= 1
            }
            end += 1
        }
        guard end < bytes.count else { throw fail("missing ']' after [id:") }
        var first = start
        var last = end
        while first < last, bytes[first] == UInt8(ascii: " ") { first += 1 }
        while last > first, bytes[last - 1] == UInt8(ascii: " ") { last -= 1 }
        let text = String(decoding: bytes[first..<last], as: UTF8.self)
        guard !text.isEmpty else { throw fail("[id: ] needs an id, e.g. todos[id: 3]") }
        position = end
        if let literal = try? JSONParser.parse(text) { return .id(literal) }
        guard text.first != "\"", !text.contains(where: { $0 == " " || $0 == "\"" }) else {
            throw fail("invalid id \(text)")
        }
        return .id(.string(text))
    }
}
