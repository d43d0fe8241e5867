import FluxShellSystem

/// What went wrong, as data: a line that failed, expected diff lines that did not hold, a file
/// that could not be read. Made by the runner and the command line; written only by the
/// renderer (`FILE:LINE: error: MESSAGE (HINT)` and detail lines in text, one object in JSON).
public struct Diagnostic: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A command failed and changed nothing, or a line could not be read or parsed.
        case failedLine
        /// A command's expected diff lines do not match what it printed (or are missing, when
        /// they must be there): `test --update` rewrites them.
        case diffMismatch
        /// An `expect` or `invariants` that does not hold (one that cannot be checked is a
        /// failed line).
        case unmetExpectation
        /// Nothing ran: a file, an option or the command line itself is wrong.
        case usage
        /// Not an error: something skipped that the user should know of (a link that loops).
        case warning
    }

    public var kind: Kind
    public var message: String
    /// The way out, when we can tell: printed in parentheses after the message.
    public var hint: String?
    /// Where the line came from; `nil` for what concerns no line (an option, a missing file).
    public var location: SourceLocation?
    /// The line is one of a file `read` runs: its location is printed even where errors are not
    /// located (the interactive shell), and JSON names its file.
    public var isInReadFile = false
    /// Lines below the message: the expected lines beside the actual ones, what a command printed.
    public var details: [String]
    /// For expected diff lines that did not hold: the lines as written and the lines the command
    /// printed, for `--format json` (`nil` otherwise).
    public var diff: (expected: [String], actual: [String])? {
        get { diffLines.map { ($0.expected, $0.actual) } }
        set { diffLines = newValue.map { DiffLines(expected: $0.expected, actual: $0.actual) } }
    }
    private var diffLines: DiffLines?
    private struct DiffLines: Sendable, Equatable {
        var expected: [String]
        var actual: [String]
    }

    /// A diagnostic of `kind`; `line`, the line it concerns, gives the column of a long word the
    /// message quotes (cut short, with its length).
    public init(
        _ kind: Kind, _ message: String, hint: String? = nil, at location: SourceLocation? = nil,
        details: [String] = [], line: String? = nil
    ) {
        self.kind = kind
        self.message = Self.excerpted(message, from: line)
        self.hint = hint.map { Self.excerpted($0, from: line) }
        self.location = location
        self.details = details
    }

    /// A failed command or line.
    public init(_ error: ShellError, at location: SourceLocation? = nil, kind: Kind = .failedLine, line: String? = nil)
    {
        self.init(
            error.isUnmetExpectation ? .unmetExpectation : kind, error.message, hint: error.hint, at: location,
            details: error.details, line: line)
    }

    /// The most characters of one word (a run without a space) that an error quotes.
    public static let excerptLength = 200

    /// `text` with each word longer than ``excerptLength`` characters cut to its first ones and
    /// `...`, then its length and, when it is found in `line`, its column: an error about a
    /// 10 MB token is a line, not 10 MB. Characters are counted as columns are, in Unicode
    /// scalars.
    ///
    /// ```text
    /// unknown action 'aaaa…aaa...' [1,000,000 characters at column 10] for store 'counter'
    /// ```
    static func excerpted(_ text: String, from line: String?) -> String {
        guard text.utf8.count > excerptLength else { return text }
        // NB: words are found in the bytes (a space is one byte, never inside a character's), and
        // only a long one is read as characters: a 16 MiB message is cut in a few milliseconds.
        let words = text.utf8.split(separator: 0x20, omittingEmptySubsequences: false)
        var text = text
        if words.contains(where: { $0.count > excerptLength }) {
            text = words.map { excerpted(Substring($0), from: line) }.joined(separator: " ")
        }
        // NB: many short words (a long quoted sentence) are cut in the middle, keeping the end,
        // which says what the message is about (`for store 'counter'`).
        guard text.utf8.count > 5 * excerptLength else { return text }
        let scalars = text.unicodeScalars
        let length = scalars.count
        guard length > 5 * excerptLength else { return text }
        let start = String(scalars.prefix(4 * excerptLength))
        let end = String(scalars.suffix(excerptLength / 2))
        return start + " ... " + end + " [\(grouped(length)) characters]"
    }

    private static func excerpted(_ word: Substring, from line: String?) -> String {
        guard word.utf8.count > excerptLength else { return String(word) }
        let scalars = word.unicodeScalars
        // NB: the quotes, brackets and punctuation around the text stay, so that the excerpt
        // still reads as quoted; they are not counted in its length.
        let opening = scalars.prefix(3).prefix { "'\"([{".unicodeScalars.contains($0) }.count
        let close = scalars.suffix(3).reversed().prefix { "'\")]}:,;.".unicodeScalars.contains($0) }.count
        let length = scalars.count - opening - close
        guard length > excerptLength else { return String(word) }
        let head = Substring(scalars.prefix(opening + excerptLength))
        let column = line.flatMap { Bytes.column(of: head.dropFirst(opening), in: $0) }
        let place = column.map { " at column \($0)" } ?? ""
        return "\(head)...\(Substring(scalars.suffix(close))) [\(grouped(length)) characters\(place)]"
    }

    /// `1234567` as `1,234,567`.
    private static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return digits
    }

    /// Whether `test --update` would fix it.
    public var fixableByUpdate: Bool { kind == .diffMismatch }

    /// `MESSAGE (HINT)`: the first line without `error: ` and the location.
    public var text: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
