/// Turns an `Encodable` value (a state, an action) into a ``JSONValue``, keeping the order in
/// which its properties were encoded (declaration order for synthesized `Codable`).
///
/// Dictionaries are the exception: their own order is random, so their keys are sorted, which
/// keeps output and diffs stable from run to run.
public struct JSONValueEncoder {
    public init() {}

    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let encoder = ValueEncoder(codingPath: [])
        try value.encode(to: encoder)
        return encoder.storage.finish()
    }
}

/// Where one encoder writes: a scalar, or a container that collects children.
final class EncodedNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object(keys: [String], children: [EncodedNode], sortKeys: Bool)
        case array([EncodedNode])
    }

    var content: Content = .empty

    init() {}
    init(_ value: JSONValue) { content = .value(value) }

    func finish() -> JSONValue {
        switch content {
        case .empty: return .object(JSONObject())
        case .value(let value): return value
        case .array(let children): return .array(children.map { $0.finish() })
        case .object(let keys, let children, let sortKeys):
            var object = JSONObject()
            var seen = Set<String>()
            for index in keys.indices {
                // NB: keys are unique unless an encoder wrote one twice (then the last wins).
                if seen.insert(keys[index]).inserted {
                    object.appendUnchecked(keys[index], children[index].finish())
                } else {
                    object[keys[index]] = children[index].finish()
                }
            }
            if sortKeys { object.sortByKey() }
            return .object(object)
        }
    }

    func appendMember(_ key: String, _ child: EncodedNode) {
        guard case .object(var keys, var children, let sortKeys) = content else { return }
        content = .empty
        keys.append(key)
        children.append(child)
        content = .object(keys: keys, children: children, sortKeys: sortKeys)
    }

    func appendElement(_ child: EncodedNode) {
        guard case .array(var children) = content else { return }
        content = .empty
        children.append(child)
        content = .array(children)
    }

    var elementCount: Int {
        if case .array(let children) = content { return children.count }
        return 0
    }
}

final class ValueEncoder: Encoder {
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    let storage: EncodedNode

    init(codingPath: [any CodingKey], storage: EncodedNode = EncodedNode()) {
        self.codingPath = codingPath
        self.storage = storage
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = storage.content {} else {
            storage.content = .object(keys: [], children: [], sortKeys: Key.isDictionaryKey)
        }
        return KeyedEncodingContainer(KeyedValueContainer<Key>(encoder: self, node: storage))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = storage.content {} else { storage.content = .array([]) }
        return UnkeyedValueContainer(encoder: self, node: storage)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoder: self)
    }

    static func encodeChild<T: Encodable>(_ value: T, path: [any CodingKey]) throws -> EncodedNode {
        if let special = specialValue(value) { return EncodedNode(special) }
        let child = ValueEncoder(codingPath: path)
        try value.encode(to: child)
        return child.storage
    }

    /// Values whose `Encodable` form is not the JSON a user expects.
    static func specialValue<T: Encodable>(_ value: T) -> JSONValue? {
        switch value {
        case let string as String: .string(string)
        case let integer as Int: .int(integer)
        case let flag as Bool: .bool(flag)
        case let number as Double: .double(number)
        default: nil
        }
    }
}

extension CodingKey {
    /// Whether this key type takes any string, as `Dictionary`'s own coding key does: then the
    /// keys are data, not declared properties, and have no order of their own.
    ///
    /// NB: synthesized `CodingKeys` refuse a string that names no property; asking with a string
    /// no Swift property can have answers the question without global state or type names.
    static var isDictionaryKey: Bool {
        Self(stringValue: "\u{1}fluxsh") != nil
    }
}

private struct KeyedValueContainer<Key: CodingKey>: KeyedEncodingContainerProtocol, NilAsNull {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ value: JSONValue, _ key: Key) {
        node.appendMember(key.stringValue, EncodedNode(value))
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.int(Int(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(integer(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.appendMember(
            key.stringValue, try ValueEncoder.encodeChild(value, path: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let child = ValueEncoder(codingPath: codingPath + [key])
        node.appendMember(key.stringValue, child.storage)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = ValueEncoder(codingPath: codingPath + [key])
        node.appendMember(key.stringValue, child.storage)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = ValueEncoder(codingPath: codingPath + [key])
        node.appendMember(key.stringValue, child.storage)
        return child
    }
}

/// Integers beyond `Int` (UInt above Int.max) become doubles rather than wrap.
private func integer<T: BinaryInteger>(_ value: T) -> JSONValue {
    if let exact = Int(exactly: value) { return .int(exact) }
    return .double(Double(value))
}

private struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedValueContainer: UnkeyedEncodingContainer, ScalarEncoding {
    let encoder: ValueEncoder
    let node: EncodedNode
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { node.elementCount }

    func put(_ value: JSONValue) { node.appendElement(EncodedNode(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.appendElement(
            try ValueEncoder.encodeChild(value, path: codingPath + [IndexKey(count)]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = ValueEncoder(codingPath: codingPath + [IndexKey(count)])
        node.appendElement(child.storage)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = ValueEncoder(codingPath: codingPath + [IndexKey(count)])
        node.appendElement(child.storage)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = ValueEncoder(codingPath: codingPath + [IndexKey(count)])
        node.appendElement(child.storage)
        return child
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer, ScalarEncoding {
    let encoder: ValueEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func put(_ value: JSONValue) { encoder.storage.content = .value(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let node = try ValueEncoder.encodeChild(value, path: codingPath)
        encoder.storage.content = node.content
    }
}

/// The scalar `encode` methods that unkeyed and single-value containers share: each scalar
/// becomes a ``JSONValue`` handed to `put`.
private protocol ScalarEncoding {
    func put(_ value: JSONValue)
}

extension ScalarEncoding {
    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.double(value)) }
    mutating func encode(_ value: Float) throws { put(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { put(.int(value)) }
    mutating func encode(_ value: Int8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: Int64) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt) throws { put(integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt16) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt32) throws { put(.int(Int(value))) }
    mutating func encode(_ value: UInt64) throws { put(integer(value)) }
}

/// `nil` properties encode as `null` (SPEC: "nil as null"), where synthesized `Encodable` would
/// leave the key out; so a value that becomes `nil` is a change, not a removal.
protocol NilAsNull: KeyedEncodingContainerProtocol {}

extension NilAsNull {
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
