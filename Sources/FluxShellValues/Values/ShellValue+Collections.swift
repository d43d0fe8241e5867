import FluxCore
import FluxShellJSON

extension Optional: ShellValue {
    static var textFormInner: [Any.Type] { [Wrapped.self] }

    func shellValue(_ reader: ValueReader) -> JSONValue {
        switch self {
        case .none: .null
        case .some(let wrapped): reader.read(wrapped)
        }
    }

    /// Two values: diffed as the wrapped type; a value that appears or goes: one `~` line.
    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        if case .some(let before) = value(at: old), case .some(let after) = value(at: new) {
            differ.diff(before, after, TypeShape.of(Wrapped.self), at: path)
        } else {
            differ.diffPrinted(read(at: old, differ.reader), read(at: new, differ.reader), at: path)
        }
    }

    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        value(at: pointer).flatMap { reader.read($0, at: path) }
    }

    /// `null`, or the wrapped value's form.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Wrapped? {
        if value == .null { return nil }
        return try ValueBuilder.build(Wrapped.self, from: value, at: path)
    }
}

extension ValueBuilder {
    /// The elements of an array argument, each built as `Element`.
    static func elements<Element>(_: Element.Type, from value: JSONValue, of type: Any.Type, at path: [any CodingKey])
        throws
        -> [Element]
    {
        guard case .array(let values) = value else {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: path, debugDescription: "expected an array, found \(value.kindName)"))
        }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for (index, element) in values.enumerated() {
            elements.append(try build(Element.self, from: element, at: path + [IndexKey(index)]))
        }
        return elements
    }
}

extension Collection where Index == Int {
    /// `[i]` or `.count` of an ordered collection, in place (see ``ShellValue/read(at:path:_:)``).
    func read(at path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader) -> JSONValue? {
        switch path.first {
        case .index(let index)? where index >= 0 && index < count:
            return reader.read(self[startIndex + index], at: path.dropFirst())
        case .key("count")? where path.count == 1, .entry("count")? where path.count == 1:
            return .int(count)
        default:
            return nil
        }
    }
}

extension Array: ShellValue {
    static var textFormInner: [Any.Type] { [Element.self] }

    func shellValue(_ reader: ValueReader) -> JSONValue { reader.readElements(self) }

    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        value(at: pointer).read(at: path, reader)
    }

    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        differ.diffOrdered(value(at: old), value(at: new), offset: 0, at: path)
    }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> [Element] {
        try ValueBuilder.elements(Element.self, from: value, of: Self.self, at: path)
    }
}

extension ContiguousArray: ShellValue {
    static var textFormInner: [Any.Type] { [Element.self] }

    func shellValue(_ reader: ValueReader) -> JSONValue { reader.readElements(self) }

    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        value(at: pointer).read(at: path, reader)
    }

    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        differ.diffOrdered(Array(value(at: old)), Array(value(at: new)), offset: 0, at: path)
    }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> ContiguousArray<Element> {
        ContiguousArray(try ValueBuilder.elements(Element.self, from: value, of: Self.self, at: path))
    }
}

extension ArraySlice: ShellValue {
    static var textFormInner: [Any.Type] { [Element.self] }

    func shellValue(_ reader: ValueReader) -> JSONValue { reader.readElements(self) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> ArraySlice<Element> {
        ArraySlice(try ValueBuilder.elements(Element.self, from: value, of: Self.self, at: path))
    }
}

extension ChunkedArray: ShellValue {
    static var textFormInner: [Any.Type] { [Element.self] }

    func shellValue(_ reader: ValueReader) -> JSONValue { reader.readElements(self) }

    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        value(at: pointer).read(at: path, reader)
    }

    /// The chunks both versions share are skipped without looking at their elements.
    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        let before = value(at: old)
        let after = value(at: new)
        let shared = before.sharedChunkElements(with: after)
        if shared.prefix + shared.suffix >= before.count, before.count == after.count { return }
        differ.diffOrdered(
            before.elements(in: shared.prefix..<(before.count - shared.suffix)),
            after.elements(in: shared.prefix..<(after.count - shared.suffix)), offset: shared.prefix, at: path)
    }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> ChunkedArray<Element> {
        ChunkedArray(try ValueBuilder.elements(Element.self, from: value, of: Self.self, at: path))
    }
}

extension Set: ShellValue {
    static var textFormInner: [Any.Type] { [Element.self] }

    /// Sorted (“Printed values” in the reference), never in hash order, which changes from run to run.
    func shellValue(_ reader: ValueReader) -> JSONValue {
        guard case .array(let elements) = reader.readElements(self) else { return .array([]) }
        return .array(PrintedOrder.sorted(elements))
    }

    /// As its sorted array, with one `+` or `-` line per element that appeared or disappeared.
    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        guard case .array(let before) = read(at: old, differ.reader),
            case .array(let after) = read(at: new, differ.reader)
        else { return }
        differ.diffSorted(before, after, at: path)
    }

    /// An array, in any order; an element given twice is there once, as in a set literal.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Set<Element> {
        Set(try ValueBuilder.elements(Element.self, from: value, of: Self.self, at: path))
    }
}

extension Dictionary: ShellValue {
    static var textFormInner: [Any.Type] { [Key.self, Value.self] }

    /// An object whose keys are the printed keys, sorted (“Printed values” in the reference).
    func shellValue(_ reader: ValueReader) -> JSONValue {
        var object = JSONObject(minimumCapacity: count)
        object.isKeyed = true
        for (text, key) in reader.printedKeys(keys) { object[text] = reader.read(self[key]) }
        return .object(object)
    }

