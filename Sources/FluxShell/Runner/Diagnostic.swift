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
    /// Lines below the message: the expected lines beside the actual ones, what a command printed.
    public var details: [String]

    public init(
        _ kind: Kind, _ message: String, hint: String? = nil, at location: SourceLocation? = nil, details: [String] = []
    ) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.location = location
        self.details = details
    }

    /// A failed command or line.
    public init(_ error: ShellError, at location: SourceLocation? = nil, kind: Kind = .failedLine) {
        self.init(
            error.isUnmetExpectation ? .unmetExpectation : kind, error.message, hint: error.hint, at: location,
            details: error.details)
    }

    /// Whether `test --update` would fix it.
    public var fixableByUpdate: Bool { kind == .diffMismatch }

    /// `MESSAGE (HINT)`: the first line without `error: ` and the location.
    public var text: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}
