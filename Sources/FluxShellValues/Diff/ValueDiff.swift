import FluxShellJSON

/// The diff of two values of one Swift type, as the shell prints it (“Diff lines” in the
/// reference), without reading what did not change.
///
/// Walks both values together through their type shape: a struct member whose bits are
/// unchanged (or that is `==`) is skipped; a changed one is walked in turn; only what differs is
/// read as a ``JSONValue``. An enum that moves to another case is one `~` line; a `Set` is diffed
/// as its sorted array; an array by a minimal edit script, each changed element at its deepest path.
///
/// ```swift
/// ValueDiffer.entries(from: before, to: after).map(\.line)
/// ```
/// ```text
/// ~ status: "idle" -> {"loading":{"since":"2026-11-22T10:00:00Z"}}
/// + tags[0]: "new"
/// ```
@_documentation(visibility: internal)
public final class _ValueDiffer {
    /// The entries found so far, in the state's order.
    public internal(set) var entries: [DiffEntry] = []
    let reader = ValueReader()
    private var depth = 0
    /// When kept (`firstDifference`), the places whose values differ but print alike.
    private var printedAlike: [ValuePath]?

    public init() {}

    /// The diff from `old` to `new`.
    public static func entries<T>(from old: T, to new: T) -> [DiffEntry] {
        let differ = ValueDiffer()
        differ.diff(old, new, TypeShape.of(T.self), at: .root)
        return differ.entries
    }

    /// The first place where `old` and `new` differ, at its deepest: the first diff line's, else
    /// the first whose values differ but print alike (two dates in the same millisecond).
    package static func firstDifference<T>(from old: T, to new: T) -> ValuePath? {
        let differ = ValueDiffer()
        differ.printedAlike = []
        differ.diff(old, new, TypeShape.of(T.self), at: .root)
        return differ.entries.first?.path ?? differ.printedAlike?.first
    }

    /// The diff from `old` to `new`, values of `shape.type`; the differ is reused for the next one.
    ///
    /// NB: `@inlinable`, so a store's runtime takes the two values' addresses in code compiled
    /// for its state type, not in generic code that looks up the type's metadata on every step.
    @inlinable
    package func step<T>(from old: T, to new: T, _ shape: TypeShape) -> [DiffEntry] {
        ValueAddress.of(old, new) { a, b in step(a, b, shape) }
    }

    @usableFromInline
    func step(_ old: ValueAddress, _ new: ValueAddress, _ shape: TypeShape) -> [DiffEntry] {
        entries = []
        diff(old, new, shape, at: .root)
        defer { entries = [] }
        return entries
    }

    /// Adds the diff from `old` to `new`, values of `shape.type`, at `path`.
    func diff<T>(_ old: T, _ new: T, _ shape: TypeShape, at path: ValuePath) {
        // NB: both pointers live only for the closures; `shape` is `T`'s, as every caller passes.
        ValueAddress.of(old, new) { a, b in diff(a, b, shape, at: path) }
    }

    /// Adds the diff between the values of `shape.type` at `old` and `new`.
    func diff(_ old: ValueAddress, _ new: ValueAddress, _ shape: TypeShape, at path: ValuePath) {
        guard depth < ValueReader.maximumDepth else {
            return diffPrinted(reader.read(at: old, shape), reader.read(at: new, shape), at: path)
        }
        depth += 1
        defer { depth -= 1 }
        switch shape.kind {
        case .fields(let fields):
            for field in fields {
                let a = old + field.offset
                let b = new + field.offset
                // NB: the member's path is made only when it changed; most members did not.
                if !field.shape.same(a, b) { diff(a, b, field.shape, at: path.appending(.key(field.name))) }
            }
        case .custom(let type):
            type.diff(old, new, at: path, in: self)
        case .enumeration:
            diffCases(reader.read(at: old, shape), reader.read(at: new, shape), at: path)
        case .form(let form) where form.rule == .setAlgebra:
            // NB: as a `Set`: one `+` or `-` line per element, never a change of one into another.
            guard case .array(let before) = reader.read(at: old, shape),
                case .array(let after) = reader.read(at: new, shape)
            else { return }
            diffSorted(before, after, at: path)
        case .form, .object, .existential, .opaque, .withoutMetadata:
            diffPrinted(reader.read(at: old, shape), reader.read(at: new, shape), at: path)
        }
    }

    /// Two printed values: objects key by key, arrays by edit script, anything else one `~` line.
    func diffPrinted(_ old: JSONValue, _ new: JSONValue, at path: ValuePath) {
        // NB: reached only where the two values are not the same bits (or `==`).
        if printedAlike != nil, old == new { printedAlike?.append(path) }
        StateDiff.diff(old, new, at: path, into: &entries)
    }

