import FluxShellJSON
import FluxShellSystem
@_spi(Reflection) import Swift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the shell reads and compares the values of one Swift type (“Printed values” in the
/// reference): worked out once per type from the runtime's metadata, then reused for every value of
/// that type.
///
/// A struct or tuple is a list of stored properties at their offsets, so a member is read or
/// compared in place, without `Mirror` boxing every member into an `Any`; enums and class
/// instances, whose layout the runtime does not describe the same way, go through `Mirror`.
@usableFromInline
package final class TypeShape: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: every property is a `let` set in `init`, and the closures
    // it holds capture nothing mutable. Unchecked because those closures capture metatypes of an
    // app's types (`T.self` for any `T`), which the compiler cannot prove `Sendable`.

    enum Kind {
        /// A type with its own printed form: numbers, strings, dates, collections, `Optional`.
        case custom(any ShellValue.Type)
        /// A type that prints through a protocol it conforms to: a set algebra, a custom mirror,
        /// a raw value, a collection (“Printed values”, rules 1, 3, 4 and 5 in the reference).
        case form(ValueForm)
        /// A struct or a tuple: its stored properties, in declaration order.
        case fields([Field])
        /// An enum: its case, and its payload as an object (read through `Mirror`). The tags of
        /// its cases without payload, by name, make such a case from its name.
        case enumeration(tagsOfEmptyCases: [String: Int])
        /// A class instance: its stored properties, superclass first, guarding against cycles.
        case object
        /// An existential (`Any`, `any P`): read as the value it holds.
        case existential
        /// An error, a closure, a metatype, a key path, a struct with no stored properties or only
        /// storage members (`_`-named): its description.
        case opaque
        /// A struct or tuple whose stored properties the runtime cannot list: its module was built
        /// without reflection metadata (`-disable-reflection-metadata`).
        case withoutMetadata
    }

    struct Field {
        /// The Swift property name (a tuple's label, or `_0`, `_1`, …).
        let name: String
        let offset: Int
        let shape: TypeShape
    }

    package let type: Any.Type
    let kind: Kind
    /// Bytes a value occupies, for comparing two values bit for bit.
    let size: Int
    /// Whether equal bits are the only way to be equal (no references: `Int`, `Bool`, a struct of them).
    package let isBitwise: Bool
    /// `==` when the type is `Equatable` (for text, equal bytes: see ``textEqual``).
    let equal: ((UnsafeRawPointer, UnsafeRawPointer) -> Bool)?
    /// Equal bytes, for a `String`, `Substring` or `Character`: the one comparison besides equal
    /// bits that tells a diff two values print alike.
    ///
    /// NB: a type's own `==` is not asked: it may take two values as equal that print differently
    /// (Unicode's canonical equivalence, `"é"` and `"e\u{301}"`; an `==` that compares ids), and
    /// the diff must show every change of what prints. Unequal bits are a changed value almost
    /// every time, where `==` would be a walk wasted before the diff's own.
    private let textEqual: ((UnsafeRawPointer, UnsafeRawPointer) -> Bool)?
    /// A copy of the value at a pointer, as `Any` (for `Mirror` and descriptions).
    let loadRaw: @Sendable (UnsafeRawPointer) -> Any
    /// Initializes the uninitialized memory of a slot of this type to the value whose printed form
    /// is given (``ValueBuilder``); on a failure, the memory is left uninitialized.
    let initialize: (ValueSlot, JSONValue, [any CodingKey]) throws -> Void
    /// Destroys the value in a slot, leaving the memory uninitialized.
    let destroy: (ValueSlot) -> Void
    /// Whether this is an `Optional`, which a member or argument left out makes `nil`.
    let isOptional: Bool

    /// Whether a value is a class reference (or an `Optional` of one), which a struct may hold
    /// `weak` or `unowned`.
    var holdsReference: Bool {
        let wrapped = RuntimeMetadata.wrappedType(ofOptional: type) ?? type
        return RuntimeMetadata.kind(of: wrapped) == .classInstance || wrapped is AnyObject.Type
    }

    private init<T>(_ type: T.Type) {
        self.type = T.self
        self.kind = Self.kind(of: T.self)
        self.size = MemoryLayout<T>.size
        self.isBitwise = _isPOD(T.self)
        self.textEqual = Self.textEquality(of: T.self)
        self.equal = textEqual ?? Self.equality(of: T.self)
        // NB: every address handed to these closures is of a `T`: one lent by `ValueAddress.of`
        // (or `withUnsafePointer(to:)` here) on a `T`, or a base plus the offset the runtime gives
        // for a member of type `T` in memory allocated as its struct, tuple or enum payload
        // (``ValueBuilder``, ``ActionCases/build(_:_:into:)``).
        // `initialize` is only given uninitialized memory and `destroy` only memory it filled.
        self.loadRaw = { $0.assumingMemoryBound(to: T.self).pointee }
        self.initialize = { destination, value, path in
            destination.initialize(to: try ValueBuilder.build(T.self, from: value, at: path))
        }
        self.destroy = { $0.deinitialize(as: T.self) }
        self.isOptional = RuntimeMetadata.wrappedType(ofOptional: T.self) != nil
    }

    /// The shape of `type`, from a process-wide cache.
    package static func of(_ type: Any.Type) -> TypeShape {
        let key = ObjectIdentifier(type)
        if let shape = cache.withLock({ $0[key] }) { return shape }
        // NB: made outside the lock, as a struct's shape asks for its members' shapes; two threads
        // may make the same shape at once, and either result is the same.
        let shape = make(type)
        cache.withLock { $0[key] = shape }
        return shape
    }

    private static let cache = LockedValue<[ObjectIdentifier: TypeShape]>([:])

    /// The case called `name`, when this is an enum with such a case without payload (`idle`,
    /// or `hardcover` whose raw value is `2`), which “Printed values” in the reference accepts
    /// beside the printed form.
    func emptyCase<T>(named name: String, as _: T.Type) -> T? {
        guard case .enumeration(let tags) = kind, let tag = tags[name] else { return nil }
        // NB: a case without payload is its tag alone: the tag injected into memory of the
        // enum's own type makes the whole value, which is then moved out.
        return ValueSlot.build(T.self) { RuntimeMetadata.injectTag(tag, into: $0, of: T.self) }.value
    }

    /// Whether the values at `a` and `b` are certainly the same (equal bits, or equal bytes of
    /// text); `false` means they may differ.
    ///
    /// NB: equal bits mean an equal value for every type: unchanged members of a copied struct
    /// keep their bits (a string or an array shares its storage), so this answers most
    /// comparisons without reading either value.
    ///
    /// NB: named apart from ``same(_:_:)``: an overload generic over the values would take the
    /// pointers given there as values and compare their bits.
    package func sameValue<T>(_ a: T, _ b: T) -> Bool {
        assert(!(a is ValueAddress), "an address compared as a value: call same(_:_:)")
        return withUnsafePointer(to: a) { a in
            withUnsafePointer(to: b) { b in sameRaw(UnsafeRawPointer(a), UnsafeRawPointer(b)) }
        }
    }

    /// `a == b` when the type is `Equatable` (text: equal bytes), else `nil`.
    package func equalValue<T>(_ a: T, _ b: T) -> Bool? {
        guard let equal else { return nil }
        // NB: the addresses of two `T`s, lent for the call only, as in ``sameValue(_:_:)``.
        return withUnsafePointer(to: a) { a in withUnsafePointer(to: b) { b in equal(a, b) } }
    }

    /// The value at `address`, of this shape's type, as an `Any`.
    func load(_ address: ValueAddress) -> Any { loadRaw(address.raw) }

    /// Whether the values at two addresses of this shape's type are certainly the same.
    @inline(__always)
    func same(_ a: ValueAddress, _ b: ValueAddress) -> Bool { sameRaw(a.raw, b.raw) }

    /// The same, at raw addresses.
    ///
    /// NB: private and named apart: an array, a string or an `&x` converts to a raw pointer
    /// implicitly, and would be compared as memory.
    private func sameRaw(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        // NB: one or two words (an `Int`, a reference, a `String`) are compared as words, without
        // a call to `memcmp`: a 22-member state compares 22 members per line.
        switch size {
        case 8:
            if a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self) { return true }
        case 16:
            if a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self),
                a.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            {
                return true
            }
        default:
            if a == b || memcmp(a, b, size) == 0 { return true }
        }
        if isBitwise { return false }
        if let textEqual { return textEqual(a, b) }
        // NB: a struct copied member by member (an array's elements when its buffer is copied)
        // keeps its members' bits but not the padding between them: compared member by member.
        if case .fields(let fields) = kind {
            return fields.allSatisfy { $0.shape.sameRaw(a + $0.offset, b + $0.offset) }
        }
        return false
    }

    private static func make(_ type: Any.Type) -> TypeShape {
        func build<T>(_: T.Type) -> TypeShape { TypeShape(T.self) }
        return _openExistential(type, do: build)
    }

    /// The first rule of “Printed values” in the reference that applies to `type`.
    private static func kind<T>(of type: T.Type) -> Kind {
        // Rule 1: the table's own types.
        if let custom = type as? any ShellValue.Type { return .custom(custom) }
        if type is any Error.Type || type is AnyKeyPath.Type { return .opaque }
        if let form = ValueForm.setAlgebra(type) { return .form(form) }
        let metadataKind = RuntimeMetadata.kind(of: type)
        // Rule 2: an existential prints as the value it holds.
        if metadataKind == .existential { return .existential }
        // Rule 3: a custom mirror.
        if let form = ValueForm.mirror(type) { return .form(form) }
        switch metadataKind {
        case .structure, .tuple:
            // Rule 4: a raw value.
            if metadataKind == .structure, let form = ValueForm.rawValue(type) { return .form(form) }
            // NB: without reflection metadata the runtime lists no stored properties at all, as
            // for an empty struct; but a struct that holds bytes has some.
            guard let fields = storedFields(of: type), !(fields.isEmpty && MemoryLayout<T>.size > 0) else {
                return .withoutMetadata
            }
            // Rule 5: a collection.
            if metadataKind == .structure, let form = ValueForm.collection(type, fields: fields) { return .form(form) }
            // Rule 6: stored properties, unless there are none or all are storage.
            if fields.isEmpty || (metadataKind == .structure && fields.allSatisfy({ $0.name.hasPrefix("_") })) {
                return .opaque
            }
            return .fields(fields)
        case .enumeration:
            var tags: [String: Int] = [:]
            for (tag, enumCase) in (RuntimeMetadata.enumCases(of: type) ?? []).enumerated()
            where enumCase.payload == nil {
                tags[enumCase.name] = tag
            }
            return .enumeration(tagsOfEmptyCases: tags)
        case .classInstance:
            if let form = ValueForm.rawValue(type) { return .form(form) }
            return .object
        case .existential: return .existential
        case .other: return .opaque
        }
    }

    /// The stored properties of a struct or tuple, with their offsets; `nil` when the runtime
    /// cannot list them.
    static func storedFields(of type: Any.Type) -> [Field]? {
        var fields: [Field] = []
        let complete = _forEachField(of: type) { name, offset, fieldType, _ in
            var text = String(cString: name)
            // NB: an unlabeled tuple element is named `.0`; the shell (as Codable) says `_0`.
            if text.hasPrefix(".") { text = "_" + text.dropFirst() }
            if text.isEmpty { text = "_\(fields.count)" }
            fields.append(Field(name: text, offset: offset, shape: TypeShape.of(fieldType)))
            return true
        }
        return complete ? fields : nil
    }

    /// NB: each closure is made for `T` only when `T` is that text type, and is handed
    /// addresses of `T`s only, as the initializer's closures are.
    private static func textEquality<T>(of type: T.Type) -> ((UnsafeRawPointer, UnsafeRawPointer) -> Bool)? {
        func text<Text>(_: Text.Type, _ string: @escaping (Text) -> String) -> (UnsafeRawPointer, UnsafeRawPointer) ->
            Bool
        {
            {
                Bytes.equal(
                    string($0.assumingMemoryBound(to: Text.self).pointee),
                    string($1.assumingMemoryBound(to: Text.self).pointee))
            }
        }
        switch type {
        case is String.Type: return text(String.self) { $0 }
        case is Substring.Type: return text(Substring.self) { String($0) }
        case is Character.Type: return text(Character.self) { String($0) }
        default: return nil
        }
    }

    private static func equality<T>(of type: T.Type) -> ((UnsafeRawPointer, UnsafeRawPointer) -> Bool)? {
        guard let equatable = type as? any Equatable.Type else { return nil }
        func compare<E: Equatable>(_: E.Type) -> (UnsafeRawPointer, UnsafeRawPointer) -> Bool {
            { $0.assumingMemoryBound(to: E.self).pointee == $1.assumingMemoryBound(to: E.self).pointee }
        }
        return compare(equatable)
    }
}
