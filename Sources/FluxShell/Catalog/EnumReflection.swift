/// Reads the case names of an enum type from the Swift runtime's metadata, the same records
/// `Mirror` uses to name a case; no instance is needed.
///
/// NB: this reads the stable metadata layout (ABI) of enum type descriptors: kind, then the
/// nominal descriptor, whose fifth 32-bit field points (relatively) to the field descriptor that
/// lists the cases in declaration order. Anything unexpected returns `nil`, and callers then do
/// without case names (dispatch still works; `actions` and completion have nothing to list).
enum EnumReflection {
    static func caseNames(of type: Any.Type) -> [String]? {
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let kind = metadata.load(as: UInt.self)
        // MetadataKind.enum is 0x201 (1 | non-heap), .optional 0x202.
        guard kind == 0x201 else { return nil }
        let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
        // TargetEnumDescriptor: flags, parent, name, access function, fields, ...
        guard let fields = relative(descriptor + 16) else { return nil }
        // FieldDescriptor: mangled type name, superclass, kind (16 bits), record size (16 bits),
        // count (32 bits), then the records.
        let recordSize = Int(fields.load(fromByteOffset: 10, as: UInt16.self))
        let count = Int(fields.load(fromByteOffset: 12, as: UInt32.self))
        guard recordSize >= 12, count < 10_000 else { return nil }
        var names: [String] = []
        for index in 0..<count {
            // FieldRecord: flags, mangled type name, field name.
            let record = fields + 16 + index * recordSize
            guard let name = relative(record + 8) else { return nil }
            names.append(String(cString: name.assumingMemoryBound(to: CChar.self)))
        }
        return names
    }

    private static func relative(_ pointer: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = pointer.load(as: Int32.self)
        return offset == 0 ? nil : pointer + Int(offset)
    }
}
