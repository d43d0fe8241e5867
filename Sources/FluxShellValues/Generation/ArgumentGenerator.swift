import FluxShellJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Makes argument values for an action's parameters from their Swift types, in the printed form
/// that `dispatch` reads back (“Printed values” in the reference): edge values first (`0`, `-1`,
/// the type's limits, empty and non-ASCII strings, every enum case, `nil`, empty and one-element
/// collections, dates at the epoch and at a fixed "now"), and, most of the time, values that occur
/// in the current state (an `id:` parameter takes the ids there), so that `toggle id:` mostly hits
/// an existing todo.
package struct ArgumentGenerator {
    /// Values of the current state: every number and string, and those under each key name.
    package struct StateValues {
        var numbers: [JSONValue] = []
        var strings: [String] = []
        var byKey: [String: [JSONValue]] = [:]
        /// The counts of the state's arrays that have elements: where an index parameter points.
        var arrayCounts: [Int] = []

        init() {}

        package init(_ states: [JSONValue]) {
            for state in states { collect(state, key: nil) }
        }

        private mutating func collect(_ value: JSONValue, key: String?) {
            switch value {
            case .object(let object):
                for (name, member) in object.members { collect(member, key: name) }
                return
            case .array(let elements):
                if !elements.isEmpty { arrayCounts.append(elements.count) }
                for element in elements.prefix(200) { collect(element, key: key) }
                return
            case .int, .double, .number: numbers.append(value)
            case .string(let text): strings.append(text)
            case .bool, .null: return
            }
            if let key { byKey[key, default: []].append(value) }
        }
    }

    /// The dates the generator tries: the epoch, a fixed "now" (a clock would make runs differ),
    /// a second before it, and a leap day with milliseconds.
    static let dates = [
        "1970-01-01T00:00:00Z", "2026-11-22T10:00:00Z", "2026-11-22T09:59:59Z", "2000-02-29T12:00:00.500Z",
    ]
    static let strings = ["", "a", "é✓ü", "Buy milk", " ", "x y z", "日本"]

    package var random: SeededRandom
    package var state = StateValues()

    package init(random: SeededRandom) { self.random = random }

    /// A value for a parameter of `type` labeled `label`; `nil` when the type has no text form
    /// the generator can make (a closure, an error type of the user's own, a class). An
    /// `any Error` is a short string, the description of the error it makes.
    package mutating func value(for type: Any.Type, label: String?, depth: Int = 0) -> JSONValue? {
        if let wrapped = RuntimeMetadata.wrappedType(ofOptional: type) {
            if random.chance(20) { return .null }
            return value(for: wrapped, label: label, depth: depth) ?? .null
        }
        if let fromState = stateValue(for: type, label: label) { return fromState }
        switch type {
        case is String.Type, is Substring.Type: return .string(string())
        case is Character.Type: return .string(["a", "é", "Z", "✓"].randomElement(using: &random)!)
        case is Bool.Type: return .bool(random.chance(50))
        case is Date.Type: return .string(Self.dates.randomElement(using: &random)!)
        case is URL.Type:
            return .string(
                ["https://example.com", "https://example.com/a?b=c", "file:///tmp/x"].randomElement(using: &random)!)
        case is UUID.Type:
            return .string("00000000-0000-0000-0000-00000000000\(Int.random(in: 0..<4, using: &random))")
        case is Data.Type: return .string(["", "aGVsbG8="].randomElement(using: &random)!)
        case is Decimal.Type: return .number(["0", "1.5", "-2.25", "100"].randomElement(using: &random)!)
        case let integer as any FixedWidthInteger.Type: return self.integer(integer)
        case is Double.Type, is Float.Type: return .double([0, -1, 0.5, 1e9, -0.25].randomElement(using: &random)!)
        default: break
        }
        guard depth < 6 else { return nil }
        let shape = TypeShape.of(type)
        switch shape.kind {
        case .custom(let row):
            if let example = row.examples.randomElement(using: &random) { return example }
            // A collection of the row's one inner type (an array, a set, an identified array),
            // or a dictionary of its two.
            let inner = row.textFormInner
            if inner.count == 1 { return elements(of: inner[0], label: label, depth: depth) }
            if inner.count == 2 { return members(keys: inner[0], values: inner[1], depth: depth) }
            return nil
        case .form(let form):
            guard let inner = form.inner, form.parse != nil else { return nil }
            switch form.rule {
            // NB: a raw value keeps the parameter's label, so that an `id:` of a tagged type
            // mostly takes the ids in the state.
            case .rawValue: return value(for: inner, label: label, depth: depth + 1)
            case .setAlgebra:
                // NB: an `IndexSet` holds indexes from 0: small ones, which the state's arrays have.
                if case .array(let values)? = elements(of: inner, label: nil, depth: depth) {
                    return .array(
                        values.map { if case .int(let index) = $0 { .int(Int(index.magnitude % 8)) } else { $0 } })
                }
                return nil
            case .collection: return elements(of: inner, label: label, depth: depth)
            case .mirror: return nil
            }
        case .enumeration:
            if let cases = RuntimeMetadata.enumCases(of: type) { return enumValue(type, cases, depth: depth) }
            return nil
        case .fields(let fields):
            var object = JSONObject()
            for field in fields {
                guard let member = value(for: field.shape.type, label: field.name, depth: depth + 1) else { return nil }
                object[field.name] = member
            }
            return .object(object)
        case .opaque where DescribedError.isErrorExistential(type):
            return DescribedError.examples.randomElement(using: &random)
        case .object, .existential, .opaque, .withoutMetadata:
            return nil
        }
    }

    /// An array of none to three elements of `type`.
    private mutating func elements(of type: Any.Type, label: String?, depth: Int) -> JSONValue? {
        let count = [0, 1, 1, 2, 3].randomElement(using: &random)!
        var elements: [JSONValue] = []
        for _ in 0..<count {
            // NB: an element too deep to make (a tree of identified arrays) leaves the array empty.
            guard let element = value(for: type, label: label, depth: depth + 1) else { return .array([]) }
            elements.append(element)
        }
        return .array(elements)
    }

    /// An object of none to three members, keys of `keys` printed as object keys.
    private mutating func members(keys: Any.Type, values: Any.Type, depth: Int) -> JSONValue? {
        let count = [0, 1, 1, 2, 3].randomElement(using: &random)!
        var object = JSONObject()
        for _ in 0..<count {
            guard let key = value(for: keys, label: nil, depth: depth + 1) else { return nil }
            guard let member = value(for: values, label: nil, depth: depth + 1) else { return nil }
            object[Self.keyText(key)] = member
        }
        return .object(object)
    }

    /// A dictionary key as the printed object key: a string as it is, anything else printed.
    private static func keyText(_ key: JSONValue) -> String {
        if case .string(let text) = key { return text }
        return JSONText.compact(key)
    }

    private mutating func string() -> String {
        if random.chance(30) {
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            return String(
                (0..<Int.random(in: 1...8, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        return Self.strings.randomElement(using: &random)!
    }

    private mutating func integer(_ type: any FixedWidthInteger.Type) -> JSONValue {
        let isSigned = type.isSigned
        var edges: [JSONValue] = [.int(0), .int(1), .int(2), .int(10), .int(100)]
        if isSigned { edges += [.int(-1), .int(-100)] }
        func limit<I: FixedWidthInteger>(_: I.Type) -> [JSONValue] {
            [I.max, I.min].map { value in Int(exactly: value).map(JSONValue.int) ?? .number(String(value)) }
        }
        if random.chance(10) { return limit(type).randomElement(using: &random)! }
        if random.chance(70) { return edges.randomElement(using: &random)! }
        return .int(Int.random(in: (isSigned ? -1_000 : 0)...1_000, using: &random))
    }

    /// Most of the time, a value of the state that fits: under a key named as the parameter,
    /// else any number (for a number) or string (for a string).
    private mutating func stateValue(for type: Any.Type, label: String?) -> JSONValue? {
        let isNumber = type is any FixedWidthInteger.Type
        let isString = type is String.Type
        // NB: an index parameter (`remove(at:)`, `setQuantity(index:quantity:)`) takes an index
        // of one of the state's arrays most of the time, so that the cases that need an element
        // reach it. Only then is a random number drawn: other parameters get what they got.
        if isNumber, let label, Self.namesAnIndex(label), !state.arrayCounts.isEmpty, random.chance(80) {
            let count = state.arrayCounts.randomElement(using: &random)!
            return .int(Int.random(in: 0..<count, using: &random))
        }
        // NB: a value under the parameter's own name fits whatever its type prints as (an id
        // that is a UUID, a date): one that does not is refused, and counted so. Nine times in
        // ten for an identity, so that `toggle id:` mostly finds its todo, half the time for
        // another name; other values of the state, six in ten.
        if let label, let values = state.byKey[label], !values.isEmpty,
            !isNumber || values.contains(where: \.isNumber), random.chance(Self.namesAnIdentity(label) ? 90 : 50)
        {
            let fitting = isNumber ? values.filter(\.isNumber) : values
            return fitting.randomElement(using: &random)!
        }
        guard isNumber || isString, random.chance(60) else { return nil }
        if isNumber, !state.numbers.isEmpty {
            let number = state.numbers.randomElement(using: &random)!
            if case .int = number { return number }
            return nil
        }
        if isString, !state.strings.isEmpty { return .string(state.strings.randomElement(using: &random)!) }
        return nil
    }

    /// Whether a parameter's label names something the state holds by identity (`id:`,
    /// `todoID:`, `key:`), which must be there to be found; another (`quantity:`, `title:`) takes
    /// a value of the state only half the time, so that setting it changes something.
    static func namesAnIdentity(_ label: String) -> Bool {
        let lowered = label.lowercased()
        return lowered == "id" || lowered.hasSuffix("id") || lowered.hasSuffix("ids") || lowered == "key"
            || lowered.hasSuffix("key") || lowered == "name"
    }

    /// Whether a parameter's label says it is an index into a collection.
    static func namesAnIndex(_ label: String) -> Bool {
        let lowered = label.lowercased()
        return ["index", "at", "offset", "position", "row", "atoffset", "atoffsets"].contains(lowered)
            || lowered.hasSuffix("index") || lowered.hasSuffix("offset")
    }

    /// A case of an enum: by name or raw value for a case without payload, else the object form
    /// `{"case":{"label":value}}`.
    ///
    /// NB: an `indirect` case too (inside an argument, a value is decoded, boxes and all); the
    /// depth limit ends a recursive one, and a case that cannot be made gives way to another.
    private mutating func enumValue(_ type: Any.Type, _ cases: [RuntimeMetadata.EnumCase], depth: Int) -> JSONValue? {
        for chosen in cases.shuffled(using: &random) {
            if let value = caseValue(type, chosen, depth: depth) { return value }
        }
        return nil
    }

    private mutating func caseValue(_ type: Any.Type, _ chosen: RuntimeMetadata.EnumCase, depth: Int) -> JSONValue? {
        guard let payload = chosen.payload else {
            func printed<T>(_: T.Type) -> JSONValue? {
                EmptyCase.all(of: T.self).first { $0.name == chosen.name }?.printed
            }
            return _openExistential(type, do: printed) ?? .string(chosen.name)
        }
        var members = JSONObject()
        if RuntimeMetadata.kind(of: payload) == .tuple, case .fields(let fields) = TypeShape.of(payload).kind {
            for field in fields {
                guard let member = value(for: field.shape.type, label: field.name, depth: depth + 1) else { return nil }
                members[field.name] = member
            }
        } else {
            guard let member = value(for: payload, label: nil, depth: depth + 1) else { return nil }
            members["_0"] = member
        }
        return .object(JSONObject([(chosen.name, .object(members))]))
    }
}

extension JSONValue {
    var isNumber: Bool {
        switch self {
        case .int, .double, .number: true
        default: false
        }
    }

    var isString: Bool {
        if case .string = self { return true }
        return false
    }
}
