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

/// Diff lines whose path is plain (`todos[3].done`) and whose values are scalars, written in one
/// allocation: the common case, and on the hot path of a script of dispatches.
enum SimpleLine {
    static func render(_ entry: DiffEntry) -> String? {
        guard let total = length(of: entry) else { return nil }
        return String(unsafeUninitializedCapacity: total) { buffer in write(entry, into: buffer) }
    }

    /// Appends the line to `output`; `false` (and nothing appended) when it is not simple.
    static func write(_ entry: DiffEntry, to output: inout [UInt8]) -> Bool {
        guard let total = length(of: entry) else { return false }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { buffer in
            let count = write(entry, into: buffer)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
        return true
    }

    private static func length(of entry: DiffEntry) -> Int? {
        guard let pathLength = length(of: entry.path) else { return nil }
        var total = 1 + 1 + pathLength + 2
        switch entry.operation {
        case .changed:
            guard let old = length(of: entry.old ?? .null), let new = length(of: entry.new ?? .null) else { return nil }
            total += old + 4 + new
        case .added:
            guard let new = length(of: entry.new ?? .null) else { return nil }
            total += new
        case .removed:
            guard let old = length(of: entry.old ?? .null) else { return nil }
            total += old
        }
        return total
    }

    /// Writes the line of an entry whose ``length(of:)`` is known; returns the bytes written.
    private static func write(_ entry: DiffEntry, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var writer = Writer(buffer: buffer)
        writer.put(entry.operation.rawValue.utf8.first ?? 0x7E)
        writer.put(0x20)
        writer.write(entry.path)
        writer.put(0x3A)
        writer.put(0x20)
        switch entry.operation {
        case .changed:
            writer.write(entry.old ?? .null)
            writer.write(" -> " as StaticString)
            writer.write(entry.new ?? .null)
        case .added: writer.write(entry.new ?? .null)
        case .removed: writer.write(entry.old ?? .null)
        }
        return writer.position
    }

    /// The printed length of a path of plain keys and indexes, else `nil`.
    private static func length(of path: ValuePath) -> Int? {
        guard !path.segments.isEmpty else { return nil }
        var total = 0
        for (index, segment) in path.segments.enumerated() {
            switch segment {
            case .index(let position): total += 2 + digitCount(position)
            case .key(let key):
                guard ValuePath.isPlainKey(key) else { return nil }
                total += key.utf8.count + (index == 0 ? 0 : 1)
            }
        }
        return total
    }

    /// The printed length of a scalar that needs no escaping, else `nil`.
    private static func length(of value: JSONValue) -> Int? {
        switch value {
        case .null: 4
        case .bool(let flag): flag ? 4 : 5
        case .int(let number): digitCount(number)
        case .string(let text):
            text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 < 0x7F } ? text.utf8.count + 2 : nil
        case .double, .array, .object: nil
        }
    }

    private static func digitCount(_ number: Int) -> Int { (number < 0 ? 1 : 0) + digitCount(number.magnitude) }

    private static func digitCount(_ magnitude: UInt) -> Int {
        var magnitude = magnitude
        var count = 1
        while magnitude >= 10 {
            magnitude /= 10
            count += 1
        }
        return count
    }

    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var position = 0

        mutating func put(_ byte: UInt8) {
            buffer[position] = byte
            position += 1
        }

        mutating func write(_ text: String) {
            var text = text
            text.withUTF8 { write($0) }
        }

        mutating func write(_ text: StaticString) {
            text.withUTF8Buffer { write($0) }
        }

        private mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            for index in bytes.indices { buffer[position + index] = bytes[index] }
            position += bytes.count
        }

        mutating func write(_ number: Int) {
            if number < 0 { put(0x2D) }
            var magnitude = number.magnitude
            let end = position + SimpleLine.digitCount(magnitude)
            var index = end
            repeat {
                index -= 1
                buffer[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 0x30
                magnitude /= 10
            } while magnitude > 0
            position = end
        }

        mutating func write(_ path: ValuePath) {
            for (index, segment) in path.segments.enumerated() {
                switch segment {
                case .index(let value):
                    put(0x5B)
                    write(value)
                    put(0x5D)
                case .key(let key):
                    if index > 0 { put(0x2E) }
                    write(key)
                }
            }
        }

        mutating func write(_ value: JSONValue) {
            switch value {
            case .null: write("null" as StaticString)
            case .bool(let flag): write(flag ? "true" as StaticString : "false")
            case .int(let number): write(number)
            case .string(let text):
                put(0x22)
                write(text)
                put(0x22)
            case .double, .array, .object: break
            }
        }
    }
}
