import FluxShellJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A type with a printed form of its own (“Printed values” in the reference, rule 1 and the rows of
/// the table) rather than an object of its stored properties: numbers, strings, `Date`, `Duration`,
/// `URL`, `UUID`, `Data`, `Optional`, collections. Each conformance is one row: how the value
/// prints, and how that printed form is read back (``parse(_:at:)``).
protocol ShellValue {
    /// The value as the shell prints it; `reader` reads what it holds.
    func shellValue(_ reader: ValueReader) -> JSONValue

    /// The value whose printed form is `value`, for an argument typed at `path`.
    ///
    /// - Throws: a `DecodingError` at `path` that says which form was expected, or
    ///   ``NoTextForm`` for a type that only prints (an error, a description).
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Self

    /// Adds to `differ` the changes from the value at `old` to the one at `new`, both of this
    /// type, at `path`. By default, the two printed values are compared.
    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer)

    /// The value at `path` (not empty) inside the value at `pointer`, reading only what the path
    /// goes through; `nil` to let the whole printed value answer. By default, `nil`.
    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?

    /// Whether ``parse(_:at:)`` can give a value (other than `nil`), given that the types in
    /// ``textFormInner`` have a text form; by default, `true`.
    static var hasOwnTextForm: Bool { get }

    /// The types a value is built from (a collection's elements), whose text forms this one's
    /// depends on; by default, none.
    static var textFormInner: [Any.Type] { get }

    /// Printed values that show how one is typed, where the type's name does not tell (`900` for
    /// a `Duration`): the first in usage lines, all of them for `explore`. By default, none.
    static var examples: [JSONValue] { get }
}

extension ShellValue {
    /// The value at `address`, which holds a `Self` (see ``ValueAddress``), as a copy.
    static func value(at address: ValueAddress) -> Self { address.value(as: Self.self) }

    static func read(at pointer: ValueAddress, _ reader: ValueReader) -> JSONValue {
        value(at: pointer).shellValue(reader)
    }

    static func diff(_ old: ValueAddress, _ new: ValueAddress, at path: ValuePath, in differ: ValueDiffer) {
        differ.diffPrinted(read(at: old, differ.reader), read(at: new, differ.reader), at: path)
    }

    static func read(at pointer: ValueAddress, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader)
        -> JSONValue?
    {
        nil
    }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Self {
        throw NoTextForm(type: Self.self, codingPath: path)
    }

    static var hasOwnTextForm: Bool { true }

    static var textFormInner: [Any.Type] { [] }

    static var examples: [JSONValue] { [] }

    /// The value a string argument stands for, through `make`; a mismatch that says `expected`
    /// for anything else or a string `make` refuses.
    static func parseString(_ value: JSONValue, at path: [any CodingKey], expected: String, _ make: (String) -> Self?)
        throws -> Self
    {
        guard case .string(let text) = value, let parsed = make(text) else { throw mismatch(expected, value, at: path) }
        return parsed
    }

    /// The error for `value`, which is not a printed form of this type: "expected `expected`".
    static func mismatch(_ expected: String, _ value: JSONValue, at path: [any CodingKey]) -> DecodingError {
        .typeMismatch(
            Self.self,
            .init(codingPath: path, debugDescription: "expected \(expected), found \(JSONText.compact(value))"))
    }
}

// MARK: - Numbers

/// Integers print as numbers, with all their digits (also a `UInt64` beyond `Int`).
protocol IntegerShellValue: ShellValue, FixedWidthInteger {}

extension IntegerShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue {
        if let exact = Int(exactly: self) { return .int(exact) }
        return .number(String(self))
    }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Self {
        try ScalarDecoding.decodeInteger(Self.self, from: value, path: path)
    }
}

extension Int: IntegerShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .int(self) }
}
extension Int8: IntegerShellValue {}
extension Int16: IntegerShellValue {}
extension Int32: IntegerShellValue {}
extension Int64: IntegerShellValue {}
extension UInt: IntegerShellValue {}
extension UInt8: IntegerShellValue {}
extension UInt16: IntegerShellValue {}
extension UInt32: IntegerShellValue {}
extension UInt64: IntegerShellValue {}
extension Int128: IntegerShellValue {}
extension UInt128: IntegerShellValue {}

extension Double: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { NumberText.value(self) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Double {
        guard let number = NumberText.number(value) else { throw mismatch("a number", value, at: path) }
        return number
    }
}

extension Float: ShellValue {
    /// NB: through its own shortest text, so `Float(0.1)` prints `0.1`, not `0.10000000149011612`.
    func shellValue(_ reader: ValueReader) -> JSONValue {
        guard isFinite else { return NumberText.value(Double(self)) }
        return .double(Double(description) ?? Double(self))
    }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Float {
        guard let number = NumberText.number(value) else { throw mismatch("a number", value, at: path) }
        return Float(number)
    }
}

extension Decimal: ShellValue {
    /// A whole number, else the shortest double when it is the same number, else all its digits.
    func shellValue(_ reader: ValueReader) -> JSONValue {
        if isNaN { return .string("nan") }
        let text = description
        if let whole = Int(text) { return .int(whole) }
        guard let double = Double(text), double.isFinite else { return .number(text) }
        return NumberText.exactValue(of: text, double: double)
    }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Decimal {
        if value == .string("nan") { return .nan }
        guard let text = NumberText.digits(of: value),
            let decimal = Decimal(string: text) ?? Decimal(string: positionalDigits(text)), !decimal.isNaN
        else { throw mismatch("a number", value, at: path) }
        return decimal
    }
}

// MARK: - Text and truth

extension Bool: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .bool(self) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch("true or false", value, at: path) }
        return flag
    }
}

extension String: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(self) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> String {
        try parseString(value, at: path, expected: "a string") { $0 }
    }
}

extension Substring: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(String(self)) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Substring {
        Substring(try String.parse(value, at: path))
    }
}

extension Character: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(String(self)) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Character {
        guard case .string(let text) = value, text.count == 1, let character = text.first else {
            throw DecodingError.typeMismatch(
                Character.self,
                .init(codingPath: path, debugDescription: "expected one character in quotes, such as \"a\""))
        }
        return character
    }
}

// MARK: - The shell's own values

extension JSONValue: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { self }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> JSONValue { value }
}
