import FluxShellJSON
import IdentifiedCollections

// “Printed values” in the reference, rule 3: an `IdentifiedArray` (swift-identified-collections) is
// what its mirror shows, an array of its elements; never its `OrderedDictionary` storage, whose
// hash table carries a per-process seed. Read and diffed through its elements' own array, so that a
// change to one element of a big array costs what it costs in a plain `[Element]`.

extension IdentifiedArray: ShellValue {
    static var hasOwnTextForm: Bool { ElementIdentity<ID, Element>.make() != nil }

    static var textFormInner: [Any.Type] { [Element.self] }

    func shellValue(_ reader: ValueReader) -> JSONValue { reader.readElements(elements) }

    /// `[i]`, `.count`, and `[id: X]` by the element's id, found by hashing.
    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        let array = value(at: pointer)
        if case .id(let printed)? = path.first {
            guard let id = try? ValueBuilder.build(ID.self, from: printed, at: []), let index = array.index(id: id)
            else { return nil }
            return reader.read(array[index], at: path.dropFirst())
        }
        return array.elements.read(at: path, reader)
    }

    /// As an array: an element that appears or goes is one `+` or `-` line.
    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        differ.diffOrdered(value(at: old).elements, value(at: new).elements, offset: 0, at: path)
    }

    /// An array of `Identifiable` elements with distinct ids.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> IdentifiedArray<ID, Element> {
        guard let identity = ElementIdentity<ID, Element>.make() else {
            throw NoTextForm(type: Self.self, codingPath: path)
        }
        let elements = try ValueBuilder.elements(Element.self, from: value, of: Self.self, at: path)
        var seen = Set<ID>()
        for (index, element) in elements.enumerated() where !seen.insert(element[keyPath: identity]).inserted {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path + [IndexKey(index)], debugDescription: "another element has the same id"))
        }
        return IdentifiedArray(uniqueElements: elements, id: identity)
    }
}

/// The key path of an element's `id`, when the elements are `Identifiable` by the array's `ID`
/// (an `IdentifiedArrayOf<Element>`); an array identified by another key path has no text form.
private enum ElementIdentity<ID: Hashable, Element> {
    static func make() -> KeyPath<Element, ID>? {
        guard let identifiable = Element.self as? any Identifiable.Type else { return nil }
        func path<E: Identifiable>(_: E.Type) -> AnyKeyPath { \E.id }
        return path(identifiable) as? KeyPath<Element, ID>
    }
}
