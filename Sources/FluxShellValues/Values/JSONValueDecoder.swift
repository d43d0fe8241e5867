import FluxShellJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds a `Decodable` value (an action) from a ``JSONValue``.
///
/// Errors are `DecodingError`s whose coding path says which argument was wrong.
package struct JSONValueDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ScalarDecoding.decode(type, from: value, path: [])
    }

    /// A value of any type from its printed form, `Decodable` or not (``ValueBuilder``): for
    /// the value fuzzer.
    package func build<T>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueBuilder.build(type, from: value, at: [])
    }

}

struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // NB: a bare word naming a case without payload (`idle`) stands for its synthesized
        // `Codable` form, `{"idle":{}}`, as “Printed values” in the reference prints such a case.
        if case .string(let word) = value, !Key.isDictionaryKey, Key(stringValue: word) != nil {
            let object = JSONObject([(word, .object(JSONObject()))])
            return KeyedDecodingContainer(KeyedValueDecoding<Key>(object: object, codingPath: codingPath))
        }
        guard case .object(let object) = value else {
            throw mismatch(JSONObject.self, "expected an object, found \(value.kindName)")
        }
        return KeyedDecodingContainer(KeyedValueDecoding<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw mismatch([JSONValue].self, "expected an array, found \(value.kindName)")
        }
        return UnkeyedValueDecoding(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoding(value: value, codingPath: codingPath)
    }

    func mismatch(_ type: Any.Type, _ description: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: description))
    }
}

/// Scalar conversions shared by the three containers.
enum ScalarDecoding {
    /// A value of `type` from its printed form: every member of a `Decodable` value goes through
    /// ``ValueBuilder``, so that a `Duration` or an `IndexSet` inside it reads as it prints.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, path: [any CodingKey]) throws -> T {
        try ValueBuilder.build(T.self, from: value, at: path)
    }

    /// Through the type's own `init(from:)`.
    static func decodeDecodable<T: Decodable>(_ type: T.Type, from value: JSONValue, path: [any CodingKey]) throws -> T
    {
        if case .string(let word) = value, RuntimeMetadata.kind(of: type) == .enumeration,
            case .enumeration(let tags) = TypeShape.of(type).kind, !tags.isEmpty
        {
            // The printed form (a raw value) first, through the type's own decoding, then a case
            // name: a raw value may be another case's name, and what prints must read back.
            do {
                return try T(from: ValueDecoder(value: value, codingPath: path))
            } catch {
                if let named = TypeShape.of(type).emptyCase(named: word, as: type) { return named }
                guard let error = error as? DecodingError, case .typeMismatch = error else { throw error }
                // NB: worded as Swift's own refusal, which the shell turns into "not one of its values".
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path, debugDescription: "Cannot initialize \(T.self) from '\(word)'"))
            }
        }
        return try T(from: ValueDecoder(value: value, codingPath: path))
    }

    static func decodeInteger<I: FixedWidthInteger>(
        _ type: I.Type, from value: JSONValue, path: [any CodingKey]
    ) throws -> I {
        let context = { (text: String) in DecodingError.Context(codingPath: path, debugDescription: text) }
        switch value {
        case .int(let integer):
            guard let exact = I(exactly: integer) else {
                throw DecodingError.dataCorrupted(
                    context("number \(integer) is out of range for \(I.self) (\(I.min)...\(I.max))"))
            }
            return exact
        case .double(let number):
            guard number.rounded() == number else {
                throw DecodingError.typeMismatch(
                    I.self, context("expected a whole number, found \(wholeNumberText(number))"))
            }
            guard let exact = I(exactly: number) else {
                throw DecodingError.dataCorrupted(
                    context("number \(wholeNumberText(number)) is out of range for \(I.self)"))
            }
            return exact
        case .number(let text):
            if let exact = I(text) { return exact }
            guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }) else {
                throw DecodingError.typeMismatch(I.self, context("expected a whole number, found \(text)"))
            }
            throw DecodingError.dataCorrupted(
                context("number \(text) is out of range for \(I.self) (\(I.min)...\(I.max))"))
        default:
            throw DecodingError.typeMismatch(
                I.self, context("expected a whole number, found \(JSONText.compact(value))"))
        }
    }
}

