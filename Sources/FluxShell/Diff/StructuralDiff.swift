import FluxCore

/// The diff of two typed states, without encoding what did not change.
///
/// Walks both values together: equal `Equatable` values are skipped (arrays and strings compare
/// their storage first, so an untouched array costs O(1)); structs are compared property by
/// property; a ``ChunkedArray`` compares only the chunks the two versions do not share; only
/// what differs is encoded to JSON and diffed there (``StateDiff``).
enum StructuralDiff {
    static func entries<T: Encodable>(from old: T, to new: T) -> [DiffEntry] {
        var entries: [DiffEntry] = []
        diff(old, new, at: ValuePath(), depth: 0, into: &entries)
        return entries
    }

    /// Beyond this depth, values are encoded and diffed as JSON (which is bounded itself).
    static let maximumDepth = 64

    static func diff(
        _ old: any Encodable, _ new: any Encodable, at path: ValuePath, depth: Int, into entries: inout [DiffEntry]
    ) {
        // NB: structs are walked member by member (each member is checked for equality there);
        // comparing a whole struct first would compare its changed members twice.
        if let structural = old as? any StructurallyDiffable,
            let found = structural.structuralEntries(to: new, at: path, depth: depth)
        {
            entries += found
            return
        }
        if depth < maximumDepth, case .keyed(let before) = ShallowEncoding.encode(old),
            case .keyed(let after) = ShallowEncoding.encode(new)
        {
            diffMembers(before, after, at: path, depth: depth, into: &entries)
            return
        }
        if let equal = EquatableComparison.equal(old, new), equal { return }
        guard let oldJSON = try? JSONValueEncoder().encode(old), let newJSON = try? JSONValueEncoder().encode(new)
        else { return }
        StateDiff.diff(oldJSON, newJSON, at: path, into: &entries)
    }

    static func diffMembers(
        _ old: [(String, ShallowEncoding.Child)], _ new: [(String, ShallowEncoding.Child)], at path: ValuePath,
        depth: Int, into entries: inout [DiffEntry]
    ) {
        // NB: the usual case, the same keys in the same order, takes one pass that copies each
        // member once; should a key differ, what it found is dropped and the general case runs.
        if old.count == new.count {
            let start = entries.count
            var sameKeys = true
            for (before, after) in zip(old, new) {
                guard before.0 == after.0 else {
                    sameKeys = false
                    break
                }
                diffChild(before.1, after.1, at: path, key: after.0, depth: depth, into: &entries)
            }
            if sameKeys { return }
            entries.removeSubrange(start...)
        }
        for (key, child) in new {
            if let previous = old.first(where: { $0.0 == key }) {
                diffChild(previous.1, child, at: path, key: key, depth: depth, into: &entries)
            } else if let value = child.json {
                entries.append(DiffEntry(operation: .added, path: path.appending(.key(key)), old: nil, new: value))
            }
        }
        for (key, child) in old where !new.contains(where: { $0.0 == key }) {
            if let value = child.json {
                entries.append(DiffEntry(operation: .removed, path: path.appending(.key(key)), old: value, new: nil))
            }
        }
    }

    /// The diff of the member `key` of the value at `path`.
    ///
    /// NB: the member's path is built only when something differs; most members are unchanged.
    private static func diffChild(
        _ old: ShallowEncoding.Child, _ new: ShallowEncoding.Child, at parent: ValuePath, key: String, depth: Int,
        into entries: inout [DiffEntry]
    ) {
        switch (old, new) {
        case (.json(let a), .json(let b)):
            if a != b { StateDiff.diff(a, b, at: parent.appending(.key(key)), into: &entries) }
        case (.value(let a), .value(let b)):
            diff(a.value, b.value, at: parent.appending(.key(key)), depth: depth + 1, into: &entries)
        default:
            if let a = old.json, let b = new.json { StateDiff.diff(a, b, at: parent.appending(.key(key)), into: &entries) }
        }
    }
}

/// One store's steps: the diff from each recorded state to the next.
///
/// Keeps the last recorded state's shallow form, so each step encodes one state, not two, and
/// one encoder, reused for every step, as is the member list of the form before last.
@usableFromInline
final class StepDiffer {
    private let encoder = ShallowEncoder()
    @exclusivity(unchecked) private var lastForm: ShallowEncoding.Form?
    @exclusivity(unchecked) private var spare: [(String, ShallowEncoding.Child)] = []

    @usableFromInline init() {}

    /// The diff from `old` (the last recorded state) to `new`, which becomes the recorded one.
    @usableFromInline
    func step<T: Encodable>(from old: T, to new: T) -> [DiffEntry] {
        var storage: [(String, ShallowEncoding.Child)] = []
        swap(&storage, &spare)
        let newForm = encoder.encode(new, reusing: storage)
        defer { lastForm = newForm }
        guard case .keyed(let after) = newForm, case .keyed(let before) = lastForm ?? encoder.encode(old) else {
            return StructuralDiff.entries(from: old, to: new)
        }
        var entries: [DiffEntry] = []
        StructuralDiff.diffMembers(before, after, at: ValuePath(), depth: 0, into: &entries)
        spare = before
        return entries
    }
}

