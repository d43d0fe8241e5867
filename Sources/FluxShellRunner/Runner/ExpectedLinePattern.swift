import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// An expected diff line with `*` where a value stands: a whole old or new value of a `~`, `+` or
/// `-` line, a value inside one at any depth, or an argument's value of a `=>` line
/// (`~ todos[0].createdAt: null -> *`, `+ todos[0]: {"id":1,"createdAt":*}`,
/// `=> loaded at: *`). It matches an actual line of the same sign, path or action, whose values
/// match (see ``ValuePattern``).
///
/// A line without such a `*` is not a pattern: it must equal the actual line (a `*` in a path,
/// `todos[*]`, or in quotes, `"*"`, is a literal there).
struct ExpectedLinePattern: Equatable {
    /// `~ PATH: `, `+ PATH: ` or `- PATH: ` with its value patterns (old and new for `~`); or the
    /// words of a `=>` line.
    private enum Shape: Equatable {
        case values(head: Substring, [ValuePattern])
        case followUp([FollowUpPart])
    }

    /// A word of a `=>` line: as written, or a value with a `*`.
    private enum FollowUpPart: Equatable {
        case literal(Substring)
        case value(ValuePattern)
    }

    private let shape: Shape

    /// The pattern of `line` (an expected line, trimmed), or `nil` when no `*` stands for a value
    /// in it.
    ///
    /// - Parameter column: the column of the line's first character in the file (1 unless it
    ///   was indented), for errors.
    /// - Throws: `ShellError` naming the column, when a `*` stands where no value can.
    static func parse(_ line: String, column: Int = 1) throws(ShellError) -> ExpectedLinePattern? {
        // NB: most expected lines hold no `*` at all: answered without looking further.
        guard line.utf8.contains(UInt8(ascii: "*")) else { return nil }
        if line.hasPrefix("=> ") { return try followUp(line, column: column) }
        guard let parts = PrintedDiffLine(line[...]), ValuePattern.mayHoldWildcard(line[parts.head.endIndex...]) else {
            return nil
        }
        if parts.isChange, parts.values.count == 1 {
            throw ShellError(
                "a '~' line needs 'OLD -> NEW' after '\(parts.head)'", hint: "e.g. \(parts.head)null -> *")
        }
        var patterns: [ValuePattern] = []
        for value in parts.values {
            do {
                patterns.append(try ValuePattern.parse(value))
            } catch {
                throw invalid(error, in: value, of: line, column: column)
            }
        }
        return ExpectedLinePattern(shape: .values(head: parts.head, patterns))
    }

    /// A `=>` line with a `*` for an argument's value, else `nil`.
    private static func followUp(_ line: String, column: Int) throws(ShellError) -> ExpectedLinePattern? {
        let text = line[...]
        let tokens = try CommandLexer.tokens(in: text.dropFirst(3))
        var parts: [FollowUpPart] = []
        var hasWildcard = false
        for (index, token) in tokens.enumerated() {
            let isWildcard: Bool
            switch token.kind {
            case .word: isWildcard = token.text == "*"
            case .json: isWildcard = ValuePattern.mayHoldWildcard(token.text)
            case .label, .quoted: isWildcard = false
            }
            guard isWildcard else {
                parts.append(.literal(token.text))
                continue
            }
            guard index > 0 else {
                throw ShellError(
                    "'*' at column \(column + token.column(in: text) - 1) stands for a value, not an action's name",
                    hint: "e.g. => loaded at: *")
            }
            do {
                parts.append(.value(try ValuePattern.parse(token.text)))
            } catch {
                throw invalid(error, in: token.text, of: line, column: column)
            }
            hasWildcard = true
        }
        return hasWildcard ? ExpectedLinePattern(shape: .followUp(parts)) : nil
    }

    /// The error of a value that does not parse, at its column in the line.
    private static func invalid(_ error: JSONParseError, in value: Substring, of line: String, column: Int)
        -> ShellError
    {
        let before = line.unicodeScalars.distance(from: line.startIndex, to: value.startIndex)
        let within = String(decoding: value.utf8.prefix(error.offset), as: UTF8.self).unicodeScalars.count
        return ShellError(
            "invalid value at column \(column + before + within) of an expected line with '*': \(error.message)",
            hint:
                #"'*' stands for a whole value: '~ PATH: OLD -> *', or inside JSON, {"id":1,"createdAt":*}; "*" is the string"#
        )
    }

    /// `actual`, a line for the same path, with this pattern's `*`s where their places still are
    /// in its values (what `--update` writes in place of the pattern); it matches `actual`.
    func keepingWildcards(in actual: String) -> String {
        guard case .values(let head, let patterns) = shape, actual.hasPrefix(head),
            let parts = PrintedDiffLine(actual[...]), parts.values.count == patterns.count
        else { return actual }
        var text = String(parts.head)
        for (index, (pattern, written)) in zip(patterns, parts.values).enumerated() {
            guard let value = try? JSONParser.parse(written) else { return actual }
            if index > 0 { text += PrintedDiffLine.arrow }
            text += pattern.keepingWildcards(in: value).description
        }
        return text
    }

    /// Whether `actual`, a line the shell printed, is one this pattern stands for.
    func matches(_ actual: String) -> Bool {
        switch shape {
        case .values(let head, let patterns):
            guard actual.hasPrefix(head), let parts = PrintedDiffLine(actual[...]), parts.values.count == patterns.count
            else { return false }
            return zip(patterns, parts.values).allSatisfy { pattern, text in
                guard let value = try? JSONParser.parse(text) else { return false }
                return pattern.matches(value)
            }
        case .followUp(let parts):
            guard actual.hasPrefix("=> "), let tokens = try? CommandLexer.tokens(in: actual.dropFirst(3)),
                tokens.count == parts.count
            else { return false }
            return zip(parts, tokens).allSatisfy { part, token in
                switch part {
                case .literal(let text): return token.text == text
                case .value(let pattern):
                    if case .label = token.kind { return false }
                    guard let value = try? CommandParser.value(token) else { return false }
                    return pattern.matches(value)
                }
            }
        }
    }
}
