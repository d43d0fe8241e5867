import FluxShellJSON
import FluxShellSystem

/// Builds a value of any Swift type from its printed form (“Printed values” in the reference):
/// whatever the shell prints, it reads back, for a type of any module, `Decodable` or not.
///
/// ```swift
/// try ValueBuilder.build(Member.self, from: JSONParser.parse(#"{"id":"3F25…","name":"Blob"}"#), at: [])
/// ```
///
/// The first rule of “Printed values” in the reference that applies to the type says how: a row of
/// the table parses its own form (``ShellValue/parse(_:at:)``); a set algebra, a raw value or a
/// collection is built through its protocol (``ValueForm``); a struct member by member at the
/// offsets the runtime gives (``TypeShape``); an enum case by case, its payload in place and its
/// tag set last (`indirect` cases in a box). A `Decodable` struct or enum is decoded first, so that
/// its own checks run; its printed form is read structurally when its `Codable` form differs.
///
/// Every failure is a `DecodingError` whose coding path says where, or ``NoTextForm``.
package enum ValueBuilder {
    package static func build<T>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        let shape = TypeShape.of(T.self)
        switch shape.kind {
        case .custom(let row):
            func parse<R: ShellValue>(_: R.Type) throws -> T { try R.parse(value, at: path) as! T }
            return try parse(row)
        case .form(let form):
            if let parse = form.parse { return try parse(value, path) as! T }
            return try decoded(T.self, from: value, at: path)
        case .fields(let fields):
            guard T.self is any Decodable.Type else { return try structure(T.self, fields, from: value, at: path) }
            do {
                return try decoded(T.self, from: value, at: path)
            } catch {
                // NB: the printed form, member by member, where the `Codable` form differs.
                guard Self.formDiffers(error, at: path),
                    let built = try? structure(T.self, fields, from: value, at: path)
                else { throw error }
                return built
            }
        case .enumeration:
            guard T.self is any Decodable.Type else { return try enumCase(T.self, from: value, at: path) }
            do {
                return try decoded(T.self, from: value, at: path)
            } catch {
                guard Self.formDiffers(error, at: path), let built = try? enumCase(T.self, from: value, at: path) else {
                    throw error
                }
                return built
            }
        case .opaque where DescribedError.isErrorExistential(T.self):
            // NB: `any Error` takes a string, the description of the error it makes (“Stores of
            // every architecture” in the reference).
            return try DescribedError.existential(T.self, from: value, at: path)
        case .object, .existential, .opaque, .withoutMetadata:
            return try decoded(T.self, from: value, at: path)
        }
    }

    /// Whether `error`, from a type's own decoding, says its `Codable` form is not the printed one
    /// at this very level (a member missing or of another kind), so that the printed form is
    /// worth reading member by member.
    ///
    /// NB: never for a value the type itself refused (`dataCorrupted`: its own checks), nor for a
    /// failure inside a member, which the member's own reading already tried both ways: retried
    /// at every level, a bad leaf deep in a tree would be read 2^depth times.
    private static func formDiffers(_ error: any Error, at path: [any CodingKey]) -> Bool {
        switch error as? DecodingError {
        case .typeMismatch(_, let context)?: return context.codingPath.count == path.count
        case .keyNotFound(_, let context)?: return context.codingPath.count == path.count
        default: return false
        }
    }

    /// Through the type's `Decodable` conformance; ``NoTextForm`` when it has none.
    private static func decoded<T>(_ type: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        guard let decodable = type as? any Decodable.Type else { throw NoTextForm(type: T.self, codingPath: path) }
        func decode<D: Decodable>(_: D.Type) throws -> T {
            try ScalarDecoding.decodeDecodable(D.self, from: value, path: path) as! T
        }
        return try decode(decodable)
    }

    // MARK: - Structs and tuples, member by member

    /// A struct or tuple from an object of its stored properties (“Printed values” in the
    /// reference, rule 6): every member given, but an `Optional` one, which is `nil` when left out;
    /// no member it does not have.
    ///
    /// NB: each member is initialized in place, at the offset the runtime's field records give,
    /// in memory allocated as `T` itself; on a failure the members already written are destroyed
    /// and nothing escapes. This is how the compiler's own memberwise initializer lays a struct
    /// out, for a type of any module built with reflection metadata.
    static func structure<T>(_: T.Type, _ fields: [TypeShape.Field], from value: JSONValue, at path: [any CodingKey])
        throws -> T
    {
        // NB: a member that holds a class instance may be `weak` or `unowned`, which the runtime's
        // field list does not say: a strong reference written there would corrupt the counts.
        // Such a struct is built only through its own `Decodable`.
        if fields.contains(where: { $0.shape.holdsReference }) { throw NoTextForm(type: T.self, codingPath: path) }
        guard case .object(let object) = value else {
            let names = fields.map(\.name).joined(separator: ", ")
            throw DecodingError.typeMismatch(
                T.self,
                .init(
                    codingPath: path,
                    debugDescription: "expected an object with \(names), found \(JSONText.compact(value))"))
        }
        for key in object.keys where !fields.contains(where: { $0.name == key }) {
            let hint = Suggestion.didYouMean(key, among: fields.map(\.name)).map { " (\($0))" } ?? ""
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path + [MemberKey(key)],
                    debugDescription: "\(TypeNames.display(T.self)) has no member '\(key)'\(hint)"))
        }
        return try ValueSlot.build(T.self) { try initializeMembers(fields, from: object, at: $0, path: path) }.value
    }

    /// Initializes each member of `fields` at `base` from `object`; all or none.
    private static func initializeMembers(
        _ fields: [TypeShape.Field], from object: JSONObject, at base: ValueSlot, path: [any CodingKey]
    ) throws {
        var written = 0
        do {
            for field in fields {
                let memberPath = path + [MemberKey(field.name)]
                if let member = object[field.name] {
                    try field.shape.initialize(base + field.offset, member, memberPath)
                } else if field.shape.isOptional {
                    try field.shape.initialize(base + field.offset, .null, memberPath)
                } else {
                    throw DecodingError.keyNotFound(
                        MemberKey(field.name), .init(codingPath: path, debugDescription: "missing '\(field.name)'"))
                }
                written += 1
            }
        } catch {
            for field in fields.prefix(written) { field.shape.destroy(base + field.offset) }
            throw error
        }
    }

    // MARK: - Enums, case by case

    /// A case from its printed form (“Printed values” in the reference, rule 6): a case without
    /// payload from its name or raw value; a case with payload from
    /// `{"CASE":{"LABEL":VALUE,"_0":VALUE}}`, `indirect` ones included.
    static func enumCase<T>(_: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        let cases = RuntimeMetadata.enumCases(of: T.self) ?? []
        // NB: the printed form first, then the case name: a raw value may be another case's name.
        let empty = EmptyCase.all(of: T.self)
        if let match = empty.first(where: { $0.printed == value }) { return match.value }
        if case .string(let word) = value, let match = empty.first(where: { $0.name == word }) { return match.value }
        guard case .object(let object) = value, object.count == 1, let name = object.keys.first,
            let tag = cases.firstIndex(where: { $0.name == name })
        else {
            let given: String = if case .string(let word) = value { word } else { JSONText.compact(value) }
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "Cannot initialize \(T.self) from '\(given)'"))
        }
        let payloadPath = path + [MemberKey(name)]
        let enumCase = cases[tag]
        guard let payloadType = enumCase.payload else {
            guard object[name] == .object(JSONObject()) else {
                throw DecodingError.typeMismatch(
                    T.self,
                    .init(codingPath: payloadPath, debugDescription: "'\(name)' has no payload: write it as \(name)"))
            }
            return empty.first { $0.name == name }!.value
        }
        let payloadShape = TypeShape.of(payloadType)
        return try ValueSlot.build(T.self) { value in
            try RuntimeMetadata.initializeCase(
                tag, of: T.self, boxing: enumCase.isIndirect ? payloadType : nil, at: value
            ) { payload in
                try initializePayload(payloadShape, from: object[name]!, at: payload, path: payloadPath)
            }
        }.value
    }

    /// A payload from its object: a tuple's members by label (`_0` for an unlabeled one), or one
    /// unlabeled value as `_0`.
    private static func initializePayload(
        _ shape: TypeShape, from value: JSONValue, at destination: ValueSlot, path: [any CodingKey]
    ) throws {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                shape.type,
                .init(
                    codingPath: path,
                    debugDescription: "expected an object of the case's values, found \(JSONText.compact(value))"))
        }
        if RuntimeMetadata.kind(of: shape.type) == .tuple, case .fields(let fields) = shape.kind {
            for key in object.keys where !fields.contains(where: { $0.name == key }) {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: path + [MemberKey(key)], debugDescription: "the case has no value '\(key)'"))
            }
            return try initializeMembers(fields, from: object, at: destination, path: path)
        }
        for key in object.keys where key != "_0" {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path + [MemberKey(key)], debugDescription: "the case has one value, _0"))
        }
        try initializeMembers(
            [TypeShape.Field(name: "_0", offset: 0, shape: shape)], from: object, at: destination, path: path)
    }

    // MARK: - Which types have a text form

    /// Whether text can give a value of `type` other than `nil`: `false` for a closure, an
    /// existential other than `any Error`, an error type that is not `Decodable`, and a struct or
    /// enum made only of those.
    static func hasTextForm(_ type: Any.Type) -> Bool {
        var visiting: Set<ObjectIdentifier> = []
        return hasTextForm(type, visiting: &visiting)
    }

    static func hasTextForm(_ type: Any.Type, visiting: inout Set<ObjectIdentifier>) -> Bool {
        // NB: a type met again inside itself (a tree) has a text form if the rest gives one.
        guard visiting.insert(ObjectIdentifier(type)).inserted else { return true }
        defer { visiting.remove(ObjectIdentifier(type)) }
        let decodable = type is any Decodable.Type
        switch TypeShape.of(type).kind {
        case .custom(let row):
            return row.textForm(&visiting)
        case .form(let form):
            guard form.parse != nil else { return decodable }
            return form.inner.map { hasTextForm($0, visiting: &visiting) } ?? true
        case .fields(let fields):
            guard !fields.contains(where: { $0.shape.holdsReference }) else { return decodable }
            return decodable
                || fields.allSatisfy {
                    TypeShape.of($0.shape.type).isOptional || hasTextForm($0.shape.type, visiting: &visiting)
                }
        case .enumeration:
            guard !decodable else { return true }
            return (RuntimeMetadata.enumCases(of: type) ?? []).contains { enumCase in
                guard let payload = enumCase.payload else { return true }
                return hasTextForm(payload, visiting: &visiting)
            }
        case .opaque:
            return decodable || DescribedError.isErrorExistential(type)
        case .object, .existential, .withoutMetadata:
            return decodable
        }
    }
}

/// A value of a type that has no text form was asked for (a closure, an existential, an error
/// type that is not `Decodable`): the type, and where in the argument.
package struct NoTextForm: Error {
    package let type: Any.Type
    package let codingPath: [any CodingKey]
}

extension ShellValue {
    /// Whether text gives a value other than `nil` (see ``ValueBuilder/hasTextForm(_:)``).
    static func textForm(_ visiting: inout Set<ObjectIdentifier>) -> Bool {
        hasOwnTextForm && textFormInner.allSatisfy { ValueBuilder.hasTextForm($0, visiting: &visiting) }
    }
}
