#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How numbers that JSON cannot hold are printed and read back.
package enum NumberText {
    /// A finite double as a number; `nan`, `inf`, `-inf` as those strings.
    package static func value(_ number: Double) -> JSONValue {
        if number.isFinite { return .double(number) }
        if number.isNaN { return .string("nan") }
        return .string(number < 0 ? "-inf" : "inf")
    }

    /// The number written `text` (a JSON number with a fraction or an exponent), whose nearest
    /// double is `double`: that double, unless the text has more digits than it keeps.
    ///
    /// NB: a double's own shortest form has at most 17 significant digits and reads back as the
    /// same double; only longer text (or text the double rounds) is compared as a `Decimal`.
    package static func exactValue(of text: String, double: Double) -> JSONValue {
        var significant = 0
        var leading = true
        for byte in text.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= 0x30, byte <= 0x39 else { continue }
            if leading, byte == 0x30 { continue }
            leading = false
            significant += 1
        }
        guard significant > 15, let exact = Decimal(string: text), let nearest = Decimal(string: String(double)),
            exact != nearest
        else { return .double(double) }
        return .number(text)
    }

    /// A number, or a non-finite one as printed (`"nan"`, `"inf"`, `"-inf"`).
    package static func number(_ value: JSONValue) -> Double? {
        if case .string(let text) = value { return nonFinite(text) }
        return value.numberValue
    }

    /// The JSON text of a number (also one written as a string, `"1.5"`); `nil` for anything else.
    ///
    /// NB: `Decimal(string:)` takes any prefix that looks like a number (`-e`, `12abc`); only a
    /// whole JSON number is one.
    package static func digits(of value: JSONValue) -> String? {
        switch value {
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .number(let digits): return digits
        case .string(let string):
            switch try? JSONParser.parse(string) {
            case .int?, .double?, .number?: return string
            default: return nil
            }
        default: return nil
        }
    }

    /// The double a printed non-finite number stands for.
    package static func nonFinite(_ text: String) -> Double? {
        switch text {
        case "nan": .nan
        case "inf": .infinity
        case "-inf": -.infinity
        default: nil
        }
    }
}
