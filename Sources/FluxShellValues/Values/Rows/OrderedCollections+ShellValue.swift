import FluxShellJSON
import OrderedCollections

// “Printed values” in the reference, rule 1: swift-collections' ordered collections print in their
// own order, an `OrderedSet` as an array and an `OrderedDictionary` as an object, never as their
// storage.

extension OrderedSet: ShellValue {
    static var textFormInner: [Any.Type] { [Element.self] }

    func shellValue(_ reader: ValueReader) -> JSONValue { reader.readElements(elements) }

    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        value(at: pointer).elements.read(at: path, reader)
    }

    /// As an array: an insertion or removal is one line.
    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        differ.diffOrdered(value(at: old).elements, value(at: new).elements, offset: 0, at: path)
    }

    /// An array in order; an element given twice is there once, at its first place.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> OrderedSet<Element> {
        OrderedSet(try ValueBuilder.elements(Element.self, from: value, of: Self.self, at: path))
    }
}

extension OrderedDictionary: ShellValue {
    static var textFormInner: [Any.Type] { [Key.self, Value.self] }

    /// An object whose keys are the printed keys, in the dictionary's order.
    func shellValue(_ reader: ValueReader) -> JSONValue {
        var object = JSONObject(minimumCapacity: count)
        object.isKeyed = true
        for (key, value) in self {
            let printed = reader.read(key)
            let text: String
            if case .string(let string) = printed { text = string } else { text = JSONText.compact(printed) }
            object[text] = reader.read(value)
        }
        return .object(object)
    }

    /// An object in order; each key read as the key type's printed form.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> OrderedDictionary<Key, Value> {
        var result = OrderedDictionary<Key, Value>()
        for (key, member) in try ValueBuilder.members(Key.self, Value.self, from: value, of: Self.self, at: path) {
            result[key] = member
        }
        return result
    }
}
