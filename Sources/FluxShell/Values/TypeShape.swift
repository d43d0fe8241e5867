@_spi(Reflection) import Swift
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the shell reads and compares the values of one Swift type (SPEC §4): worked out once per
/// type from the runtime's metadata, then reused for every value of that type.
///
/// A struct or tuple is a list of stored properties at their offsets, so a member is read or
/// compared in place, without `Mirror` boxing every member into an `Any`; enums and class
/// instances, whose layout the runtime does not describe the same way, go through `Mirror`.
@usableFromInline
final class TypeShape: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: every property is a `let` set in `init`, and the closures
    // it holds capture nothing mutable.

    enum Kind {
        /// A type with its own printed form: numbers, strings, dates, collections, `Optional`.
        case custom(any ShellValue.Type)
        /// A struct or a tuple: its stored properties, in declaration order.
        case fields([Field])
        /// An enum: its case, and its payload as an object (read through `Mirror`).
        case enumeration
        /// A class instance: its stored properties, superclass first, guarding against cycles.
        case object
        /// An existential (`Any`, `any P`): read as the value it holds.
        case existential
        /// An error, a closure, a metatype, a struct with no stored properties: its description.
        case opaque
    }

    struct Field {
        /// The Swift property name (a tuple's label, or `_0`, `_1`, …).
        let name: String
        let offset: Int
        let shape: TypeShape
    }

    let type: Any.Type
    let kind: Kind
    /// Bytes a value occupies, for comparing two values bit for bit.
    let size: Int
    /// Whether equal bits are the only way to be equal (no references: `Int`, `Bool`, a struct of them).
    let isBitwise: Bool
    /// `==` when the type is `Equatable`.
    let equal: (@Sendable (UnsafeRawPointer, UnsafeRawPointer) -> Bool)?
    /// A copy of the value at a pointer, as `Any` (for `Mirror` and descriptions).
    let load: @Sendable (UnsafeRawPointer) -> Any

    private init(
        type: Any.Type, kind: Kind, size: Int, isBitwise: Bool,
        equal: (@Sendable (UnsafeRawPointer, UnsafeRawPointer) -> Bool)?, load: @escaping @Sendable (UnsafeRawPointer) -> Any
    ) {
        self.type = type
        self.kind = kind
        self.size = size
        self.isBitwise = isBitwise
        self.equal = equal
        self.load = load
    }

    /// The shape of `type`, from a process-wide cache.
    static func of(_ type: Any.Type) -> TypeShape {
        let key = ObjectIdentifier(type)
        if let shape = cache.withLock({ $0[key] }) { return shape }
        // NB: made outside the lock, as a struct's shape asks for its members' shapes; two threads
        // may make the same shape at once, and either result is the same.
        let shape = make(type)
        cache.withLock { $0[key] = shape }
        return shape
    }

    private static let cache = Mutex<[ObjectIdentifier: TypeShape]>([:])

    /// Whether the values at `a` and `b` are certainly the same (equal bits, or `==`); `false`
    /// means they may differ.
    ///
    /// NB: equal bits mean an equal value for every type: unchanged members of a copied struct
    /// keep their bits (a string or an array shares its storage), so this answers most
    /// comparisons without calling `==`.
    func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        if a == b || memcmp(a, b, size) == 0 { return true }
        if isBitwise { return false }
        return equal?(a, b) ?? false
    }

    private static func make(_ type: Any.Type) -> TypeShape {
        func build<T>(_: T.Type) -> TypeShape {
            TypeShape(
                type: T.self, kind: kind(of: T.self), size: MemoryLayout<T>.size, isBitwise: _isPOD(T.self),
                equal: equality(of: T.self),
                load: { $0.assumingMemoryBound(to: T.self).pointee })
        }
        return _openExistential(type, do: build)
    }

    private static func kind(of type: Any.Type) -> Kind {
        if let custom = type as? any ShellValue.Type { return .custom(custom) }
        if type is any Error.Type { return .opaque }
        switch RuntimeMetadata.kind(of: type) {
        case .structure, .tuple:
            let fields = storedFields(of: type)
            return fields.isEmpty ? .opaque : .fields(fields)
        case .enumeration: return .enumeration
        case .classInstance: return .object
        case .existential: return .existential
        case .other: return .opaque
        }
    }

    /// The stored properties of a struct or tuple, with their offsets.
    private static func storedFields(of type: Any.Type) -> [Field] {
        var fields: [Field] = []
        let complete = _forEachField(of: type) { name, offset, fieldType, _ in
            var text = String(cString: name)
            // NB: an unlabeled tuple element is named `.0`; the shell (as Codable) says `_0`.
            if text.hasPrefix(".") { text = "_" + text.dropFirst() }
            if text.isEmpty { text = "_\(fields.count)" }
            fields.append(Field(name: text, offset: offset, shape: TypeShape.of(fieldType)))
            return true
        }
        return complete ? fields : []
    }

    private static func equality<T>(of type: T.Type) -> (@Sendable (UnsafeRawPointer, UnsafeRawPointer) -> Bool)? {
        guard let equatable = type as? any Equatable.Type else { return nil }
        func compare<E: Equatable>(_: E.Type) -> @Sendable (UnsafeRawPointer, UnsafeRawPointer) -> Bool {
            { $0.assumingMemoryBound(to: E.self).pointee == $1.assumingMemoryBound(to: E.self).pointee }
        }
        return compare(equatable)
    }
}

/// What the Swift runtime says a type is.
///
/// NB: `swift_getMetadataKind` is part of the Swift runtime's stable ABI (the standard library's
/// own reflection calls it); its values are fixed by the ABI's `MetadataKind`. Any value not
/// listed reads as `.other`, which the shell prints by description.
enum RuntimeMetadata {
    enum Kind {
        case structure, tuple, enumeration, classInstance, existential, other
    }

    static func kind(of type: Any.Type) -> Kind {
        switch metadataKind(type) {
        case 0: .classInstance
        case 0x200: .structure
        case 0x201, 0x202: .enumeration
        case 0x301: .tuple
        case 0x303: .existential
        default: .other
        }
    }

    /// The name of the case `value` holds, as declared; `nil` when it is not an enum.
    static func caseName<T>(ofTyped value: T) -> String? {
        guard kind(of: T.self) == .enumeration else { return nil }
        return enumCaseName(value).map { String(cString: $0) }
    }
}

@_silgen_name("swift_getMetadataKind")
private func metadataKind(_ type: Any.Type) -> UInt

@_silgen_name("swift_EnumCaseName")
private func enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
