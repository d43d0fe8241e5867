#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Finds the parameters of each case of a `Decodable` action enum by letting its synthesized
/// `init(from:)` run against a decoder that records what it is asked for.
@usableFromInline
enum SignatureProbe {
    @usableFromInline
    static func signatures<A: Decodable>(of type: A.Type) -> [ActionSignature] {
        guard let names = caseNames(of: type) else { return [] }
        return names.compactMap { name in
            let recorder = ProbeRecorder()
            let decoder = ProbeDecoder(caseName: name, recorder: recorder, depth: 0)
            _ = try? A(from: decoder)
            guard recorder.accepted else { return nil }
            return ActionSignature(name: name, parameters: recorder.parameters)
        }
    }
}

extension SignatureProbe {
    /// The case names in declaration order.
    ///
    /// NB: an enum's own metadata lists cases with payloads first; its synthesized `CodingKeys`
    /// (which have no payloads) list them in declaration order, so those are read when the
    /// decoder is asked for them.
    static func caseNames<A: Decodable>(of type: A.Type) -> [String]? {
        let recorder = ProbeRecorder()
        _ = try? A(from: ProbeDecoder(caseName: nil, recorder: recorder, depth: 0))
        if let keyType = recorder.topLevelKeyType, let names = EnumReflection.caseNames(of: keyType),
            let own = EnumReflection.caseNames(of: type), Set(names) == Set(own)
        {
            return names
        }
        return EnumReflection.caseNames(of: type)
    }
}

final class ProbeRecorder {
    var topLevelKeyType: Any.Type?
    var accepted = false
    var parameters: [ActionSignature.Parameter] = []
}

/// Top level: an object with one key, the case name; below it, dummy values of every type asked.
private struct ProbeDecoder: Decoder {
    /// `nil` below the top level.
    let caseName: String?
    let recorder: ProbeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if depth == 0, recorder.topLevelKeyType == nil { recorder.topLevelKeyType = type }
        return KeyedDecodingContainer(
            ProbeKeyedContainer<Key>(caseName: caseName, recorder: recorder, depth: depth))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { EmptyUnkeyed() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ProbeSingleValue(recorder: recorder, depth: depth)
    }
}

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let caseName: String?
    let recorder: ProbeRecorder
    let depth: Int
    /// Whether this container holds the case's parameters (the one nested under the case key).
    var recordsParameters = false
    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] {
        guard let caseName else { return [] }
        return Key(stringValue: caseName).map { [$0] } ?? []
    }

    func contains(_ key: Key) -> Bool { caseName == nil || key.stringValue == caseName }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        record(key, type: T.self, choices: Dummies.choices(of: T.self))
        return try Dummies.value(of: type, recorder: recorder, depth: depth + 1)
    }

    /// Synthesized `Codable` asks this for an `Optional` parameter: it may be left out.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decodeIfPresent(type, as: key)
    }

    // NB: the scalar overloads have default implementations that would bypass the generic one.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresent(type, as: key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresent(type, as: key) }

    private func decodeIfPresent<T: Decodable>(_ type: T.Type, as key: Key) throws -> T? {
        record(key, type: T?.self, choices: Dummies.choices(of: T.self))
        return try Dummies.value(of: type, recorder: recorder, depth: depth + 1)
    }

    private func record(_ key: Key, type: Any.Type, choices: [String]) {
        guard recordsParameters else { return }
        let label = key.stringValue
        let isPositional = label.hasPrefix("_") && Int(label.dropFirst()) != nil
        recorder.parameters.append(
            .init(label: isPositional ? nil : label, key: label, typeName: TypeNames.display(type), choices: choices))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        throws -> KeyedDecodingContainer<NestedKey>
    {
        var nested = ProbeKeyedContainer<NestedKey>(caseName: nil, recorder: recorder, depth: depth + 1)
        if caseName != nil, key.stringValue == caseName {
            recorder.accepted = true
            nested.recordsParameters = true
        }
        return KeyedDecodingContainer(nested)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        EmptyUnkeyed()
    }

    func superDecoder() throws -> any Decoder {
        ProbeDecoder(caseName: nil, recorder: recorder, depth: depth + 1)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ProbeDecoder(caseName: nil, recorder: recorder, depth: depth + 1)
    }
}