/// `6.2e+159` as `62` and 158 zeros (`1e-07` as `0.0000001`): `Decimal(string:)` refuses an
/// exponent its own exponent cannot hold as written, though it can hold the number.
func positionalDigits(_ text: String) -> String {
    guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(text[text.index(after: e)...]),
        (-400...400).contains(exponent)
    else { return text }
    var mantissa = text[..<e]
    let sign = mantissa.hasPrefix("-") ? "-" : ""
    if !sign.isEmpty { mantissa = mantissa.dropFirst() }
    let point = mantissa.firstIndex(of: ".")
    let digits = mantissa.filter { $0 != "." }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return text }
    // The position of the decimal point within `digits`, after moving it by the exponent.
    let position = (point.map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? digits.count) + exponent
    if position <= 0 { return sign + "0." + String(repeating: "0", count: -position) + digits }
    if position >= digits.count { return sign + digits + String(repeating: "0", count: position - digits.count) }
    return sign + digits.prefix(position) + "." + digits.dropFirst(position)
}

/// A number as the user probably wrote it: `12` for a whole double, else Swift's shortest form.
func wholeNumberText(_ number: Double) -> String {
    if let whole = Int64(exactly: number) { return String(whole) }
    return JSONText.format(number)
}

private struct KeyedValueDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        var keys: [Key] = []
        keys.reserveCapacity(object.count)
        for name in object.keys {
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { member(key) != nil }

    /// The member for `key`: under the Swift property name the shell prints (`link`, the name
    /// of the `CodingKeys` case), or under its coding name (`link_url`).
    ///
    /// NB: the Swift name first: a coding name may be another property's Swift name
    /// (`name` coded as `login`, `displayName` as `name`), and what prints must read back.
    private func member(_ key: Key) -> JSONValue? {
        if let name = RuntimeMetadata.caseName(ofTyped: key), name != key.stringValue, let value = object[name] {
            return value
        }
        return object[key.stringValue]
    }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = member(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "missing '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        member(key).map { $0 == .null } ?? true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ScalarDecoding.decode(type, from: value(for: key), path: codingPath + [key])
    }

    // NB: the common argument types, answered without the generic path's type tests and casts
    // when the value already has the type; anything else (and every error) takes that path.
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decode(type, forKey: key) { if case .int(let number) = $0 { number } else { nil } }
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decode(type, forKey: key) { if case .string(let text) = $0 { text } else { nil } }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decode(type, forKey: key) { if case .bool(let flag) = $0 { flag } else { nil } }
    }

    private func decode<T: Decodable>(_ type: T.Type, forKey key: Key, direct: (JSONValue) -> T?) throws -> T {
        let value = try value(for: key)
        return try direct(value) ?? ScalarDecoding.decode(type, from: value, path: codingPath + [key])
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        throws -> KeyedDecodingContainer<NestedKey>
    {
        try ValueDecoder(value: value(for: key), codingPath: codingPath + [key]).container(
            keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try ValueDecoder(value: value(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: object["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: member(key) ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedValueDecoding: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next(_ type: Any.Type) throws -> (JSONValue, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type,
                .init(codingPath: codingPath, debugDescription: "the array has no element \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return (elements[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, path) = try next(type)
        return try ScalarDecoding.decode(type, from: value, path: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next(JSONObject.self)
        return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next([JSONValue].self)
        return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next(JSONValue.self)
        return ValueDecoder(value: value, codingPath: path)
    }
}

private struct SingleValueDecoding: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try ScalarDecoding.decode(type, from: value, path: codingPath)
    }
}

extension CodingKey {
    /// Whether this key type takes any string, as `Dictionary`'s own coding key does: then the
    /// keys are data, not declared properties or cases.
    ///
    /// NB: synthesized `CodingKeys` refuse a string that names no property; asking with a string
    /// no Swift property can have answers the question without global state or type names.
    static var isDictionaryKey: Bool {
        Self(stringValue: "\u{1}fluxsh") != nil
    }
}
