/// One changed place between two states: a line of the shell's diff output.
public struct DiffEntry: Sendable, Equatable {
    public enum Operation: String, Sendable {
        /// `~ PATH: OLD -> NEW`
        case changed = "~"
        /// `+ PATH: NEW` (PATH indexes the new state)
        case added = "+"
        /// `- PATH: OLD` (PATH indexes the old state)
        case removed = "-"
    }

    public var operation: Operation
    public var path: ValuePath
    public var old: JSONValue?
    public var new: JSONValue?

    /// The entry as a diff line.
    public var line: String {
        if let line = SimpleLine.render(self) { return line }
        var text = ""
        text.reserveCapacity(48)
        text += operation.rawValue
        text += " "
        path.write(to: &text)
        text += ": "
        switch operation {
        case .changed:
            JSONText.writeCompact(old ?? .null, to: &text)
            text += " -> "
            JSONText.writeCompact(new ?? .null, to: &text)
        case .added:
            JSONText.writeCompact(new ?? .null, to: &text)
        case .removed:
            JSONText.writeCompact(old ?? .null, to: &text)
        }
        return text
    }

    /// Appends the entry as a diff line (without a newline), as UTF-8.
    public func write(to output: inout [UInt8]) {
        if !SimpleLine.write(self, to: &output) { output.append(contentsOf: line.utf8) }
    }

    /// `{"op":"~","path":"count","old":0,"new":1}`
    public var json: JSONValue {
        var object = JSONObject()
        object.appendUnchecked("op", .string(operation.rawValue))
        object.appendUnchecked("path", .string(path.description))
        if let old { object.appendUnchecked("old", old) }
        if let new { object.appendUnchecked("new", new) }
        return .object(object)
    }

    /// The same change one level down, under `prefix` (a store's alias).
    func prefixed(by prefix: ValuePath.Segment) -> DiffEntry {
        var copy = self
        copy.path.segments.insert(prefix, at: 0)
        return copy
    }
}

/// Diff lines whose path is plain (`todos[3].done`) and whose values are scalars, appended as
/// UTF-8 in one pass: the common case, and the hot path of a script of dispatches.
enum SimpleLine {
    static func render(_ entry: DiffEntry) -> String? {
        var bytes: [UInt8] = []
        guard write(entry, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line to `output`; `false` (and nothing appended) when it is not simple.
    static func write(_ entry: DiffEntry, to output: inout [UInt8]) -> Bool {
        let start = output.count
        output.reserveCapacity(start + 64)
        output.append(entry.operation.rawValue.utf8.first ?? 0x7E)
        output.append(0x20)
        var simple = append(entry.path, to: &output)
        if simple {
            output.append(0x3A)
            output.append(0x20)
            switch entry.operation {
            case .changed:
                simple = append(entry.old ?? .null, to: &output)
                if simple {
                    append(" -> ", to: &output)
                    simple = append(entry.new ?? .null, to: &output)
                }
            case .added: simple = append(entry.new ?? .null, to: &output)
            case .removed: simple = append(entry.old ?? .null, to: &output)
            }
        }
        if !simple { output.removeSubrange(start...) }
        return simple
    }

    /// Appends a path of plain keys and indexes; `false` for any other.
    private static func append(_ path: ValuePath, to output: inout [UInt8]) -> Bool {
        guard !path.segments.isEmpty else { return false }
        var first = true
        for segment in path.segments {
            switch segment {
            case .index(let position):
                output.append(0x5B)
                append(position, to: &output)
                output.append(0x5D)
            case .key(let key):
                guard let initial = key.utf8.first, !(0x30...0x39).contains(initial) else { return false }
                if !first { output.append(0x2E) }
                for byte in key.utf8 {
                    guard (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                        || byte == 0x5F || byte >= 0x80
                    else { return false }
                    output.append(byte)
                }
            }
            first = false
        }
        return true
    }

    /// Appends a scalar that needs no escaping; `false` for any other value.
    private static func append(_ value: JSONValue, to output: inout [UInt8]) -> Bool {
        switch value {
        case .null: append("null", to: &output)
        case .bool(let flag): append(flag ? "true" : "false", to: &output)
        case .int(let number): append(number, to: &output)
        case .string(let text):
            output.append(0x22)
            for byte in text.utf8 {
                guard byte >= 0x20, byte != 0x22, byte != 0x5C, byte != 0x7F else { return false }
                output.append(byte)
            }
            output.append(0x22)
        case .double, .array, .object: return false
        }
        return true
    }

    private static func append(_ text: StaticString, to output: inout [UInt8]) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    private static func append(_ number: Int, to output: inout [UInt8]) {
        if number < 0 { output.append(0x2D) }
        var magnitude = number.magnitude
        // NB: digits from the last, into a small fixed buffer (an Int has at most 20).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