    /// Two enum values: one `~` line when the case changed, else the payload's changes.
    func diffCases(_ old: JSONValue, _ new: JSONValue, at path: ValuePath) {
        if let before = Self.caseName(old), before == Self.caseName(new) {
            diffPrinted(old, new, at: path)
        } else if old != new {
            entries.append(DiffEntry(operation: .changed, path: path, old: old, new: new))
        }
    }

    private static func caseName(_ value: JSONValue) -> String? {
        if case .object(let object) = value, object.count == 1 { return object.keys[0] }
        return nil
    }

    /// Two ordered collections (their parts from `offset`): matching ends skipped bit by bit,
    /// the middle by a minimal edit script, each element replaced in place diffed as its type.
    func diffOrdered<Element>(_ old: [Element], _ new: [Element], offset: Int, at path: ValuePath) {
        // NB: elements are reached through the arrays' own buffers (index × stride), valid for the
        // duration of the closures below, so no element is copied to be compared.
        let shape = TypeShape.of(Element.self)
        ValueAddress.elements(of: old, new) { oldFirst, newFirst in
            let stride = MemoryLayout<Element>.stride
            guard let oldBase = oldFirst, let newBase = newFirst else {
                // One side is empty: every element of the other appeared or went.
                for (index, element) in new.enumerated() {
                    entries.append(
                        DiffEntry(
                            operation: .added, path: path.appending(.index(offset + index)), old: nil,
                            new: reader.read(element)))
                }
                for (index, element) in old.enumerated() {
                    entries.append(
                        DiffEntry(
                            operation: .removed, path: path.appending(.index(offset + index)),
                            old: reader.read(element), new: nil))
                }
                return
            }
            var prefix = 0
            while prefix < old.count, prefix < new.count,
                shape.same(oldBase + prefix * stride, newBase + prefix * stride)
            {
                prefix += 1
            }
            var suffix = 0
            while suffix < old.count - prefix, suffix < new.count - prefix,
                shape.same(oldBase + (old.count - 1 - suffix) * stride, newBase + (new.count - 1 - suffix) * stride)
            {
                suffix += 1
            }
            let oldCount = old.count - prefix - suffix
            let newCount = new.count - prefix - suffix
            if oldCount == 1, newCount == 1 {
                // NB: one element changed in place (a todo toggled): no edit script needed.
                return diff(
                    oldBase + prefix * stride, newBase + prefix * stride, shape,
                    at: path.appending(.index(offset + prefix)))
            }
            let oldValues = (prefix..<(prefix + oldCount)).map { reader.read(at: oldBase + $0 * stride, shape) }
            let newValues = (prefix..<(prefix + newCount)).map { reader.read(at: newBase + $0 * stride, shape) }
            for edit in ArrayEdit.edits(from: oldValues, to: newValues, pairsChanges: true) {
                switch edit {
                case .changed(let oldIndex, let newIndex):
                    let start = entries.count
                    let place = path.appending(.index(offset + prefix + newIndex))
                    diff(
                        oldBase + (prefix + oldIndex) * stride, newBase + (prefix + newIndex) * stride, shape, at: place
                    )
                    if oldIndex != newIndex {
                        DiffEntry.reindexRemovals(
                            &entries, from: start, depth: place.segments.count - 1, to: offset + prefix + oldIndex)
                    }
                case .removed(let index):
                    entries.append(
                        DiffEntry(
                            operation: .removed, path: path.appending(.index(offset + prefix + index)),
                            old: oldValues[index], new: nil))
                case .inserted(let index):
                    entries.append(
                        DiffEntry(
                            operation: .added, path: path.appending(.index(offset + prefix + index)), old: nil,
                            new: newValues[index]))
                }
            }
        }
    }

    /// Two sorted arrays of a set's elements: one `+` or `-` line per element, never a change.
    func diffSorted(_ old: [JSONValue], _ new: [JSONValue], at path: ValuePath) {
        for edit in ArrayEdit.edits(from: old, to: new, pairsChanges: false) {
            switch edit {
            case .removed(let index):
                entries.append(
                    DiffEntry(operation: .removed, path: path.appending(.index(index)), old: old[index], new: nil))
            case .inserted(let index):
                entries.append(
                    DiffEntry(operation: .added, path: path.appending(.index(index)), old: nil, new: new[index]))
            case .changed:
                break
            }
        }
    }
}

extension _ValueDiffer {
    /// Whether `a` and `b` have the same bits: the same references and the same plain values,
    /// what a copy of a value has. For telling a copy of a value whose type is not `Equatable`
    /// from a value made anew; values that are equal may still differ in their bits.
    ///
    /// Inlinable: a store object's runtime, compiled where the store is registered, compares the
    /// action it sent with the one its hook reported on every line.
    @inlinable
    public static func sameBits<Value>(_ a: Value, _ b: Value) -> Bool {
        // NB: each value's bytes are lent for the call only, within its size.
        withUnsafeBytes(of: a) { x in withUnsafeBytes(of: b) { y in x.elementsEqual(y) } }
    }
}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias ValueDiffer = _ValueDiffer
