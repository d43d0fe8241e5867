import FluxShellJSON
import FluxShellSystem

/// One piece of a command line.
package struct Token: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A bare word: a command, a name, a path, an operator, or a value meaning that string.
        case word
        /// `label:` before an argument's value.
        case label(String)
        /// A double-quoted string, with its JSON escapes resolved.
        case quoted(String)
        /// A JSON array or object literal.
        case json
    }

    public var kind: Kind
    /// The text as typed.
    public var text: Substring

    /// 1-based column of its first character in `line`, the line it was read from.
    public func column(in line: Substring) -> Int {
        line.unicodeScalars.distance(from: line.startIndex, to: text.startIndex) + 1
    }
}

/// Splits a command line into tokens: words, `label:`s, quoted strings and JSON literals;
/// `#` outside quotes starts a comment.
///
/// NB: it walks the line's UTF-8 bytes: every character that separates tokens is ASCII, and no
/// byte of a multi-byte UTF-8 sequence is, so a token boundary is never inside a character.
package enum CommandLexer {
    public static func tokens(in line: Substring) throws(ShellError) -> [Token] {
        var tokens: [Token] = []
        try self.tokens(in: line, into: &tokens)
        return tokens
    }

    /// The tokens of `line` in `tokens`, which is emptied first and keeps its capacity: a caller
    /// that lexes line after line reuses one buffer.
    public static func tokens(in line: Substring, into tokens: inout [Token]) throws(ShellError) {
        tokens.removeAll(keepingCapacity: true)
        let bytes = line.utf8
        var index = bytes.startIndex
        // NB: a column is counted only for an error (`Where`): counting it for every token would
        // make a line of many quoted strings cost its length squared.
        func column(_ position: Substring.Index) -> Where { Where(line: line, position: position) }
        // NB: a token's text is taken through the UTF-8 view: its bounds are ASCII bytes, and
        // slicing the line itself checks each bound for a character boundary (2 % of a piped line).
        func slice(_ start: Substring.Index, _ end: Substring.Index) -> Substring { Substring(bytes[start..<end]) }
        while index < bytes.endIndex {
            let byte = bytes[index]
            if isSpace(byte) {
                bytes.formIndex(after: &index)
                continue
            }
            if byte == UInt8(ascii: "#") { break }
            let start = index
            if byte == UInt8(ascii: "\"") {
                let (end, isPlain) = try endOfQuoted(bytes, from: index, column: column(start))
                let text = slice(start, end)
                tokens.append(
                    Token(kind: .quoted(try quoted(text, isPlain: isPlain, column: column(start))), text: text))
                index = end
                continue
            }
            // A word, possibly a label (`title:`), with bracketed parts (`scores["a b"]`) kept whole.
            var end = index
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                end = try endOfBracketed(bytes, from: index, column: column(start))
                // NB: a bracket followed at once by `.` or `[` is a path whose first key is
                // bracketed (`["hours"].open`), which goes on as a word: no JSON literal does.
                guard byte == UInt8(ascii: "["), end < bytes.endIndex,
                    bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "[")
                else {
                    tokens.append(Token(kind: .json, text: slice(start, end)))
                    index = end
                    continue
                }
            }
            var isLabel = false
            // NB: only the first `:` of a word can end a label (the text before any later one
            // holds a `:`), so the word is checked once, not at every colon.
            var sawColon = false
            while end < bytes.endIndex {
                let current = bytes[end]
                if isSpace(current) || current == UInt8(ascii: "#") { break }
                if current == UInt8(ascii: "[") {
                    end = try endOfBracketed(bytes, from: end, column: column(start))
                    continue
                }
                if current == UInt8(ascii: ":"), !sawColon {
                    sawColon = true
                    if isIdentifier(slice(start, end)) {
                        isLabel = true
                        break
                    }
                }
                bytes.formIndex(after: &end)
            }
            if isLabel {
                let name = String(slice(start, end))
                bytes.formIndex(after: &end)
                tokens.append(Token(kind: .label(name), text: slice(start, end)))
            } else {
                tokens.append(Token(kind: .word, text: slice(start, end)))
            }
            index = end
        }
    }

    /// Where a token starts, for an error's column.
    struct Where {
        let line: Substring
        let position: Substring.Index
        var column: Int { line.unicodeScalars.distance(from: line.startIndex, to: position) + 1 }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\n")
    }

    static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first,
            first == "_" || first.properties.isAlphabetic
        else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// The string a quoted token stands for. A plain one (no escapes, no control characters) is
    /// its bytes between the quotes; any other is read by the JSON parser, which resolves escapes
    /// and refuses what JSON refuses.
    private static func quoted(_ text: Substring, isPlain: Bool, column: Where) throws(ShellError) -> String {
        if isPlain { return String(text.dropFirst().dropLast()) }
        do throws(JSONParseError) {
            guard case .string(let string) = try JSONParser.parse(text) else {
                throw JSONParseError(message: "not a string", offset: 0)
            }
            return string
        } catch {
            throw ShellError(
                "invalid string at column \(column.column): \(error.message)",
                hint: "strings use JSON escapes such as \\\" and \\n")
        }
    }

    /// The end of the quoted string at `start`, and whether it has neither escapes nor control
    /// characters.
    private static func endOfQuoted(_ bytes: Substring.UTF8View, from start: Substring.Index, column: Where)
        throws(ShellError) -> (end: Substring.Index, isPlain: Bool)
    {
        var index = bytes.index(after: start)
        var isPlain = true
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                isPlain = false
                bytes.formIndex(after: &index)
                if index < bytes.endIndex { bytes.formIndex(after: &index) }
                continue
            }
            if byte == UInt8(ascii: "\"") { return (bytes.index(after: index), isPlain) }
            if byte < 0x20 { isPlain = false }
            bytes.formIndex(after: &index)
        }
        throw ShellError(
            "unterminated string starting at column \(column.column)", hint: "close it with a \"")
    }

    private static func endOfBracketed(_ bytes: Substring.UTF8View, from start: Substring.Index, column: Where)
        throws(ShellError) -> Substring.Index
    {
        // NB: a counter, not a stack of recursion, so 100,000 nested brackets cost nothing.
        var depth = 0
        var index = start
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index = try endOfQuoted(bytes, from: index, column: column).end
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return bytes.index(after: index) }
            default:
                break
            }
            bytes.formIndex(after: &index)
        }
        throw ShellError(
            "unterminated \(bytes[start] == UInt8(ascii: "[") ? "'['" : "'{'") starting at column \(column.column)",
            hint: "every [ needs a ] and every { a }")
    }
}