private struct EmptyUnkeyed: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }
    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { throw ProbeError.exhausted }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    { throw ProbeError.exhausted }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { self }
    mutating func superDecoder() throws -> any Decoder { throw ProbeError.exhausted }
}

private struct ProbeSingleValue: SingleValueDecodingContainer {
    let recorder: ProbeRecorder
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try Dummies.value(of: type, recorder: recorder, depth: depth + 1)
    }
}

private enum ProbeError: Error {
    case exhausted
    case tooDeep
}

/// Placeholder values of any `Decodable` type, so a probed initializer can run to its end.
private enum Dummies {
    static func value<T: Decodable>(of type: T.Type, recorder: ProbeRecorder, depth: Int) throws -> T {
        switch type {
        case is String.Type: return "" as! T
        case is Bool.Type: return false as! T
        case is Double.Type: return 0.0 as! T
        case is Float.Type: return Float(0) as! T
        case let integer as any FixedWidthInteger.Type: return zero(integer) as! T
        default: break
        }
        if let special = foundationValue(of: type) { return special }
        if let iterable = type as? any CaseIterable.Type, let first = firstCase(iterable) as? T {
            return first
        }
        guard depth < 32 else { throw ProbeError.tooDeep }
        // NB: a separate recorder: parameters of nested types are not the action's parameters.
        if let value = try? T(from: ProbeDecoder(caseName: nil, recorder: ProbeRecorder(), depth: depth)) {
            return value
        }
        // An enum that is not `CaseIterable`: one of its cases, by name.
        for name in EnumReflection.caseNames(of: type) ?? [] {
            if let value = try? T(from: ProbeDecoder(caseName: name, recorder: ProbeRecorder(), depth: depth)) {
                return value
            }
        }
        throw ProbeError.exhausted
    }

    /// Foundation's types, whose own `init(from:)` refuses placeholder parts.
    private static func foundationValue<T>(of type: T.Type) -> T? {
        switch type {
        case is Date.Type: Date(timeIntervalSince1970: 0) as? T
        case is URL.Type: URL(string: "https://example.com") as? T
        case is UUID.Type: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) as? T
        case is Data.Type: Data() as? T
        case is Decimal.Type: Decimal(0) as? T
        default: nil
        }
    }

    static func zero<I: FixedWidthInteger>(_ type: I.Type) -> I { 0 }

    static func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }

    static func choices(of type: Any.Type) -> [String] {
        guard let iterable = type as? any CaseIterable.Type else { return [] }
        return printedCases(iterable)
    }

    static func printedCases<C: CaseIterable>(_ type: C.Type) -> [String] {
        C.allCases.compactMap { value in
            if case .string(let text) = ValueReader.read(value) { return text }
            return RuntimeMetadata.caseName(ofTyped: value)
        }
    }
}

/// Swift type names as a user writes them: `[Repository]`, `Int?`, `[Int: String]`, `Set<String>`.
enum TypeNames {
    static func display(_ type: Any.Type) -> String {
        tidy(String(describing: type)[...])
    }

    static func tidy(_ name: Substring) -> String {
        guard let open = name.firstIndex(of: "<"), name.last == ">" else { return String(name) }
        let base = name[..<open]
        let arguments = splitArguments(name[name.index(after: open)..<name.index(before: name.endIndex)]).map(tidy)
        switch (base, arguments.count) {
        case ("Array", 1): return "[" + arguments[0] + "]"
        case ("Optional", 1):
            // NB: an optional function type needs parentheses to stay one: `(() -> ())?`.
            return arguments[0].contains("->") ? "(" + arguments[0] + ")?" : arguments[0] + "?"
        case ("Dictionary", 2): return "[" + arguments[0] + ": " + arguments[1] + "]"
        default: return base + "<" + arguments.joined(separator: ", ") + ">"
        }
    }

    /// `Int, Array<String>` into its top-level parts.
    private static func splitArguments(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        for index in text.indices {
            switch text[index] {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth -= 1
            case "," where depth == 0:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        parts.append(text[start...])
        return parts.map { $0.drop { $0 == " " } }
    }
}
