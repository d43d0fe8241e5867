/// A JSON value, with object keys kept in the order they were written (a state's declaration
/// order): what states, arguments and paths are made of in the shell.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number that neither `Int` nor `Double` holds exactly, as its JSON text: an integer
    /// beyond `Int` (a large `UInt64`), or a `Decimal` with more digits than a `Double` keeps.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The element count of an array or object, `nil` for scalars.
    public var count: Int? {
        switch self {
        case .array(let elements): elements.count
        case .object(let object): object.count
        default: nil
        }
    }

    /// A word for the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as a `Double`, when it is a number.
    var numberValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .number(let text): Double(text)
        default: nil
        }
    }
}

extension JSONValue {
    /// Structural equality, where `1` and `1.0` are the same number.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        case (.number(let a), .number(let b)): a == b
        case (.number(let a), .double(let b)), (.double(let b), .number(let a)): Double(a) == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .int(let value): hasher.combine(Double(value))
        case .double(let value): hasher.combine(value)
        case .number(let text): hasher.combine(Double(text) ?? .nan)
        case .string(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .object(let value): hasher.combine(value)
        }
    }
}

/// The members of a JSON object, in order; keys are unique.
public struct JSONObject: Sendable, Hashable {
    public private(set) var keys: [String]
    public private(set) var values: [JSONValue]

    public init() {
        keys = []
        values = []
    }

    init(minimumCapacity: Int) {
        self.init()
        keys.reserveCapacity(minimumCapacity)
        values.reserveCapacity(minimumCapacity)
    }

    public init(_ members: [(String, JSONValue)]) {
        self.init()
        for (key, value) in members { self[key] = value }
    }

    public var count: Int { keys.count }

    public subscript(key: String) -> JSONValue? {
        get { keys.firstIndex(of: key).map { values[$0] } }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue { values[index] = newValue } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends a member whose key is known to be new (the encoder's fast path).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }

    /// Orders the members by key (dictionaries, whose own order is random).
    mutating func sortByKey() {
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        keys = order.map { keys[$0] }
        values = order.map { values[$0] }
    }

    public var members: Zip2Sequence<[String], [JSONValue]> { zip(keys, values) }

    /// Same members, whatever their order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.keys == rhs.keys { return lhs.values == rhs.values }
        // NB: an index, so comparing large objects in different key orders stays linear.
        var index: [String: Int] = [:]
        for (position, key) in rhs.keys.enumerated() { index[key] = position }
        for (key, value) in lhs.members {
            guard let position = index[key], rhs.values[position] == value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for key in keys.sorted() { hasher.combine(key) }
    }
}