/// `==` between two values of unknown type, when they are of one `Equatable` type.
enum EquatableComparison {
    static func equal(_ lhs: Any, _ rhs: Any) -> Bool? {
        guard let lhs = lhs as? any Equatable else { return nil }
        return lhs.isEqual(to: rhs)
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool? {
        guard let other = other as? Self else { return nil }
        return self == other
    }
}

/// A type that finds its own changes faster than element by element.
protocol StructurallyDiffable {
    /// The entries from `self` to `new`, or `nil` to let the generic walk do it.
    func structuralEntries(to new: Any, at path: ValuePath, depth: Int) -> [DiffEntry]?
}

extension ChunkedArray: StructurallyDiffable where Element: Encodable & Equatable {
    func structuralEntries(to new: Any, at path: ValuePath, depth: Int) -> [DiffEntry]? {
        guard let new = new as? ChunkedArray<Element> else { return nil }
        let (prefix, suffix) = commonPrefixAndSuffix(with: new)
        if prefix + suffix >= count, count == new.count { return [] }
        var entries: [DiffEntry] = []
        if count - suffix - prefix == 1, new.count - suffix - prefix == 1 {
            // NB: one element changed in place (a todo toggled): the edit script would pair its
            // removal with its insertion and diff the two, so diff them as typed values at once.
            StructuralDiff.diff(
                self[prefix], new[prefix], at: path.appending(.index(prefix)), depth: depth + 1, into: &entries)
            return entries
        }
        let encoder = JSONValueEncoder()
        guard case .array(let before)? = try? encoder.encode(elements(in: prefix..<(count - suffix))),
            case .array(let after)? = try? encoder.encode(new.elements(in: prefix..<(new.count - suffix)))
        else { return nil }
        StateDiff.diffArrays(before, after, at: path, offset: prefix, into: &entries)
        return entries
    }
}

/// A nested member's value, kept for a later comparison.
final class EncodableBox {
    let value: any Encodable

    init(_ value: any Encodable) { self.value = value }
}

/// One level of a value's `Encodable` form: its members, not yet encoded further.
enum ShallowEncoding {
    enum Child {
        /// A scalar, already JSON.
        case json(JSONValue)
        /// A nested value, to be compared or encoded later.
        ///
        /// NB: boxed, so that a member list of scalars copies without existential containers.
        case value(EncodableBox)

        var json: JSONValue? {
            switch self {
            case .json(let value): value
            case .value(let box): try? JSONValueEncoder().encode(box.value)
            }
        }
    }

    enum Form {
        case keyed([(String, Child)])
        /// An array, a scalar or a dictionary: compared as JSON.
        case other
    }

    static func encode(_ value: any Encodable) -> Form { ShallowEncoder().encode(value) }
}

/// Encodes one level of a value. A store's runtime keeps one and reuses it for every step.
final class ShallowEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    // NB: used by one store's runtime, from one thread at a time: no run-time exclusivity checks.
    @exclusivity(unchecked) fileprivate var members: [(String, ShallowEncoding.Child)] = []
    @exclusivity(unchecked) fileprivate var isKeyed = true
    /// The last key type asked for, whether it is a dictionary's, and its container: a state
    /// asks for the same one every step, and making one looks up type metadata at run time.
    private var cache: (keyType: ObjectIdentifier, isDictionary: Bool, container: AnyObject)?

    /// Encodes one level of `value`, into `storage`'s buffer when it is not shared.
    func encode(_ value: any Encodable, reusing storage: [(String, ShallowEncoding.Child)] = []) -> ShallowEncoding.Form {
        members = storage
        members.removeAll(keepingCapacity: true)
        isKeyed = true
        defer { members = [] }
        do {
            try value.encode(to: self)
        } catch {
            return .other
        }
        return isKeyed ? .keyed(members) : .other
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // NB: `KeyedEncodingContainer` holds one reference (its box), whatever `Key` is; the size
        // check keeps the cache off should that ever change.
        let canCache = MemoryLayout<KeyedEncodingContainer<Key>>.size == MemoryLayout<AnyObject>.size
        if canCache, let cache, cache.keyType == ObjectIdentifier(type) {
            if cache.isDictionary { isKeyed = false }
            return unsafeBitCast(cache.container, to: KeyedEncodingContainer<Key>.self)
        }
        let isDictionary = Key.isDictionaryKey
        if isDictionary { isKeyed = false }
        let container = KeyedEncodingContainer(ShallowKeyed<Key>(encoder: self))
        if canCache {
            cache = (ObjectIdentifier(type), isDictionary, unsafeBitCast(container, to: AnyObject.self))
        }
        return container
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        isKeyed = false
        return ValueEncoder(codingPath: []).unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        isKeyed = false
        return ValueEncoder(codingPath: []).singleValueContainer()
    }
}

private struct ShallowKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol, NilAsNull {
    /// NB: unowned, as the encoder caches this container.
    unowned let encoder: ShallowEncoder
    var codingPath: [any CodingKey] { [] }

    private func put(_ value: JSONValue, _ key: Key) { encoder.members.append((key.stringValue, .json(value))) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(value), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let special = ValueEncoder.specialValue(value) {
            put(special, key)
        } else {
            encoder.members.append((key.stringValue, .value(EncodableBox(value))))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        // NB: hand-written nested containers are rare in states: compare that state as JSON.
        encoder.isKeyed = false
        return ValueEncoder(codingPath: []).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.isKeyed = false
        return ValueEncoder(codingPath: []).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.isKeyed = false
        return ValueEncoder(codingPath: [])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.isKeyed = false
        return ValueEncoder(codingPath: [])
    }
}
