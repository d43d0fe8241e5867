import FluxShellJSON

/// How a value prints, and is read back, through a protocol its type conforms to rather than
/// through its stored properties (“Printed values” in the reference): a set algebra as a sorted
/// array (rule 1), a custom mirror (rule 3), a raw value (rule 4), a collection as an array of its
/// elements (rule 5).
///
/// Each form is worked out once per type by ``TypeShape`` and kept there.
///
/// NB: `read` is handed only pointers to a value of the type the form was made for, from that
/// type's ``TypeShape`` (as ``ShellValue/value(at:)`` is); it copies the value out and keeps no
/// pointer. The forms need no unsafe code of their own beyond that one typed load.
struct ValueForm {
    /// Which rule of “Printed values” in the reference made this form, for `hasTextForm` and messages.
    enum Rule {
        case setAlgebra, mirror, rawValue, collection
    }

    let rule: Rule
    /// The printed form of the value of the type at a pointer.
    let read: (ValueAddress, ValueReader) -> JSONValue
    /// The value (as `Any`, holding the type itself) whose printed form is the argument; `nil`
    /// when this form cannot be read back (then `Decodable`, when the type is, is tried).
    let parse: ((JSONValue, [any CodingKey]) throws -> Any)?
    /// The type whose text form this one's depends on (the raw value's, the elements'), if any.
    let inner: Any.Type?

    // MARK: - Rule 1: `IndexSet` and any other `SetAlgebra` that is a `Sequence`

    /// A sorted array of its elements, never in hash or storage order; built from an array.
    static func setAlgebra<T>(_ type: T.Type) -> ValueForm? {
        guard let algebra = type as? any (SetAlgebra & Sequence).Type else { return nil }
        func make<S: SetAlgebra & Sequence>(_: S.Type) -> ValueForm {
            let isIndexSet = _typeName(S.self) == "Foundation.IndexSet"
            return ValueForm(
                rule: .setAlgebra,
                read: { pointer, reader in
                    let elements = pointer.value(as: S.self).map { reader.read($0) }
                    return .array(PrintedOrder.sorted(elements))
                },
                parse: { value, path in
                    var result = S()
                    for (index, member) in try ValueBuilder.elements(S.Element.self, from: value, of: S.self, at: path)
                        .enumerated()
                    {
                        // NB: Foundation's `IndexSet` holds indexes from 0 to `Int.max - 1` and
                        // traps on any other (its module is not imported here: named by its type).
                        if isIndexSet, let given = member as? Int, given < 0 || given == Int.max {
                            throw DecodingError.dataCorrupted(
                                .init(
                                    codingPath: path + [IndexKey(index)],
                                    debugDescription:
                                        "an index set holds indexes from 0 to \(Int.max - 1), not \(given)"))
                        }
                        result.insert(member)
                    }
                    return result
                },
                inner: S.Element.self)
        }
        return make(algebra)
    }

    // MARK: - Rule 3: a custom mirror

    /// What the type's mirror shows (`IdentifiedArray` shows an array); read back only through
    /// `Decodable`, as a mirror says nothing of how to build the value.
    static func mirror<T>(_ type: T.Type) -> ValueForm? {
        guard type is any CustomReflectable.Type else { return nil }
        return ValueForm(
            rule: .mirror,
            read: { pointer, reader in
                let value = pointer.value(as: T.self)
                return reader.readMirror(Mirror(reflecting: value), of: value)
            },
            parse: nil, inner: nil)
    }

    // MARK: - Rule 4: a struct or class that is `RawRepresentable`

    /// Its raw value (`Tagged<User, UUID>` prints as the UUID); built from the raw value's form
    /// through `init(rawValue:)`.
    static func rawValue<T>(_ type: T.Type) -> ValueForm? {
        guard let representable = type as? any RawRepresentable.Type else { return nil }
        func make<R: RawRepresentable>(_: R.Type) -> ValueForm {
            ValueForm(
                rule: .rawValue,
                read: { pointer, reader in reader.read(pointer.value(as: R.self).rawValue) },
                parse: { value, path in
                    let raw = try ValueBuilder.build(R.RawValue.self, from: value, at: path)
                    guard let result = R(rawValue: raw) else {
                        throw DecodingError.dataCorrupted(
                            .init(
                                codingPath: path,
                                debugDescription:
                                    "\(JSONText.compact(value)) is not a valid \(TypeNames.display(R.self))"))
                    }
                    return result
                },
                inner: R.RawValue.self)
        }
        return make(representable)
    }

    // MARK: - Rule 5: any other collection

    /// An array of its elements in their order, for a collection that keeps them in one stored
    /// property or only in storage members (`_`-named): a `Stack` over `[T]`. Built by appending
    /// (a `RangeReplaceableCollection`) or, for one stored property, by building that property
    /// from the same array.
    static func collection<T>(_ type: T.Type, fields: [TypeShape.Field]) -> ValueForm? {
        guard let collection = type as? any Collection.Type,
            fields.count == 1 || fields.allSatisfy({ $0.name.hasPrefix("_") }),
            // NB: elements kept in a set or dictionary come in hash order, which differs in every
            // process: such a collection prints as its members (rule 6), the set sorted.
            !fields.contains(where: { isHashed($0.shape.type) })
        else { return nil }
        func make<C: Collection>(_: C.Type) -> ValueForm {
            ValueForm(
                rule: .collection,
                read: { pointer, reader in reader.readElements(pointer.value(as: C.self)) },
                parse: parser(C.self, fields: fields),
                inner: C.Element.self)
        }
        return make(collection)
    }

    private static func isHashed(_ type: Any.Type) -> Bool {
        let name = _typeName(type)
        return type is any SetAlgebra.Type || name.hasPrefix("Swift.Dictionary<") || name.hasPrefix("Swift.Set<")
    }

    private static func parser<C: Collection>(_: C.Type, fields: [TypeShape.Field]) -> (
        (JSONValue, [any CodingKey]) throws -> Any
    )? {
        if let replaceable = C.self as? any RangeReplaceableCollection.Type {
            func make<R: RangeReplaceableCollection>(_: R.Type) -> (JSONValue, [any CodingKey]) throws -> Any {
                { value, path in R(try ValueBuilder.elements(R.Element.self, from: value, of: R.self, at: path)) }
            }
            return make(replaceable)
        }
        guard fields.count == 1 else { return nil }
        // NB: the one stored property holds the elements (`items: [T]`): the struct is that
        // property, built from the same array (``ValueBuilder`` builds a struct field by field).
        return { value, path in
            try ValueBuilder.structure(C.self, fields, from: .object(JSONObject([(fields[0].name, value)])), at: path)
        }
    }
}

/// The coding key of an array element, for the paths of errors.
struct IndexKey: CodingKey {
    var stringValue: String { String(intValue ?? 0) }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The coding key of an object member, for the paths of errors.
struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
