#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A type with a printed form of its own (SPEC §4) rather than an object of its stored
/// properties: numbers, strings, `Date`, `URL`, `UUID`, `Data`, `Optional` and collections.
protocol ShellValue {
    /// The value as the shell prints it; `reader` reads what it holds.
    func shellValue(_ reader: ValueReader) -> JSONValue

    /// Adds to `differ` the changes from the value at `old` to the one at `new`, both of this
    /// type, at `path`. By default, the two printed values are compared.
    static func diff(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer, at path: ValuePath, in differ: ValueDiffer)

    /// The value at `path` (not empty) inside the value at `pointer`, reading only what the path
    /// goes through; `nil` to let the whole printed value answer. By default, `nil`.
    static func read(at pointer: UnsafeRawPointer, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader) -> JSONValue?
}

extension ShellValue {
    /// NB: safe because every pointer handed here comes from `withUnsafePointer(to:)` on a value
    /// of `Self`, or from a field offset the runtime gave for a member of type `Self`
    /// (``TypeShape``); it is read as a copy and never kept. Reading members in place this way is
    /// what lets a 22-member state cost about a counter's time per line instead of a `Mirror`
    /// walk that boxes every member (measured in `Scripts/bench-anchor.sh`).
    static func value(at pointer: UnsafeRawPointer) -> Self { pointer.assumingMemoryBound(to: Self.self).pointee }

    static func read(at pointer: UnsafeRawPointer, _ reader: ValueReader) -> JSONValue {
        value(at: pointer).shellValue(reader)
    }

    static func diff(_ old: UnsafeRawPointer, _ new: UnsafeRawPointer, at path: ValuePath, in differ: ValueDiffer) {
        differ.diffPrinted(read(at: old, differ.reader), read(at: new, differ.reader), at: path)
    }

    static func read(at pointer: UnsafeRawPointer, path: ArraySlice<ValuePath.Segment>, _ reader: ValueReader) -> JSONValue? {
        nil
    }
}

// MARK: - Numbers

/// Integers print as numbers, with all their digits (also a `UInt64` beyond `Int`).
protocol IntegerShellValue: ShellValue, BinaryInteger {}

extension IntegerShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue {
        if let exact = Int(exactly: self) { return .int(exact) }
        return .number(String(self))
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

extension Double: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { NumberText.value(self) }
}

extension Float: ShellValue {
    /// NB: through its own shortest text, so `Float(0.1)` prints `0.1`, not `0.10000000149011612`.
    func shellValue(_ reader: ValueReader) -> JSONValue {
        guard isFinite else { return NumberText.value(Double(self)) }
        return .double(Double(description) ?? Double(self))
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
}

/// How numbers that JSON cannot hold are printed and read back.
enum NumberText {
    /// A finite double as a number; `nan`, `inf`, `-inf` as those strings.
    static func value(_ number: Double) -> JSONValue {
        if number.isFinite { return .double(number) }
        if number.isNaN { return .string("nan") }
        return .string(number < 0 ? "-inf" : "inf")
    }

    /// The number written `text` (a JSON number with a fraction or an exponent), whose nearest
    /// double is `double`: that double, unless the text has more digits than it keeps.
    ///
    /// NB: a double's own shortest form has at most 17 significant digits and reads back as the
    /// same double; only longer text (or text the double rounds) is compared as a `Decimal`.
    static func exactValue(of text: String, double: Double) -> JSONValue {
        var significant = 0
        var leading = true
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= 0x30, byte <= 0x39 else { continue }
            if leading, byte == 0x30 { continue }
            leading = false
            significant += 1
        }
        guard significant > 15, let exact = Decimal(string: text), let nearest = Decimal(string: String(double)), exact != nearest
        else { return .double(double) }
        return .number(text)
    }

    /// The double a printed non-finite number stands for.
    static func nonFinite(_ text: String) -> Double? {
        switch text {
        case "nan": .nan
        case "inf": .infinity
        case "-inf": -.infinity
        default: nil
        }
    }
}

// MARK: - Text and truth

extension Bool: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .bool(self) }
}

extension String: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(self) }
}

extension Substring: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(String(self)) }
}

extension Character: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(String(self)) }
}

// MARK: - Foundation

extension Date: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(ISO8601.format(self)) }
}

extension URL: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(absoluteString) }
}

extension UUID: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(uuidString) }
}

extension Data: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(base64EncodedString()) }
}

// MARK: - The shell's own values

extension JSONValue: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { self }
}
