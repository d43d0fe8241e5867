import FluxShellJSON

// “Printed values” in the reference, rule 1: a `Duration` is a number of seconds, exact and without
// an exponent (`900`, `1.5`, `0.000000001`), never its two stored halves; its `Codable` form
// (`[high, low]`) is not what the shell reads either.

extension Duration: ShellValue {
    static var examples: [JSONValue] { [.int(900), .int(0), .int(1), .int(300), .number("0.5"), .int(-1)] }

    private static let attosecondsPerSecond: Int128 = 1_000_000_000_000_000_000

    func shellValue(_ reader: ValueReader) -> JSONValue {
        let total = attoseconds
        let magnitude = total.magnitude
        let seconds = magnitude / UInt128(Self.attosecondsPerSecond)
        let fraction = magnitude % UInt128(Self.attosecondsPerSecond)
        if fraction == 0, let whole = Int(exactly: total / Self.attosecondsPerSecond) { return .int(whole) }
        var text = total < 0 ? "-" : ""
        text += String(seconds)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 18 - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        return .number(text)
    }

    /// A number of seconds (also written as a string), to the attosecond.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Duration {
        let expected = "a number of seconds such as 900 or 1.5"
        guard let written = NumberText.digits(of: value) else { throw mismatch(expected, value, at: path) }
        var text = Substring(positionalDigits(written))
        let negative = text.first == "-"
        if negative { text = text.dropFirst() }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = parts.count > 1 ? parts[1] : ""
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit),
            fraction.allSatisfy(\.isASCIIDigit)
        else { throw mismatch(expected, value, at: path) }
        guard fraction.dropFirst(18).allSatisfy({ $0 == "0" }) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path, debugDescription: "\(written) seconds is finer than an attosecond (18 decimals)"))
        }
        let attoDigits = String(fraction.prefix(18)) + String(repeating: "0", count: max(0, 18 - fraction.count))
        guard let seconds = Int128(whole), let atto = Int128(attoDigits) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "\(written) seconds is out of range for Duration"))
        }
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: attosecondsPerSecond)
        let (total, overflowAdding) = scaled.addingReportingOverflow(atto)
        guard !overflow, !overflowAdding else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: path, debugDescription: "\(written) seconds is out of range for Duration"))
        }
        return Duration(attoseconds: negative ? -total : total)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
