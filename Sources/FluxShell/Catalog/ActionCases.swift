import FluxCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How text becomes the actions of one enum type (SPEC §3, §4): each case's parameters, read from
/// the runtime's description of the enum, and a value of the case built in place from them.
///
/// No `Codable` conformance of the action is needed: each parameter's value is read from text on
/// its own (through its type's `Decodable` form, or a case name for an enum that has none), written
/// where the case's payload keeps it, and the case's tag is set last. A parameter whose type has no
/// text form (an `Error`, a closure) makes its case refused with a message naming the type, unless
/// it is an `Optional`, which takes `null` or nothing.
@usableFromInline
final class ActionCases: @unchecked Sendable {
    /// The cases of an action type, read from its metadata the first time they are asked for
    /// (from any thread; once).
    @usableFromInline
    final class Lazy: Sendable {
        private let type: Any.Type
        private let cases = LockedValue<ActionCases?>(nil)

        @usableFromInline
        init(_ type: Any.Type) { self.type = type }

        @usableFromInline
        var value: ActionCases {
            cases.withLock { cases in
                if let cases { return cases }
                let made = ActionCases(type)
                cases = made
                return made
            }
        }
    }

    // NB: @unchecked Sendable is safe: every property is a `let` set in `init`, and the closures
    // it holds capture nothing mutable.

    // NB: classes, never changed after `init`: a dispatch looks one case and its parameters up,
    // which is then one reference count each instead of one per member (a signature's strings,
    // a reader's closures).
    final class Case {
        /// The runtime's tag of the case.
        let tag: Int
        let signature: ActionSignature
        /// Where each parameter's value goes in the payload, and how it is read from text.
        let parameters: [Parameter]
        /// The payload's type, when the case is `indirect` (its payload lives in a box).
        let boxedPayload: Any.Type?

        init(tag: Int, signature: ActionSignature, parameters: [Parameter], boxedPayload: Any.Type?) {
            self.tag = tag
            self.signature = signature
            self.parameters = parameters
            self.boxedPayload = boxedPayload
        }
    }

    final class Parameter {
        let offset: Int
        let reader: ArgumentReader
        let shape: TypeShape

        init(offset: Int, reader: ArgumentReader, shape: TypeShape) {
            self.offset = offset
            self.reader = reader
            self.shape = shape
        }
    }

    let type: Any.Type
    /// In declaration order when the enum is `Decodable` (its `CodingKeys` keep that order), else
    /// in the runtime's order (cases with a payload first).
    let cases: [Case]
    /// Cases by name: several when an enum (not `Codable`) has cases of one name with different
    /// labels (`add(Int)`, `add(title: String)`).
    private let indexByName: [String: [Int]]

