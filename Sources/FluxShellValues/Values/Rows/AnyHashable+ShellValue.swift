import FluxShellJSON

// “Printed values” in the reference, rule 2: an `AnyHashable` prints as the value it holds, not as its box.

extension AnyHashable: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { reader.readAny(base) }

    /// NB: what type an argument would hold is not known: only `Swift` can make one.
    static var hasOwnTextForm: Bool { false }
}
