import FluxShellJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// “Printed values” in the reference, rule 1: Foundation's values print as the strings people write them in.

extension Date: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(ISO8601.format(self)) }

    /// ISO 8601, with or without a fraction, in UTC or with an offset.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Date {
        try parseString(value, at: path, expected: "an ISO 8601 date such as \"2026-11-22T10:00:00Z\"", ISO8601.parse)
    }
}

extension URL: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(absoluteString) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> URL {
        // NB: Foundation's `URL(string:)` takes any text, encoding what a URL cannot hold (`"a b"`
        // becomes `a%20b`): only text that is a URL as written, and prints back as itself, is one.
        try parseString(
            value, at: path,
            expected:
                "a URL string such as \"https://example.com\" (a space or other character a URL cannot hold written as %20…)"
        ) { text in
            URL(string: text).flatMap { !text.isEmpty && $0.absoluteString == text ? $0 : nil }
        }
    }
}

extension UUID: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(uuidString) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> UUID {
        try parseString(
            value, at: path, expected: "a UUID string such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"",
            UUID.init(uuidString:))
    }
}

extension Data: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(base64EncodedString()) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Data {
        try parseString(value, at: path, expected: "base64 data such as \"aGVsbG8=\"") { Data(base64Encoded: $0) }
    }
}

extension TimeZone: ShellValue {
    static var examples: [JSONValue] { ["UTC", "Europe/Paris", "America/New_York"].map(JSONValue.string) }

    func shellValue(_ reader: ValueReader) -> JSONValue { .string(identifier) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> TimeZone {
        try parseString(
            value, at: path, expected: "a time zone identifier such as \"Europe/Paris\"", TimeZone.init(identifier:))
    }
}

extension Locale: ShellValue {
    static var examples: [JSONValue] { ["en_US", "fr_FR", "ja_JP"].map(JSONValue.string) }

    func shellValue(_ reader: ValueReader) -> JSONValue { .string(identifier) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Locale {
        try parseString(value, at: path, expected: "a locale identifier such as \"fr_FR\"") { Locale(identifier: $0) }
    }
}

extension Calendar: ShellValue {
    static var examples: [JSONValue] { ["gregorian", "iso8601"].map(JSONValue.string) }

    func shellValue(_ reader: ValueReader) -> JSONValue { .string(Self.name(of: identifier)) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Calendar {
        try parseString(value, at: path, expected: "a calendar identifier such as \"gregorian\"") { text in
            identifiers.first { name(of: $0) == text }.map { Calendar(identifier: $0) }
        }
    }

    private static let identifiers: [Calendar.Identifier] = [
        .gregorian, .buddhist, .chinese, .coptic, .ethiopicAmeteMihret, .ethiopicAmeteAlem, .hebrew, .iso8601, .indian,
        .islamic, .islamicCivil, .japanese, .persian, .republicOfChina, .islamicTabular, .islamicUmmAlQura,
    ]

    /// The identifier's name as Foundation's `Calendar.Identifier` writes it in Swift (`gregorian`).
    private static func name(of identifier: Calendar.Identifier) -> String { "\(identifier)" }
}
