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
