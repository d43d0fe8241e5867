/// Parses one JSON value from text, with a bound on nesting so no input can exhaust the stack.
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// A `$PATH` written where a value goes (`{"id":$todos[0].id}`), which a `dispatch` argument
    /// reads from the state when the command runs.
    public struct Hole: Sendable, Equatable {
        /// Where it stands in the value parsed: `[0].id` in `[{"id":$todos[0].id}]`.
        public var place: [ValuePath.Segment]
        /// What follows the `$`, up to a `,`, `]`, `}` or white space outside brackets and quotes
        /// (`todos[0].id`); empty for a lone `$`.
        public var text: Substring
        /// The byte offset of the `$` in the text parsed.
        public var offset: Int
    }

    private let bytes: [UInt8]
    private var position = 0
    /// The holes found so far, when they are allowed (`parse(_:holes:)`); `nil`: a `$` is an error.
    private var holes: [Hole]?
    /// Where each `*` found so far stands, when they are allowed (`parse(_:wildcards:)`); `nil`:
    /// a `*` is an error.
    private var wildcards: [[ValuePath.Segment]]?
    /// Where the value being parsed stands, kept only while holes or wildcards are allowed.
    private var place: [ValuePath.Segment] = []
    private var tracksPlaces: Bool { holes != nil || wildcards != nil }

    /// Parses `text`, which must hold exactly one JSON value (white space around it is allowed).
    public static func parse(_ text: Substring) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), holes: nil)
        return try parser.parseWhole()
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(text[...])
    }

    /// Parses UTF-8 `bytes` as `parse(_:)` parses text (a line as it came from a socket); bytes
    /// that are not UTF-8 are read as U+FFFD in strings.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes), holes: nil)
        return try parser.parseWhole()
    }

    /// Parses `text` as `parse(_:)` does, and also allows a `$PATH` wherever a value goes:
    /// it is `null` in the value returned, and is listed in `holes`, in the order written.
    ///
    /// NB: a parser of its own, not an option of every parse: a literal with no `$` is parsed
    /// once, as before, and only one that failed at a `$` is parsed again this way.
    public static func parse(_ text: Substring, holes: inout [Hole]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), holes: [])
        let value = try parser.parseWhole()
        holes = parser.holes ?? []
        return value
    }

    /// Parses `text` as `parse(_:)` does, and also allows a `*` wherever a value goes (a
    /// ``ValuePattern``): it is `null` in the value returned, and its place is listed in
    /// `wildcards`, in the order written. In quotes, `"*"` is a string.
    static func parse(_ text: Substring, wildcards: inout [[ValuePath.Segment]]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8), holes: nil, wildcards: [])
        let value = try parser.parseWhole()
        wildcards = parser.wildcards ?? []
        return value
    }

    private init(bytes: [UInt8], holes: [Hole]?, wildcards: [[ValuePath.Segment]]? = nil) {
        self.bytes = bytes
        self.holes = holes
        self.wildcards = wildcards
    }

    private mutating func parseWhole() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected text after the value") }
        return value
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(message: message, offset: position)
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            position += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw error("expected a value, found the end") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): return try parseWord("true", .bool(true))
        case UInt8(ascii: "f"): return try parseWord("false", .bool(false))
        case UInt8(ascii: "n"): return try parseWord("null", .null)
        case UInt8(ascii: "$") where holes != nil:
            parseHole()
            return .null
        case UInt8(ascii: "*") where wildcards != nil:
            position += 1
            wildcards?.append(place)
            return .null
        default: throw error("unexpected character '\(Character(Unicode.Scalar(byte)))'")
        }
    }

    /// Records the `$PATH` at the current position, and moves past it.
    private mutating func parseHole() {
        let offset = position
        position += 1
        let start = position
        // NB: a path's brackets may hold quoted keys and ids (`scores["a, b"]`, `todos[id: "x"]`).
        var depth = 0
        scan: while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                while let inner = current, inner != UInt8(ascii: "\"") {
                    position += inner == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "]") where depth > 0:
                depth -= 1
            case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { break scan }
            default:
                break
            }
            position += 1
        }
        position = min(position, bytes.count)
        let text = Substring(String(decoding: bytes[start..<position], as: UTF8.self))
        holes?.append(Hole(place: place, text: text, offset: offset))
    }

    private mutating func parseWord(_ word: String, _ value: JSONValue) throws(JSONParseError)
        -> JSONValue
    {
        let count = word.utf8.count
        guard position + count <= bytes.count, bytes[position..<position + count].elementsEqual(word.utf8)
        else { throw error("unknown literal (expected \(word))") }
        position += count
        return value
    }

    private mutating func checkDepth(_ depth: Int) throws(JSONParseError) {
        if depth > Self.maximumDepth {
            throw error("nesting deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        try checkDepth(depth)
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if tracksPlaces {
                place.append(.index(elements.count))
                elements.append(try parseValue(depth: depth))
                place.removeLast()
            } else {
                elements.append(try parseValue(depth: depth))
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            case nil: throw error("unterminated array (missing ']')")
            default: throw error("expected ',' or ']' in array")
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        try checkDepth(depth)
        position += 1
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error(current == nil ? "unterminated object (missing '}')" : "expected a quoted key")
            }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after key") }
            position += 1
            skipWhitespace()
            let value: JSONValue
            if tracksPlaces {
                value = try parseMember(key, depth: depth, replacing: object[key] != nil)
            } else {
                value = try parseValue(depth: depth)
            }
            // NB: a repeated key keeps its first place and takes the last value, as in most JSON
            // readers; the object finds it by hashing, so a 100,000-key object stays linear.
            object[key] = value
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .object(object)
            case nil: throw error("unterminated object (missing '}')")
            default: throw error("expected ',' or '}' in object")
            }
        }
    }

    /// A member's value while holes or wildcards are allowed: its holes and wildcards placed
    /// under `key`, and those of an earlier value of the same key, which this one replaces, dropped.
    private mutating func parseMember(_ key: String, depth: Int, replacing: Bool) throws(JSONParseError) -> JSONValue {
        place.append(.key(key))
        defer { place.removeLast() }
        if replacing {
            let replaced = place
            holes?.removeAll { $0.place.starts(with: replaced) }
            wildcards?.removeAll { $0.starts(with: replaced) }
        }
        return try parseValue(depth: depth)
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, first >= 0x30, first <= 0x39 else {
            throw error("expected a digit")
        }
        while let byte = current, byte >= 0x30, byte <= 0x39 { position += 1 }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let digit = current, digit >= 0x30, digit <= 0x39 else {
                throw error("expected a digit after '.'")
            }
            while let byte = current, byte >= 0x30, byte <= 0x39 { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let digit = current, digit >= 0x30, digit <= 0x39 else {
                throw error("expected a digit in the exponent")
            }
            while let byte = current, byte >= 0x30, byte <= 0x39 { position += 1 }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        // NB: a number too small for a Double (`1e-400`) is out of range too, not 0: its mantissa
        // has a digit other than 0, and it would be read as a value it is not.
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }
        guard let number = Double(text), number.isFinite,
            number != 0 || !mantissa.contains(where: { $0 >= "1" && $0 <= "9" })
        else {
            position = start
            throw error("number \(text) is out of range")
        }
        // NB: an integer beyond Int (a large UInt64) keeps its digits.
        if isInteger { return .number(text) }
        return NumberText.exactValue(of: text, double: number)
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        // NB: most strings hold no escape, and are made from their bytes at once; with escapes,
        // from bytes too. Appended to a view of Unicode scalars run by run, every frame
        // `fluxsh attach` reads paid for those appends more than for the rest of its line.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 {
            position += 1
        }
        if current == UInt8(ascii: "\"") {
            position += 1
            return String(decoding: bytes[start..<(position - 1)], as: UTF8.self)
        }
        var utf8 = Array(bytes[start..<position])
        while true {
            guard let byte = current else { throw error("unterminated string (missing '\"')") }
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            if byte < 0x20 { throw error("control character in string (escape it)") }
            position += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            guard let escape = current else { throw error("unterminated escape") }
            position += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                        bytes[position + 1] == UInt8(ascii: "u")
                    else { throw error("unpaired surrogate \\u\(String(code, radix: 16))") }
                    position += 2
                    let low = try parseHex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else {
                    throw error("invalid code point \\u\(String(code, radix: 16))")
                }
                UTF8.encode(scalar) { utf8.append($0) }
            default:
                position -= 1
                throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
            }
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("expected 4 hex digits after \\u") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("expected 4 hex digits after \\u")
            }
            code = code * 16 + digit
            position += 1
        }
        return code
    }
}

/// Why a JSON literal could not be read, and where (a byte offset into the literal).
package struct JSONParseError: Error, Sendable, Equatable {
    public var message: String
    public var offset: Int

    package init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
}
