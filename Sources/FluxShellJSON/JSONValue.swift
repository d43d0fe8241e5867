import FluxShellSystem
import OrderedCollections

/// A JSON value, with object keys kept in the order they were written (a state's declaration
/// order): what states, arguments and paths are made of in the shell.
@_documentation(visibility: internal)
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
    package var numberValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        case .number(let text): Double(text)
        default: nil
        }
    }
}

extension JSONValue {
    /// Structural equality, where `1` and `1.0` are the same number and strings are the same
    /// when their bytes are.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        // NB: exact digits compare exactly, whatever their spelling; equal values are equal
        // doubles too, so they hash alike.
        case (.number, .number), (.number, .int), (.int, .number), (.number, .double), (.double, .number):
            NumberOrder.compare(lhs, rhs) == 0
        // NB: bytes, as printed: `"é"` and `"e\u{301}"` are `==` as `String`s, not here.
        case (.string(let a), .string(let b)): Bytes.equal(a, b)
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
///
/// An `OrderedDictionary`: members keep the order they were written in (a state's declaration
/// order), and a member is found by its key in constant time (a large object argument, a keyed
/// decoding container, a path through a dictionary).
@_documentation(visibility: internal)
public struct JSONObject: Sendable, Hashable {
    private var ordered: OrderedDictionary<String, JSONValue>
    /// Whether the object is a dictionary's (its keys are data, `budget["zeta"]`) rather than
    /// the members of a struct, a tuple or a case (`hours.open`): paths print and read its keys
    /// as keys (see ``ValuePath/Segment/entry(_:)``). Not part of equality: `{"a":1}` typed in
    /// an `expect` equals a dictionary that prints so.
    package var isKeyed = false

    public init() { ordered = [:] }

    package init(minimumCapacity: Int) { ordered = OrderedDictionary(minimumCapacity: minimumCapacity) }

    public init(_ members: [(String, JSONValue)]) {
        self.init(minimumCapacity: members.count)
        for (key, value) in members { self[key] = value }
    }

    public var count: Int { ordered.count }

    /// The keys, in order.
    public var keys: [String] { ordered.keys.elements }

    /// The values, in the order of ``keys``.
    public var values: [JSONValue] { ordered.values.elements }

    public subscript(key: String) -> JSONValue? {
        get { ordered[key] }
        set { ordered[key] = newValue }
    }

    /// Appends a member whose key is new (a struct's member, read in order); the same as setting
    /// it, and says so where the key cannot already be there.
    package mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        ordered.updateValue(value, forKey: key)
    }

    /// The members, in order.
    public var members: some Sequence<(key: String, value: JSONValue)> { ordered.lazy.map { ($0.key, $0.value) } }

    /// Same members, whatever their order (and whether either is a dictionary's).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs.ordered {
            guard let other = rhs.ordered[key], other == value else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for key in ordered.keys.sorted() { hasher.combine(key) }
    }
}

extension JSONValue {
    /// Puts `value` at `place` inside this value, which is the whole value for an empty `place`;
    /// an index or key that is not there changes nothing (the parser makes only places that are).
    package mutating func put(_ value: JSONValue, at place: ArraySlice<ValuePath.Segment>) {
        guard let first = place.first else {
            self = value
            return
        }
        switch (self, first) {
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            elements[index].put(value, at: place.dropFirst())
            self = .array(elements)
        case (.object(var object), .key(let key)):
            guard var member = object[key] else { return }
            member.put(value, at: place.dropFirst())
            object[key] = member
            self = .object(object)
        default:
            return
        }
    }
}
