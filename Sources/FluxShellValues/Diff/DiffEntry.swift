import FluxShellJSON
import FluxShellSystem

/// One changed place between two states: a line of the shell's diff output.
@_documentation(visibility: internal)
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

    /// In `entries[start...]`, the entries found inside an element that moved from `oldIndex` to
    /// another index: each `-` path says where the element was, at segment `depth` (a `-` path
    /// indexes the old state), while `+` and `~` paths keep where it is now.
    package static func reindexRemovals(
        _ entries: inout [DiffEntry], from start: Int, depth: Int, to oldIndex: Int
    ) {
        for position in start..<entries.count where entries[position].operation == .removed {
            var segments = entries[position].path.segments
            guard depth < segments.count else { continue }
            segments[depth] = .index(oldIndex)
            entries[position].path.segments = segments
        }
    }

    /// The entry as a diff line.
    public var line: String {
        var output = OutputBuffer()
        write(to: &output)
        return output.text
    }

    /// Appends the entry as a diff line (without a newline), as UTF-8: `~ PATH: OLD -> NEW`.
    public func write(to output: inout _OutputBuffer) {
        switch operation {
        case .changed: output.append(0x7E)
        case .added: output.append(0x2B)
        case .removed: output.append(0x2D)
        }
        output.append(0x20)
        path.write(to: &output)
        output.append(0x3A)
        output.append(0x20)
        switch operation {
        case .changed:
            Self.write(old, to: &output)
            output.append(" -> ")
            Self.write(new, to: &output)
        case .added:
            Self.write(new, to: &output)
        case .removed:
            Self.write(old, to: &output)
        }
    }

    /// The entry as a terminal `width` columns wide shows it (“Diff lines” in the reference): its
    /// line when it fits; else its head (`~ PATH:`) and below it each value, indented two spaces,
    /// on one line when that fits and over several otherwise, as `jq` prints JSON (`~` puts `->`
    /// between the two).
    public func lines(width: Int) -> [String] {
        let line = self.line
        guard line.unicodeScalars.count > width else { return [line] }
        var lines = ["\(operation.rawValue) \(path):"]
        func add(_ value: JSONValue?) { lines += JSONText.fitting(value ?? .null, width: width - 2).map { "  " + $0 } }
        switch operation {
        case .changed:
            add(old)
            lines.append("  ->")
            add(new)
        case .added: add(new)
        case .removed: add(old)
        }
        return lines
    }

    private static func write(_ value: JSONValue?, to output: inout OutputBuffer) {
        switch value {
        case .some(let value): JSONText.writeCompact(value, to: &output)
        case .none: output.append("null")
        }
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
    package func prefixed(by prefix: ValuePath.Segment) -> DiffEntry {
        var copy = self
        copy.path.segments.insert(prefix, at: 0)
        return copy
    }
}
