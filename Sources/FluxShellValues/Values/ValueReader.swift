import FluxShellJSON

/// Reads any Swift value as the shell prints it (“Printed values” in the reference): a
/// ``JSONValue`` whose object keys are the Swift property names in declaration order (never
/// `CodingKeys`), the same in every run.
///
/// ```swift
/// ValueReader.read(Status.loading(since: Date(timeIntervalSince1970: 0)))
/// ```
/// ```text
/// {"loading":{"since":"1970-01-01T00:00:00Z"}}
/// ```
///
/// Structs and tuples are read through their shape (``TypeShape``); enums and class instances
/// through `Mirror`. Nesting deeper than ``maximumDepth`` prints `"(too deep)"`, and a class
/// instance met again inside itself prints `"(cycle)"`.
package final class ValueReader {
    /// Levels of nesting read before a value prints as `"(too deep)"`.
    public static let maximumDepth = 100

    private var depth = 0
    /// The class instances being read, outermost first.
    private var visiting: [ObjectIdentifier] = []

    public init() {}

    /// `value` as the shell prints it.
    public static func read<T>(_ value: T) -> JSONValue { ValueReader().read(value) }

    public func read<T>(_ value: T) -> JSONValue {
        // NB: the pointer lives only for the closure and is read through `T`'s own shape.
        return ValueAddress.of(value) { read(at: $0, TypeShape.of(T.self)) }
    }

    /// The value at `path` inside `value`, reading only what the path goes through (a member of
    /// a struct, an element of an array, a dictionary's value, `.count`); `nil` when the path
    /// goes where values are not walked in place (an enum's payload, a class instance), or does
    /// not exist: then ``ValuePath/lookup(in:)`` on the whole value answers, errors included.
    public func read<T>(_ value: T, at path: ArraySlice<ValuePath.Segment>) -> JSONValue? {
        // NB: as in `read(_:)`, the pointer lives only for the closure and is read through `T`'s shape.
        ValueAddress.of(value) { read(at: $0, TypeShape.of(T.self), path: path) }
    }

    func read(at pointer: ValueAddress, _ shape: TypeShape, path: ArraySlice<ValuePath.Segment>) -> JSONValue? {
        guard let segment = path.first else { return read(at: pointer, shape) }
        // NB: each level walked counts toward `maximumDepth`, as it does when the whole value is read.
        depth += 1
        defer { depth -= 1 }
        switch shape.kind {
        case .custom(let type):
            return type.read(at: pointer, path: path, self)
        case .fields(let fields):
            guard let key = segment.keyText, let field = fields.first(where: { $0.name == key }) else { return nil }
            return read(at: pointer + field.offset, field.shape, path: path.dropFirst())
        case .form, .enumeration, .object, .existential, .opaque, .withoutMetadata:
            return nil
        }
    }

    /// The value of type `shape.type` stored at `pointer`.
    func read(at pointer: ValueAddress, _ shape: TypeShape) -> JSONValue {
        guard depth < Self.maximumDepth else { return .string("(too deep)") }
        depth += 1
        defer { depth -= 1 }
        switch shape.kind {
        case .custom(let type):
            return type.read(at: pointer, self)
        case .form(let form):
            return form.read(pointer, self)
        case .fields(let fields):
            var object = JSONObject(minimumCapacity: fields.count)
            for field in fields { object.appendUnchecked(field.name, read(at: pointer + field.offset, field.shape)) }
            return .object(object)
        case .enumeration:
            return readCase(shape.load(pointer))
        case .object:
            return readObject(shape.load(pointer))
        case .existential:
            return readAny(shape.load(pointer))
        case .opaque:
            return .string(String(describing: shape.load(pointer)))
        case .withoutMetadata:
            return .string("(\(shape.type): its module was built without reflection metadata)")
        }
    }

    /// A value known only as `Any`, read as the value it holds.
    func readAny(_ value: Any) -> JSONValue {
        // NB: an `Any` may hold another existential (an `any Sendable` member loaded as `Any`),
        // which opening would give back as itself; the value is cast to its dynamic type,
        // which `type(of:)` sees through every level (“Printed values” in the reference, rule 2).
        let type = Swift.type(of: value)
        guard RuntimeMetadata.kind(of: type) != .existential else { return .string(String(describing: value)) }
        func open<T>(_: T.Type) -> JSONValue { read(value as! T) }
        return _openExistential(type, do: open)
    }

    /// What a custom mirror shows (“Printed values” in the reference, rule 3), by its display style.
    func readMirror(_ mirror: Mirror, of subject: Any) -> JSONValue {
        switch mirror.displayStyle {
        case .collection?:
            return .array(mirror.children.map { readAny($0.value) })
        case .set?:
            return .array(PrintedOrder.sorted(mirror.children.map { readAny($0.value) }))
        case .dictionary?:
            var pairs: [(key: JSONValue, value: JSONValue)] = []
            for child in mirror.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                pairs.append((readAny(pair[0].value), readAny(pair[1].value)))
            }
            var object = JSONObject(minimumCapacity: pairs.count)
            object.isKeyed = true
            for entry in PrintedOrder.sortedKeys(pairs) { object[entry.text] = entry.value }
            return .object(object)
        case .optional?:
            return mirror.children.first.map { readAny($0.value) } ?? .null
        case .enum?:
            guard let payload = mirror.children.first, let name = payload.label else {
                return .string(String(describing: subject))
            }
            return .object(JSONObject([(name, payloadObject(payload.value))]))
        default:
            // NB: a leaf's mirror (a number type's) shows nothing: its description says it.
            guard !mirror.children.isEmpty else { return .string(String(describing: subject)) }
            var object = JSONObject()
            for (index, child) in mirror.children.enumerated() {
                var label = child.label ?? "_\(index)"
                if label.hasPrefix("."), Int(label.dropFirst()) != nil { label = "_" + label.dropFirst() }
                object[label] = readAny(child.value)
            }
            return .object(object)
        }
    }

    /// A case's payload as an object: a tuple's members, or one value as `_0`.
    private func payloadObject(_ payload: Any) -> JSONValue {
        if RuntimeMetadata.kind(of: type(of: payload)) == .tuple { return readAny(payload) }
        return .object(JSONObject([("_0", readAny(payload))]))
    }

    /// `"idle"`, a raw value, or `{"loading":{"since":…}}` as Swift's synthesized `Codable` writes it.
    private func readCase(_ value: Any) -> JSONValue {
        let mirror = Mirror(reflecting: value)
        guard let payload = mirror.children.first, let name = payload.label else {
            if let raw = value as? any RawRepresentable { return readAny(raw.rawValue) }
            return .string(RuntimeMetadata.caseName(of: value) ?? String(describing: value))
        }
        return .object(JSONObject([(name, payloadObject(payload.value))]))
    }

    /// A class instance: its stored properties, superclass first.
    private func readObject(_ value: Any) -> JSONValue {
        let id = ObjectIdentifier(value as AnyObject)
        guard !visiting.contains(id) else { return .string("(cycle)") }
        visiting.append(id)
        defer { visiting.removeLast() }
        var members = JSONObject()
        func collect(_ mirror: Mirror) {
            if let superclass = mirror.superclassMirror { collect(superclass) }
            for (index, child) in mirror.children.enumerated() {
                members[child.label ?? "_\(index)"] = readAny(child.value)
            }
        }
        collect(Mirror(reflecting: value))
        // NB: no stored properties, or only storage (`_`-named) ones: its description (rule 6).
        guard members.keys.contains(where: { !$0.hasPrefix("_") }) else { return .string(String(describing: value)) }
        return .object(members)
    }

    /// The elements of a collection, in its order.
    func readElements<C: Collection>(_ elements: C) -> JSONValue {
        let shape = TypeShape.of(C.Element.self)
        var values: [JSONValue] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            values.append(ValueAddress.of(element) { read(at: $0, shape) })
        }
        return .array(values)
    }
}

extension RuntimeMetadata {
    /// The declared name of the case an enum value (held in an `Any`) holds.
    static func caseName(of value: Any) -> String? {
        func open<T>(_ value: T) -> String? { caseName(ofTyped: value) }
        return _openExistential(value, do: open)
    }
}
