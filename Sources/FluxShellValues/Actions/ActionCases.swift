import FluxShellJSON
import FluxShellSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How text becomes the actions of a store: the cases of one enum type, or the types listed in
/// `actionTypes:` (structs, each one case named after its type with its stored properties as
/// parameters, and enums, each giving its cases), each case's parameters read from the runtime's
/// description of the type, and a value of the case built in place from them.
///
/// No `Codable` conformance of the action is needed: each parameter's value is read from text on
/// its own (through its type's `Decodable` form, or a case name for an enum that has none), written
/// where the case's payload keeps it, and the case's tag is set last. A parameter whose type has no
/// text form (an `Error`, a closure) makes its case refused with a message naming the type, unless
/// it is an `Optional`, which takes `null` or nothing.
@usableFromInline
package final class ActionCases: @unchecked Sendable {
    /// The cases of an action type, read from its metadata the first time they are asked for
    /// (from any thread; once).
    @usableFromInline
    package final class Lazy: Sendable {
        private let types: [Any.Type]
        private let listsTypes: Bool
        private let cases = LockedValue<ActionCases?>(nil)

        /// The cases of the enum `type`.
        @usableFromInline
        package init(_ type: Any.Type) {
            self.types = [type]
            self.listsTypes = false
        }

        /// The actions of a store registered with `actionTypes:`.
        @usableFromInline
        package init(types: [Any.Type]) {
            self.types = types
            self.listsTypes = true
        }

        @usableFromInline
        package var value: ActionCases {
            cases.withLock { cases in
                if let cases { return cases }
                let made = listsTypes ? ActionCases(types: types) : ActionCases(types[0])
                cases = made
                return made
            }
        }
    }

    // NB: @unchecked Sendable is safe: every property is a `let` set in `init`, and the closures
    // its parameters' readers hold capture nothing mutable. Unchecked because those closures capture metatypes of an
    // app's types (`T.self` for any `T`), which the compiler cannot prove `Sendable`.

    // NB: classes, never changed after `init`: a dispatch looks one case and its parameters up,
    // which is then one reference count each instead of one per member (a signature's strings,
    // a reader's closures).
    package final class Case {
        /// The type the case makes a value of: the enum, or a struct listed in `actionTypes:`.
        let owner: Any.Type
        /// The runtime's tag of the case; `nil` for a struct, whose stored properties are the
        /// parameters.
        let tag: Int?
        package let signature: ActionSignature
        /// Where each parameter's value goes in the payload, and how it is read from text.
        package let parameters: [Parameter]
        /// The payload's type, when the case is `indirect` (its payload lives in a box).
        let boxedPayload: Any.Type?

        init(owner: Any.Type, tag: Int?, signature: ActionSignature, parameters: [Parameter], boxedPayload: Any.Type?) {
            self.owner = owner
            self.tag = tag
            self.signature = signature
            self.parameters = parameters
            self.boxedPayload = boxedPayload
        }
    }

    /// A type listed in `actionTypes:`, as its actions are written.
    struct ListedType {
        /// Its name as the shell writes it: its last component, qualified as far as needed.
        let name: String
        /// The index of its case, for a struct.
        let structCase: Int?
        /// For an enum, the case names another listed type also has: they are written `TYPE.CASE`.
        let qualifiedCases: Set<String>
    }

    package final class Parameter {
        let offset: Int
        let reader: ArgumentReader
        package let shape: TypeShape

        init(offset: Int, reader: ArgumentReader, shape: TypeShape) {
            self.offset = offset
            self.reader = reader
            self.shape = shape
        }
    }

    /// The action enum, or the first type listed in `actionTypes:`.
    let type: Any.Type
    /// In declaration order when the enum is `Decodable` (its `CodingKeys` keep that order), else
    /// in the runtime's order (cases with a payload first); for listed types, type by type in the
    /// order given.
    package let cases: [Case]
    /// Cases by name: several when an enum (not `Codable`) has cases of one name with different
    /// labels (`add(Int)`, `add(title: String)`).
    private let indexByName: [String: [Int]]
    /// The types listed in `actionTypes:`, by identity; empty for a store with one action enum.
    private let listed: [ObjectIdentifier: ListedType]

    @usableFromInline
    package init(_ type: Any.Type) {
        self.type = type
        cases = Self.enumCases(of: type, qualifiedBy: nil, qualifying: [])
        indexByName = Dictionary(cases.enumerated().map { ($1.signature.name, [$0]) }, uniquingKeysWith: +)
        listed = [:]
    }

    /// The actions of the types listed in `actionTypes:`: a struct is one case named after the
    /// type (its last component, qualified as far as two listed types need), whose stored
    /// properties are its parameters; an enum gives its cases, each written `TYPE.CASE` only
    /// where two listed types have a case of that name.
    init(types: [Any.Type]) {
        self.type = types.first ?? Never.self
        let names = TypeNames.distinct(types)
        var nameCount: [String: Int] = [:]
        for (type, name) in zip(types, names) {
            if let enumCases = RuntimeMetadata.enumCases(of: type) {
                // NB: an enum's own cases of one name (`add(Int)`, `add(title:)`) are one name.
                for caseName in Set(enumCases.map(\.name)) { nameCount[caseName, default: 0] += 1 }
            } else {
                nameCount[name, default: 0] += 1
            }
        }
        var cases: [Case] = []
        var listed: [ObjectIdentifier: ListedType] = [:]
        for (type, name) in zip(types, names) {
            if let enumCases = RuntimeMetadata.enumCases(of: type) {
                let qualified = Set(enumCases.map(\.name).filter { nameCount[$0, default: 0] > 1 })
                cases += Self.enumCases(of: type, qualifiedBy: name, qualifying: qualified)
                listed[ObjectIdentifier(type)] = ListedType(name: name, structCase: nil, qualifiedCases: qualified)
            } else if RuntimeMetadata.kind(of: type) == .structure, let fields = TypeShape.storedFields(of: type) {
                listed[ObjectIdentifier(type)] = ListedType(name: name, structCase: cases.count, qualifiedCases: [])
                cases.append(Self.makeStructCase(type, name: name, fields: fields))
            }
        }
        self.cases = cases
        var indexByName = Dictionary(cases.enumerated().map { ($1.signature.name, [$0]) }, uniquingKeysWith: +)
        // NB: a case written unqualified is also taken qualified (`SetVisibility.cycle`), as a
        // user who reads the enum's name in the code may type it; it is listed unqualified.
        for (index, item) in cases.enumerated() where item.tag != nil && !item.signature.name.contains(".") {
            guard let owner = listed[ObjectIdentifier(item.owner)] else { continue }
            let alias = owner.name + "." + item.signature.name
            if indexByName[alias] == nil { indexByName[alias] = [index] }
        }
        self.indexByName = indexByName
        self.listed = listed
    }

    /// The cases of the enum `type`, in declaration order when it is `Decodable`; a case named
    /// in `qualifying` is written `QUALIFIER.CASE`.
    private static func enumCases(of type: Any.Type, qualifiedBy qualifier: String?, qualifying: Set<String>)
        -> [Case]
    {
        let runtimeCases = RuntimeMetadata.enumCases(of: type) ?? []
        var cases: [Case] = []
        for (tag, runtimeCase) in runtimeCases.enumerated() {
            let name =
                qualifying.contains(runtimeCase.name) ? "\(qualifier ?? "").\(runtimeCase.name)" : runtimeCase.name
            cases.append(makeCase(runtimeCase, of: type, named: name, tag: tag))
        }
        if let declared = declaredNames(of: type) {
            let position = Dictionary(declared.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            func place(_ item: Case) -> (Int, Int) {
                let name = item.signature.name.split(separator: ".").last.map(String.init) ?? item.signature.name
                return (position[name] ?? Int.max, item.tag ?? 0)
            }
            cases.sort { place($0) < place($1) }
        }
        return cases
    }

    @usableFromInline package var signatures: [ActionSignature] { cases.map(\.signature) }

    /// Why there are no cases to list, when there are none.
    @usableFromInline package var unlistedBecause: String? {
        guard cases.isEmpty else { return nil }
        guard listed.isEmpty else { return "its action types have no cases" }
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
    package func index(for invocation: ActionInvocation) -> Int? {
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

    private static func makeCase(
        _ runtimeCase: RuntimeMetadata.EnumCase, of owner: Any.Type, named name: String, tag: Int
    )
        -> Case
    {
        var parameters = Parameters()
        if let payload = runtimeCase.payload {
            // NB: several values, or one with a label, are a tuple (`(id: Int)`); its elements are
            // laid out as a tuple's stored fields, unlabeled ones named `_0`, `_1`, …
            if RuntimeMetadata.kind(of: payload) == .tuple {
                // NB: a tuple with no elements (`case ping(Void)`) has no fields: no parameters.
                if case .fields(let fields) = TypeShape.of(payload).kind {
                    for (position, field) in fields.enumerated() {
                        parameters.add(
                            label: field.name == "_\(position)" ? nil : field.name, type: field.shape.type,
                            offset: field.offset)
                    }
                }
            } else {
                parameters.add(label: nil, type: payload, offset: 0)
            }
        }
        let signature = ActionSignature(name: name, parameters: parameters.signature)
        return Case(
            owner: owner, tag: tag, signature: signature, parameters: parameters.list,
            boxedPayload: runtimeCase.isIndirect ? runtimeCase.payload : nil)
    }

    /// A struct listed in `actionTypes:`: one case, whose parameters are its stored properties.
    private static func makeStructCase(_ type: Any.Type, name: String, fields: [TypeShape.Field]) -> Case {
        var parameters = Parameters()
        for field in fields { parameters.add(label: field.name, type: field.shape.type, offset: field.offset) }
        let signature = ActionSignature(name: name, parameters: parameters.signature)
        return Case(owner: type, tag: nil, signature: signature, parameters: parameters.list, boxedPayload: nil)
    }

    /// A case's parameters as they are made, with their signature.
    private struct Parameters {
        var list: [Parameter] = []
        var signature: [ActionSignature.Parameter] = []

        mutating func add(label: String?, type: Any.Type, offset: Int) {
            let reader = ArgumentReader.of(type)
            list.append(Parameter(offset: offset, reader: reader, shape: TypeShape.of(type)))
            var parameter = ActionSignature.Parameter(
                label: label, key: label ?? "_\(signature.count)", typeName: TypeNames.display(type),
                choices: ActionCases.choices(of: type), hasTextForm: reader.hasTextForm)
            parameter.example = ActionCases.example(of: RuntimeMetadata.wrappedType(ofOptional: type) ?? type)
            parameter.caseOpenings = ActionCases.caseOpenings(of: type)
            signature.append(parameter)
        }
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

    /// A value of `type` as typed, for a usage line, by the rule that prints the type
    /// (docs/reference.md, Printed values), where the type's name does not tell: `900` for a
    /// `Duration`, `[]` for an `IndexSet`, the raw value's example for a `Tagged` id, a case for
    /// an enum, a struct's object of the members it needs; `nil` to let the name tell.
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
        case .fields(let fields):
            // NB: every member but the optional ones, which may be left out: a member with a
            // default value must be given too, the runtime knowing no default.
            let members = fields.filter { !$0.shape.isOptional }.map { field in
                let type = field.shape.type
                var value =
                    example(of: type, depth: depth + 1)
                    ?? ActionSignature.placeholder(typeName: TypeNames.display(type))
                // NB: a case name, a bare word on the command line, is a string inside an object.
                if !value.hasPrefix("{"), (try? JSONParser.parse(value)) == nil {
                    value = JSONText.compact(.string(value))
                }
                return JSONText.compact(.string(field.name)) + ":" + value
            }
            return "{" + members.joined(separator: ",") + "}"
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

extension ActionCases {
    /// A typed action in command syntax, as `history`, `save` and `=> ` lines write it: an enum's
    /// case (`add 5`), or a listed type's name and stored properties (`AddTodo title: "Milk"`);
    /// by its case name when it has no case-name form.
    @usableFromInline
    package func announcement<A>(of action: A) -> ActionInvocation {
        guard !listed.isEmpty else { return ActionText.announcement(of: action) }
        return invocation(of: action, printed: nil) ?? Self.announcement(ofHeld: action as Any)
    }

    /// A typed action in command syntax, or `nil` when it has none; `printed` is the action as it
    /// reads (``ValueReader/read(_:)``), when the caller has it already.
    package func invocation<A>(of action: A, printed: JSONValue?) -> ActionInvocation? {
        guard !listed.isEmpty else {
            return try? ActionText.invocation(printed: printed ?? ValueReader.read(action), of: action)
        }
        // NB: the action is the library's protocol (`any Action`): what it holds says its type.
        // Opening the `Any` may give back the protocol's existential itself (an `Any` made in
        // generic code holds it); `type(of:)` sees through every level, so the value is cast to
        // that type, never read as its container.
        let value = action as Any
        let type = Swift.type(of: value)
        func read<T>(_: T.Type) -> JSONValue { ValueReader.read(value as! T) }
        guard let listedType = listed[ObjectIdentifier(type)] else {
            // NB: a struct the store was not given (an app's own `ReplaceState`) is written as a
            // listed one would be, so that its line says what it was; it does not replay.
            guard RuntimeMetadata.kind(of: type) == .structure else { return nil }
            var invocation = ActionInvocation(name: TypeNames.distinct([type])[0])
            if case .object(let members) = printed ?? _openExistential(type, do: read) {
                invocation.arguments = members.members.map { .init(label: $0.key, value: $0.value) }
            }
            return invocation
        }
        guard let structCase = listedType.structCase else {
            let printed = printed ?? _openExistential(type, do: read)
            func enumInvocation<T>(_: T.Type) -> ActionInvocation? {
                try? ActionText.invocation(printed: printed, of: value as! T)
            }
            guard var invocation = _openExistential(type, do: enumInvocation) else { return nil }
            if listedType.qualifiedCases.contains(invocation.name) {
                invocation.name = listedType.name + "." + invocation.name
            }
            return invocation
        }
        func structInvocation<T>(_: T.Type) -> ActionInvocation { invocation(ofStruct: value as! T, case: structCase) }
        return _openExistential(type, do: structInvocation)
    }

    /// ``ActionText/announcement(of:)`` of the value an `Any` holds, typed as what it holds.
    private static func announcement(ofHeld value: Any) -> ActionInvocation {
        func open<T>(_: T.Type) -> ActionInvocation { ActionText.announcement(of: value as! T) }
        return _openExistential(Swift.type(of: value), do: open)
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
