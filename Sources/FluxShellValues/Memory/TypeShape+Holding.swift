extension TypeShape {
    /// What the values of a type may hold, as far as the runtime shows: whether a mutation
    /// applied to a copy of one changes nothing else (the undo history's question, see
    /// ``StateHistory``).
    ///
    /// Errors, closures, key paths and metatypes count as values: a mutation replaces them, it
    /// cannot change them in place.
    package enum Holding: Int, Comparable {
        /// Values all the way down: no class instance and no existential.
        case onlyValues
        /// Values, and existentials (`Any`, `any P`, `AnyHashable`): each value holds only values
        /// when what its existentials hold does (``holdsOnlyValues(value:)``).
        case existentials
        /// A class instance, or something whose contents the runtime does not show (a custom
        /// mirror, a module built without reflection metadata).
        case references

        package static func < (a: Holding, b: Holding) -> Bool { a.rawValue < b.rawValue }
    }

    /// What every value of `type` may hold.
    package static func holding(_ type: Any.Type) -> Holding {
        var visiting: Set<ObjectIdentifier> = []
        return holding(type, visiting: &visiting)
    }

    /// Whether `value` holds only values: no class instance in it, nor in what its existentials
    /// hold. Only the members whose type holds an existential are read, through `Mirror`.
    ///
    /// NB: a member boxed as `Any` is the value its existential held, so its own type is the one
    /// the existential hid.
    package static func holdsOnlyValues(value: Any) -> Bool {
        switch holding(Swift.type(of: value)) {
        case .onlyValues: true
        case .references: false
        case .existentials: Mirror(reflecting: value).children.allSatisfy { holdsOnlyValues(value: $0.value) }
        }
    }

    private static func holding(_ type: Any.Type, visiting: inout Set<ObjectIdentifier>) -> Holding {
        // NB: a type met again inside itself (a tree) holds what the rest does.
        guard visiting.insert(ObjectIdentifier(type)).inserted else { return .onlyValues }
        defer { visiting.remove(ObjectIdentifier(type)) }
        if type == AnyHashable.self { return .existentials }
        if RuntimeMetadata.kind(of: type) == .classInstance { return .references }
        func most(_ types: some Sequence<Any.Type>, visiting: inout Set<ObjectIdentifier>) -> Holding {
            var result = Holding.onlyValues
            for type in types {
                result = max(result, holding(type, visiting: &visiting))
                if result == .references { break }
            }
            return result
        }
        /// What a struct's stored members hold; `nil` for another type, or fields that cannot be read.
        func ofStoredMembers(_ type: Any.Type) -> Holding? {
            guard RuntimeMetadata.kind(of: type) == .structure, let fields = storedFields(of: type) else { return nil }
            return most(fields.lazy.map { $0.shape.type }, visiting: &visiting)
        }
        switch of(type).kind {
        case .custom(let row):
            return most(row.textFormInner, visiting: &visiting)
        case .form(let form):
            if let inner = form.inner { return holding(inner, visiting: &visiting) }
            // NB: a set algebra (`IndexSet`, an option set) is a value. Another form with no inner
            // type (a custom mirror) holds what its stored members hold: the mirror says how it
            // prints, the stored layout what a copy shares.
            if form.rule == .setAlgebra { return .onlyValues }
            return ofStoredMembers(type) ?? .references
        case .fields(let fields):
            return most(fields.lazy.map { $0.shape.type }, visiting: &visiting)
        case .enumeration:
            guard let cases = RuntimeMetadata.enumCases(of: type) else { return .references }
            return most(cases.lazy.compactMap(\.payload), visiting: &visiting)
        case .opaque:
            // NB: a struct of storage members alone is a value when what it stores is.
            return ofStoredMembers(type) ?? .onlyValues
        case .existential:
            return .existentials
        case .object, .withoutMetadata:
            return .references
        }
    }
}
