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
        if recordsParameters {
            let label = key.stringValue
            let isPositional = label.hasPrefix("_") && Int(label.dropFirst()) != nil
            recorder.parameters.append(
                .init(
                    label: isPositional ? nil : label, key: label,
                    typeName: TypeNames.display(T.self), choices: Dummies.choices(of: T.self)))
        }
        return try Dummies.value(of: type, recorder: recorder, depth: depth + 1)
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
        if let iterable = type as? any CaseIterable.Type, let first = firstCase(iterable) as? T {
            return first
        }
        guard depth < 32 else { throw ProbeError.tooDeep }
        // NB: a separate recorder: parameters of nested types are not the action's parameters.
        return try T(from: ProbeDecoder(caseName: nil, recorder: ProbeRecorder(), depth: depth))
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
            return nil
        }
    }
}

/// Swift type names as a user writes them: `[Repository]`, `Int?`.
enum TypeNames {
    static func display(_ type: Any.Type) -> String {
        tidy(String(describing: type))
    }

    static func tidy(_ name: String) -> String {
        if name.hasPrefix("Array<"), name.hasSuffix(">") {
            return "[" + tidy(String(name.dropFirst(6).dropLast())) + "]"
        }
        if name.hasPrefix("Optional<"), name.hasSuffix(">") {
            return tidy(String(name.dropFirst(9).dropLast())) + "?"
        }
        return name
    }
}
