#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// SPEC §4, rule 1: Foundation's values print as the strings people write them in.

extension Date: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(ISO8601.format(self)) }

    /// ISO 8601, with or without a fraction, in UTC or with an offset.
    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Date {
        guard case .string(let text) = value, let date = ISO8601.parse(text) else {
            throw mismatch("an ISO 8601 date such as \"2026-11-22T10:00:00Z\"", value, at: path)
        }
        return date
    }
}

extension URL: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(absoluteString) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> URL {
        guard case .string(let text) = value, !text.isEmpty, let url = URL(string: text) else {
            throw mismatch("a URL string such as \"https://example.com\"", value, at: path)
        }
        return url
    }
}

extension UUID: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(uuidString) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> UUID {
        guard case .string(let text) = value, let uuid = UUID(uuidString: text) else {
            throw mismatch("a UUID string such as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"", value, at: path)
        }
        return uuid
    }
}

extension Data: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(base64EncodedString()) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Data {
        guard case .string(let text) = value, let data = Data(base64Encoded: text) else {
            throw mismatch("base64 data such as \"aGVsbG8=\"", value, at: path)
        }
        return data
    }
}

extension TimeZone: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(identifier) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> TimeZone {
        guard case .string(let text) = value, let zone = TimeZone(identifier: text) else {
            throw mismatch("a time zone identifier such as \"Europe/Paris\"", value, at: path)
        }
        return zone
    }
}

extension Locale: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(identifier) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Locale {
        guard case .string(let text) = value else { throw mismatch("a locale identifier such as \"fr_FR\"", value, at: path) }
        return Locale(identifier: text)
    }
}

extension Calendar: ShellValue {
    func shellValue(_ reader: ValueReader) -> JSONValue { .string(Self.name(of: identifier)) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> Calendar {
        guard case .string(let text) = value, let identifier = identifiers.first(where: { name(of: $0) == text }) else {
            throw mismatch("a calendar identifier such as \"gregorian\"", value, at: path)
        }
        return Calendar(identifier: identifier)
    }

    private static let identifiers: [Calendar.Identifier] = [
        .gregorian, .buddhist, .chinese, .coptic, .ethiopicAmeteMihret, .ethiopicAmeteAlem, .hebrew, .iso8601, .indian,
        .islamic, .islamicCivil, .japanese, .persian, .republicOfChina, .islamicTabular, .islamicUmmAlQura,
    ]

    /// The identifier's name as Foundation's `Calendar.Identifier` writes it in Swift (`gregorian`).
    private static func name(of identifier: Calendar.Identifier) -> String { "\(identifier)" }
}
