import FluxShellSystem

/// What the Swift runtime says about a type: its kind, an enum's cases and their payload types,
/// and how to make an enum value of a given case. Every read of the runtime's metadata lives here.
///
/// NB: this reads the stable metadata layout (ABI) of the runtime: a metadata record starts with
/// its kind; an enum's metadata holds its nominal type descriptor in its second word, and its
/// generic arguments from its third; the descriptor's fifth 32-bit field points (relatively) to
/// the field descriptor, whose records list the cases in tag order (cases with a payload first,
/// as `Mirror` names them), each with its payload's mangled type name. Anything unexpected reads
/// as "not an enum", and callers do without.
package enum RuntimeMetadata {
    package enum Kind {
        case structure, tuple, enumeration, classInstance, existential, other
    }

    /// One case of an enum, as the runtime describes it.
    struct EnumCase {
        /// The name as declared.
        let name: String
        /// The payload's type (a tuple for several values or a labeled one); `nil` without payload.
        let payload: Any.Type?
        /// `indirect`: the payload lives in a box the shell does not build.
        let isIndirect: Bool
    }

    package static func kind(of type: Any.Type) -> Kind {
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

    /// `Wrapped` for `Optional<Wrapped>`; `nil` for any other type.
    static func wrappedType(ofOptional type: Any.Type) -> Any.Type? {
        guard metadataKind(type) == 0x202 else { return nil }
        // NB: an `Optional`'s metadata holds its one generic argument in its third word.
        return unsafeBitCast(type, to: UnsafeRawPointer.self).load(
            fromByteOffset: 2 * MemoryLayout<UInt>.size, as: Any.Type.self)
    }

    /// The cases of an enum (not `Optional`) in tag order; `nil` for any other type.
    static func enumCases(of type: Any.Type) -> [EnumCase]? {
        guard metadataKind(type) == 0x201 else { return nil }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
        // TargetEnumDescriptor: flags, parent, name, access function, fields, ...
        guard let fields = relative(descriptor + 16) else { return nil }
        // FieldDescriptor: mangled type name, superclass, kind (16 bits), record size (16 bits),
        // count (32 bits), then the records.
        let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
        let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
        guard recordSize >= 12, count < 10_000 else { return nil }
        let genericArguments = metadata + 2 * MemoryLayout<UInt>.size
        var cases: [EnumCase] = []
        for index in 0..<count {
            // FieldRecord: flags (bit 0: indirect), mangled type name, field name.
            let record = fields + 16 + index * recordSize
            guard let name = relative(record + 8) else { return nil }
            var payload: Any.Type?
            if let mangled = relative(record + 4) {
                let bytes = mangled.assumingMemoryBound(to: UInt8.self)
                payload = _getTypeByMangledNameInContext(
                    bytes, UInt(mangledNameLength(bytes)), genericContext: descriptor,
                    genericArguments: genericArguments)
                guard payload != nil else { return nil }
            }
            cases.append(
                EnumCase(
                    name: String(cString: name.assumingMemoryBound(to: CChar.self)), payload: payload,
                    isIndirect: record.load(as: UInt32.self) & 1 != 0))
        }
        return cases
    }

    /// Makes the memory at `value`, which holds the payload of the case with `tag` (or nothing,
    /// for a case without payload), a value of the enum `type` with that case.
    ///
    /// NB: the enum value witness `destructiveInjectEnumTag` is the runtime's own way to do this
    /// (the compiler's generic code calls it), and it stores the tag wherever the layout keeps it
    /// (an extra byte, or spare bits of the payload). It is the fourteenth word of an enum's value
    /// witness table (eleven words every table has, then `getEnumTag` and
    /// `destructiveProjectEnumData`). Its arguments (a pointer, a 32-bit tag, the metadata) are
    /// passed in the same registers by the Swift and C calling conventions.
    static func injectTag(_ tag: Int, into value: ValueSlot, of type: Any.Type) {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let witnesses = (metadata - MemoryLayout<UInt>.size).load(as: UnsafeRawPointer.self)
        let inject = unsafeBitCast(
            witnesses.load(fromByteOffset: 13 * MemoryLayout<UInt>.size, as: UnsafeRawPointer.self),
            to: (@convention(c) (UnsafeMutableRawPointer, UInt32, UnsafeRawPointer) -> Void).self)
        inject(value.raw, UInt32(tag), metadata)
    }

    /// Makes the uninitialized memory at `value` the enum `type`'s case with `tag`:
    /// `initializePayload` writes the payload (at `value`, or, for an `indirect` case whose
    /// payload type is `boxed`, in a box of the runtime's that the enum then holds), then the tag
    /// is set. When `initializePayload` throws, having left its memory uninitialized, so is
    /// `value`, and the box is freed.
    ///
    /// NB: `swift_allocBox` is how the compiler's own code makes an `indirect` case's box; it
    /// returns the box (one strong reference, which the enum value owns once stored) and its
    /// value's memory, in the two return registers of the Swift calling convention, as a tuple
    /// does. A box whose value was never written is freed with `swift_deallocBox`, as the
    /// compiler does on a failed initialization. Checked by building `indirect` cases nested
    /// three deep and printing them back (ValueRowsTests, ActionCasesTests, the value fuzzer).
    static func initializeCase(
        _ tag: Int, of type: Any.Type, boxing boxed: Any.Type?, at value: ValueSlot,
        payload initializePayload: (ValueSlot) throws -> Void
    ) rethrows {
        if let boxed {
            let (box, payload) = allocBox(boxed)
            do {
                try initializePayload(ValueSlot(payload))
            } catch {
                deallocBox(box)
                throw error
            }
            value.raw.storeBytes(of: box, as: UnsafeMutableRawPointer.self)
        } else {
            try initializePayload(value)
        }
        injectTag(tag, into: value, of: type)
    }

    private static func relative(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = pointer.load(as: Int32.self)
        return offset == 0 ? nil : pointer + Int(offset)
    }

    /// The length of a mangled name, which may embed references: a byte 1...0x17 is followed by
    /// a 4-byte relative reference, a byte 0x18...0x1F by a pointer.
    private static func mangledNameLength(_ name: UnsafePointer<UInt8>) -> Int {
        var length = 0
        while true {
            switch name[length] {
            case 0: return length
            case 0x01...0x17: length += 5
            case 0x18...0x1F: length += 1 + MemoryLayout<UInt>.size
            default: length += 1
            }
        }
    }
}

/// `swift_allocBox` and `swift_deallocBox`, looked up once: the compiler reserves their names, so
/// they are reached by address, and called with the Swift calling convention (`thin`: no context),
/// which is theirs.
private let allocBox = unsafeBitCast(
    runtimeFunction("swift_allocBox"),
    to: (@convention(thin) (Any.Type) -> (UnsafeMutableRawPointer, UnsafeMutableRawPointer)).self)
private let deallocBox = unsafeBitCast(
    runtimeFunction("swift_deallocBox"), to: (@convention(thin) (UnsafeMutableRawPointer) -> Void).self)

private func runtimeFunction(_ name: String) -> UnsafeMutableRawPointer {
    guard let address = Platform.symbol(name) else { fatalError("the Swift runtime has no \(name)") }
    return address
}

@_silgen_name("swift_getMetadataKind")
private func metadataKind(_ type: Any.Type) -> UInt

@_silgen_name("swift_EnumCaseName")
private func enumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?