    @usableFromInline
    init(_ type: Any.Type) {
        self.type = type
        let runtimeCases = RuntimeMetadata.enumCases(of: type) ?? []
        var cases: [Case] = []
        for (tag, runtimeCase) in runtimeCases.enumerated() {
            cases.append(Self.makeCase(runtimeCase, tag: tag))
        }
        if let declared = Self.declaredNames(of: type) {
            let position = Dictionary(declared.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            cases.sort {
                (position[$0.signature.name] ?? Int.max, $0.tag) < (position[$1.signature.name] ?? Int.max, $1.tag)
            }
        }
        self.cases = cases
        indexByName = Dictionary(cases.enumerated().map { ($1.signature.name, [$0]) }, uniquingKeysWith: +)
    }

    @usableFromInline var signatures: [ActionSignature] { cases.map(\.signature) }

    /// Why there are no cases to list, when there are none.
    @usableFromInline var unlistedBecause: String? {
        guard cases.isEmpty else { return nil }
        guard RuntimeMetadata.kind(of: type) == .enumeration else { return "its action type is not an enum" }
        guard RuntimeMetadata.enumCases(of: type) != nil else {
            // NB: the runtime describes an enum's cases only in its module's reflection metadata.
            return
                "its module was built without reflection metadata (-disable-reflection-metadata), which FluxShell reads cases from"
        }
        return "its action enum has no cases"
    }

    /// The case `invocation` names: of several with its name, the first whose parameters its
    /// arguments match.
    @usableFromInline
    func index(for invocation: ActionInvocation) -> Int? {
        guard let candidates = indexByName[invocation.name] else { return nil }
        guard candidates.count > 1 else { return candidates[0] }
        return candidates.first { (try? ActionText.arguments(of: invocation, for: cases[$0].signature)) != nil }
            ?? candidates[0]
    }

    func describe(
        _ error: any Error, parameter number: Int, invocation: ActionInvocation, signature: ActionSignature
    )
        -> ShellError
    {
        switch error {
        case let error as DecodingError:
            return ActionText.describe(error, invocation: invocation, signature: signature)
        case let error as ShellError:
            return error
        case let error as NoTextForm where error.codingPath.count > 2:
            let place = error.codingPath.dropFirst(2).map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
                .joined()
            let parameter = signature.parameters[number]
            let name = parameter.label.map { "'\($0)'" } ?? "\(number + 1)"
            return ShellError(
                "argument \(name) of '\(signature.name)' cannot be given as text: at \(place.drop { $0 == "." }), \(TypeNames.display(error.type)) has no text form",
                hint: "dispatch '\(signature.name)' from Swift (a test, or an effect)")
        default:
            let parameter = signature.parameters[number]
            let name = parameter.label.map { "'\($0)'" } ?? "\(number + 1)"
            let optional = parameter.isOptional ? "; it takes only null" : ""
            return ShellError(
                "argument \(name) of '\(signature.name)' cannot be given as text: \(parameter.typeName) has no text form\(optional)",
                hint: "dispatch '\(signature.name)' from Swift (a test, or an effect)")
        }
    }

    private static func makeCase(_ runtimeCase: RuntimeMetadata.EnumCase, tag: Int) -> Case {
        var parameters: [Parameter] = []
        var signatureParameters: [ActionSignature.Parameter] = []
        func add(label: String?, type: Any.Type, offset: Int) {
            let reader = ArgumentReader.of(type)
            parameters.append(Parameter(offset: offset, reader: reader, shape: TypeShape.of(type)))
            var parameter = ActionSignature.Parameter(
                label: label, key: label ?? "_\(signatureParameters.count)", typeName: TypeNames.display(type),
                choices: choices(of: type), hasTextForm: reader.hasTextForm)
            parameter.example = example(of: RuntimeMetadata.wrappedType(ofOptional: type) ?? type)
            parameter.caseOpenings = caseOpenings(of: type)
            signatureParameters.append(parameter)
        }
        if let payload = runtimeCase.payload {
            // NB: several values, or one with a label, are a tuple (`(id: Int)`); its elements are
            // laid out as a tuple's stored fields, unlabeled ones named `_0`, `_1`, …
            if RuntimeMetadata.kind(of: payload) == .tuple {
                // NB: a tuple with no elements (`case ping(Void)`) has no fields: no parameters.
                if case .fields(let fields) = TypeShape.of(payload).kind {
                    for (position, field) in fields.enumerated() {
                        add(
                            label: field.name == "_\(position)" ? nil : field.name, type: field.shape.type,
                            offset: field.offset)
                    }
                }
            } else {
                add(label: nil, type: payload, offset: 0)
            }
        }
        let signature = ActionSignature(name: runtimeCase.name, parameters: signatureParameters)
        return Case(
            tag: tag, signature: signature, parameters: parameters,
            boxedPayload: runtimeCase.isIndirect ? runtimeCase.payload : nil)
    }

    /// The values an enum-typed parameter takes (`all`, `active`, `done`), for `actions` and
    /// completion: each case of an enum without payloads, as printed (its raw value, else its name).
    private static func choices(of type: Any.Type) -> [String] {
        let type = RuntimeMetadata.wrappedType(ofOptional: type) ?? type
        guard let cases = RuntimeMetadata.enumCases(of: type), cases.allSatisfy({ $0.payload == nil }) else {
            return []
        }
        func printed<T>(_: T.Type) -> [String] {
            EmptyCase.all(of: T.self).map { enumCase in
                if case .string(let text) = enumCase.printed { return text }
                return enumCase.name
            }
        }
        return _openExistential(type, do: printed)
    }

    /// How each value of an enum with payloads begins (``ActionSignature/Parameter/caseOpenings``),
    /// in the order the cases are declared when the enum is `Decodable`, else the runtime's.
    private static func caseOpenings(of type: Any.Type) -> [String] {
        let type = RuntimeMetadata.wrappedType(ofOptional: type) ?? type
        guard let cases = RuntimeMetadata.enumCases(of: type), cases.contains(where: { $0.payload != nil }) else {
            return []
        }
        let order = declaredNames(of: type) ?? cases.map(\.name)
        return order.compactMap { name in
            guard let enumCase = cases.first(where: { $0.name == name }) else { return nil }
            guard let payload = enumCase.payload else { return name }
            var firstKey = "_0"
            if RuntimeMetadata.kind(of: payload) == .tuple {
                // NB: a payload of no values (`case ping(Void)`) is written `{"ping":{}}`.
                guard case .fields(let fields) = TypeShape.of(payload).kind, let first = fields.first else {
                    return "{\"\(name)\":{}}"
                }
                firstKey = first.name
            }
            return "{\"\(name)\":{\"\(firstKey)\":"
        }
    }

    /// A value of `type` as typed, for a usage line: by the rule of SPEC §4 that prints the type,
    /// where the type's name does not tell (`900` for a `Duration`, `[]` for an `IndexSet`, the
    /// raw value's example for a `Tagged` id, a case for an enum); `nil` to let the name tell.
    private static func example(of type: Any.Type, depth: Int = 0) -> String? {
        guard depth < 4 else { return nil }
        switch TypeShape.of(type).kind {
        case .custom(let row):
            if let example = row.examples.first { return JSONText.compact(example) }
            // NB: a row built from one inner type is a collection of it (an array, a set, an
            // identified array); from two, a dictionary, which the name tells.
            return row.textFormInner.count == 1 ? "[]" : nil
        case .form(let form):
            switch form.rule {
            case .rawValue:
                guard let inner = form.inner else { return nil }
                return example(of: inner, depth: depth + 1)
                    ?? ActionSignature.placeholder(typeName: TypeNames.display(inner))
            case .setAlgebra, .collection: return "[]"
            case .mirror: return nil
            }
        case .enumeration:
            guard let cases = RuntimeMetadata.enumCases(of: type), let first = cases.first else { return nil }
            if let empty = cases.first(where: { $0.payload == nil }) { return empty.name }
            return "{\"\(first.name)\":{…}}"
        default:
            return nil
        }
    }

    /// The case names in declaration order, for a `Decodable` enum: its synthesized `CodingKeys`
    /// list them so, where the runtime lists the cases with a payload first.
    private static func declaredNames(of type: Any.Type) -> [String]? {
        guard let decodable = type as? any Decodable.Type else { return nil }
        let probe = CodingKeysProbe()
        func run<D: Decodable>(_: D.Type) { _ = try? D(from: probe) }
        run(decodable)
        guard let keyType = probe.keyType, let keys = RuntimeMetadata.enumCases(of: keyType) else { return nil }
        return keys.map(\.name)
    }
}

/// A coding key of an argument's path, for the messages of ``ActionText/describe(_:invocation:signature:)``.
extension ActionCases {
    /// The action of type `Action` (this enum) that `invocation` names, as a store takes it.
    @inlinable
    func decode<Action: FluxCore.Action>(_ invocation: ActionInvocation, as _: Action.Type) -> DecodeOutcome {
        guard let index = index(for: invocation) else { return .unknownCase }
        do throws(ShellError) {
            let made = try make(index, invocation, as: Action.self)
            return .accepted(TypedActionBox(made.action), printed: made.printed)
        } catch {
            return .rejected(error)
        }
    }
}

struct ArgumentKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A decoder that only learns which keys a synthesized enum decoder asks for.
private final class CodingKeysProbe: Decoder {
    var keyType: Any.Type?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    struct Stop: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        keyType = type
        throw Stop()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Stop() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Stop() }
}
