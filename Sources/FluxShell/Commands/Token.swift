/// One piece of a command line.
public struct Token: Sendable, Equatable {
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
public enum CommandLexer {
    public static func tokens(in line: Substring) throws(ShellError) -> [Token] {
        var tokens: [Token] = []
        var index = line.startIndex
        func column(_ position: Substring.Index) -> Int {
            line.unicodeScalars.distance(from: line.startIndex, to: position) + 1
        }
        let scalars = line.unicodeScalars
        while index < line.endIndex {
            let scalar = scalars[index]
            if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n" {
                index = scalars.index(after: index)
                continue
            }
            if scalar == "#" { break }
            let start = index
            if scalar == "\"" {
                let end = try endOfQuoted(scalars, from: index, line: line, column: column(start))
                let text = line[start..<end]
                do {
                    guard case .string(let string) = try JSONParser.parse(text) else {
                        throw ShellError("invalid string \(text)")
                    }
                    tokens.append(Token(kind: .quoted(string), text: text))
                } catch let error as JSONParseError {
                    throw ShellError(
                        "invalid string at column \(column(start)): \(error.message)",
                        hint: "strings use JSON escapes such as \\\" and \\n")
                } catch {
                    throw error as! ShellError
                }
                index = end
                continue
            }
            if scalar == "[" || scalar == "{" {
                let end = try endOfBracketed(scalars, from: index, line: line, column: column(start))
                tokens.append(Token(kind: .json, text: line[start..<end]))
                index = end
                continue
            }
            // A word, possibly a label (`title:`), with bracketed parts (`scores["a b"]`) kept whole.
            var end = index
            var isLabel = false
            while end < line.endIndex {
                let current = scalars[end]
                if current == " " || current == "\t" || current == "\r" || current == "\n" || current == "#" {
                    break
                }
                if current == "[" {
                    end = try endOfBracketed(scalars, from: end, line: line, column: column(start))
                    continue
                }
                if current == ":", isIdentifier(line[start..<end]) {
                    isLabel = true
                    break
                }
                end = scalars.index(after: end)
            }
            if isLabel {
                let name = String(line[start..<end])
                end = scalars.index(after: end)
                tokens.append(Token(kind: .label(name), text: line[start..<end]))
            } else {
                tokens.append(Token(kind: .word, text: line[start..<end]))
            }
            index = end
        }
        return tokens
    }

    static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first,
            first == "_" || first.properties.isAlphabetic
        else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    private static func endOfQuoted(
        _ scalars: Substring.UnicodeScalarView, from start: Substring.Index, line: Substring, column: Int
    ) throws(ShellError) -> Substring.Index {
        var index = scalars.index(after: start)
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\\" {
                index = scalars.index(after: index)
                if index < scalars.endIndex { index = scalars.index(after: index) }
                continue
            }
            if scalar == "\"" { return scalars.index(after: index) }
            index = scalars.index(after: index)
        }
        throw ShellError(
            "unterminated string starting at column \(column)", hint: "close it with a \"")
    }

    private static func endOfBracketed(
        _ scalars: Substring.UnicodeScalarView, from start: Substring.Index, line: Substring, column: Int
    ) throws(ShellError) -> Substring.Index {
        // NB: a counter, not a stack of recursion, so 100,000 nested brackets cost nothing.
        var depth = 0
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            switch scalar {
            case "\"":
                index = try endOfQuoted(scalars, from: index, line: line, column: column)
                continue
            case "[", "{":
                depth += 1
            case "]", "}":
                depth -= 1
                if depth == 0 { return scalars.index(after: index) }
            default:
                break
            }
            index = scalars.index(after: index)
        }
        let opening = scalars[start]
        throw ShellError(
            "unterminated \(opening == "[" ? "'['" : "'{'") starting at column \(column)",
            hint: "every [ needs a ] and every { a }")
    }
}
