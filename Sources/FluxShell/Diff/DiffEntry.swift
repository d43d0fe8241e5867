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
    public var line: String { SimpleLine.render(self) ?? generalLine }

    /// The line of any entry, rendered through strings (``SimpleLine`` is the fast path).
    private var generalLine: String {
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
        if !SimpleLine.write(self, to: &output) { output.append(contentsOf: generalLine.utf8) }
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

/// Diff lines whose path is plain (`todos[3].done`) and whose values are scalars, written in
/// one pass into a small buffer on the stack: the common case, and the hot path of a script of
/// dispatches.
enum SimpleLine {
    /// Longer lines take the general path.
    static let capacity = 256

    static func render(_ entry: DiffEntry) -> String? {
        var bytes: [UInt8] = []
        guard write(entry, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line to `output`; `false` (and nothing appended) when it is not simple.
    static func write(_ entry: DiffEntry, to output: inout [UInt8]) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = Writer(buffer: buffer)
            switch entry.operation {
            case .changed: writer.put(0x7E)
            case .added: writer.put(0x2B)
            case .removed: writer.put(0x2D)
            }
            writer.put(0x20)
            writer.write(entry.path)
            writer.put(0x3A)
            writer.put(0x20)
            switch entry.operation {
            case .changed:
                writer.write(entry.old)
                writer.write(" -> ")
                writer.write(entry.new)
            case .added: writer.write(entry.new)
            case .removed: writer.write(entry.old)
            }
            guard writer.isSimple else { return false }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<writer.position]))
            return true
        }
    }

    /// Writes into a fixed buffer; anything not simple (or too long) clears `isSimple`.
    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var position = 0
        var isSimple = true

        mutating func put(_ byte: UInt8) {
            guard position < buffer.count, let base = buffer.baseAddress else {
                isSimple = false
                return
            }
            // NB: in bounds (checked just above), so no second check per byte.
            (base + position).initialize(to: byte)
            position += 1
        }

        mutating func write(_ text: StaticString) {
            text.withUTF8Buffer { for byte in $0 { put(byte) } }
        }

        mutating func write(_ number: Int) {
            if number < 0 { put(0x2D) }
            // NB: digits counted, then written from the last, by constant divisions by 10.
            var magnitude = number.magnitude
            var digits = 1
            var rest = magnitude / 10
            while rest > 0 {
                digits += 1
                rest /= 10
            }
            guard position + digits <= buffer.count, let base = buffer.baseAddress else {
                isSimple = false
                return
            }
            var index = position + digits
            repeat {
                index -= 1
                (base + index).initialize(to: UInt8(truncatingIfNeeded: magnitude % 10) + 0x30)
                magnitude /= 10
            } while magnitude > 0
            position += digits
        }

        mutating func write(_ path: ValuePath) {
            guard !path.isRoot else {
                isSimple = false
                return
            }
            path.forEachSegment { segment, isFirst in
                switch segment {
                case .index(let position):
                    put(0x5B)
                    write(position)
                    put(0x5D)
                case .key(let key):
                    if !isFirst { put(0x2E) }
                    writeKey(key)
                }
                return isSimple
            }
        }

        /// A plain key: letters, digits and `_` (not first a digit), or non-ASCII.
        mutating func writeKey(_ key: String) {
            var key = key
            key.withUTF8 { bytes in
                guard let initial = bytes.first, ValuePath.isPlainKeyStart(initial) else {
                    isSimple = false
                    return
                }
                for byte in bytes {
                    guard ValuePath.isPlainKeyByte(byte) else {
                        isSimple = false
                        return
                    }
                    put(byte)
                }
            }
        }

        mutating func write(_ value: JSONValue?) {
            switch value {
            case .none, .null: write("null")
            case .bool(let flag): write(flag ? "true" : "false")
            case .int(let number): write(number)
            case .string(let text):
                put(0x22)
                for byte in text.utf8 {
                    guard !JSONText.needsEscaping(byte) else {
                        isSimple = false
                        return
                    }
                    put(byte)
                }
                put(0x22)
            case .double, .array, .object: isSimple = false
            }
        }
    }
}