    /// `["key"]` (or `.key`) by printed key; `.count` is the count, whatever the keys.
    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        guard let first = path.first, let text = first.keyText else { return nil }
        let dictionary = value(at: pointer)
        if case .key("count") = first { return path.count == 1 ? .int(dictionary.count) : nil }
        // NB: two keys may print the same (`nil` and `"null"`); then the whole printed value,
        // which settles it one way, answers instead.
        let matches = reader.printedKeys(dictionary.keys).filter { $0.text == text }
        guard matches.count <= 1 else { return nil }
        guard let match = matches.first else { return nil }
        return reader.read(dictionary[match.key]!, at: path.dropFirst())
    }

    /// Keys in both are diffed as their values' type; others appear or disappear; the lines come
    /// in the printed order of their keys, as the state prints.
    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        let before = value(at: old)
        let after = value(at: new)
        let shape = TypeShape.of(Value.self)
        let keys = Array(after.keys) + before.keys.filter { after[$0] == nil }
        for (text, key) in differ.reader.printedKeys(keys) {
            let keyPath = path.appending(.entry(text))
            switch (before[key], after[key]) {
            case (let previous?, let current?):
                let same = shape.sameValue(previous, current)
                if !same { differ.diff(previous, current, shape, at: keyPath) }
            case (nil, let current?):
                differ.entries.append(
                    DiffEntry(operation: .added, path: keyPath, old: nil, new: differ.reader.read(current)))
            case (let previous?, nil):
                differ.entries.append(
                    DiffEntry(operation: .removed, path: keyPath, old: differ.reader.read(previous), new: nil))
            case (nil, nil):
                break
            }
        }
    }

    /// An object; each key read as the key type's printed form (`"7"` is the key `7`).
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> [Key: Value] {
        var result: [Key: Value] = [:]
        for (key, member) in try ValueBuilder.members(Key.self, Value.self, from: value, of: Self.self, at: path) {
            result[key] = member
        }
        return result
    }
}

extension ValueBuilder {
    /// The members of an object argument, each key built as `Key` from its text and each value
    /// as `Value`, in the object's order.
    static func members<Key: Hashable, Value>(
        _: Key.Type, _: Value.Type, from value: JSONValue, of type: Any.Type, at path: [any CodingKey]
    ) throws -> [(Key, Value)] {
        guard case .object(let object) = value else {
            throw DecodingError.typeMismatch(
                type, .init(codingPath: path, debugDescription: "expected an object, found \(value.kindName)"))
        }
        var members: [(Key, Value)] = []
        members.reserveCapacity(object.count)
        for (text, member) in object.members {
            let memberPath = path + [MemberKey(text)]
            members.append(
                (try key(Key.self, from: text, at: memberPath), try build(Value.self, from: member, at: memberPath)))
        }
        return members
    }

    /// A dictionary key from its text in an object: a `String` as it is; any other type from the
    /// text read as a value (`7`, `true`), else as a string (a UUID, a case name).
    static func key<Key>(_: Key.Type, from text: String, at path: [any CodingKey]) throws -> Key {
        if let string = text as? Key { return string }
        if let literal = try? JSONParser.parse(text), let key = try? build(Key.self, from: literal, at: path) {
            return key
        }
        return try build(Key.self, from: .string(text), at: path)
    }
}

extension ValueReader {
    /// The keys of a dictionary as the strings its object form uses, in printed order: a `String`
    /// as it is, anything else as its printed form (`7` → `"7"`, a UUID's string, a case name).
    func printedKeys<Key>(_ keys: some Sequence<Key>) -> [(text: String, key: Key)] {
        var entries: [(value: JSONValue, text: String, key: Key)] = []
        for key in keys {
            let value = read(key)
            let text: String
            if case .string(let string) = value { text = string } else { text = JSONText.compact(value) }
            entries.append((value, text, key))
        }
        entries.sort { PrintedOrder.precedes($0.value, $0.text, $1.value, $1.text) }
        return entries.map { ($0.text, $0.key) }
    }
}

/// The order of a set's elements and a dictionary's keys (“Printed values” in the reference):
/// numbers by value, first; everything else by printed text, byte by byte.
enum PrintedOrder {
    static func sorted(_ values: [JSONValue]) -> [JSONValue] {
        values.map { ($0, JSONText.compact($0)) }
            .sorted { precedes($0.0, $0.1, $1.0, $1.1) }
            .map(\.0)
    }

    /// Entries keyed by printed values, in printed order, each key as the string an object uses.
    static func sortedKeys(_ entries: [(key: JSONValue, value: JSONValue)]) -> [(text: String, value: JSONValue)] {
        entries.map { entry -> (key: JSONValue, text: String, value: JSONValue) in
            if case .string(let string) = entry.key { return (entry.key, string, entry.value) }
            return (entry.key, JSONText.compact(entry.key), entry.value)
        }
        .sorted { precedes($0.key, $0.text, $1.key, $1.text) }
        .map { ($0.text, $0.value) }
    }

    static func precedes(_ a: JSONValue, _ aText: String, _ b: JSONValue, _ bText: String) -> Bool {
        // NB: numbers exactly (`NumberOrder`): beyond 2^53, distinct ones can be the same `Double`.
        if let order = NumberOrder.compare(a, b) {
            return order < 0 || (order == 0 && aText.utf8.lexicographicallyPrecedes(bText.utf8))
        }
        // NB: two strings by their own bytes, as dictionary keys are, not by their quoted text
        // (which would put `"a"` after `"a b"`, the quote being above the space).
        if case .string(let x) = a, case .string(let y) = b { return x.utf8.lexicographicallyPrecedes(y.utf8) }
        // Numbers first; anything else by printed text.
        switch (a.numberValue != nil, b.numberValue != nil) {
        case (true, false): return true
        case (false, true): return false
        default: return aText.utf8.lexicographicallyPrecedes(bText.utf8)
        }
    }
}
