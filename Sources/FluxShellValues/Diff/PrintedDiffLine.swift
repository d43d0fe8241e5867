import FluxShellJSON

/// A `~`, `+` or `-` diff line as text (printed, or written in a scenario), cut into its parts
/// without reading its values: `~ PATH: OLD -> NEW`, `+ PATH: NEW`, `- PATH: OLD`.
package struct PrintedDiffLine {
    /// The sign, the path and `: ` (`~ todos[0].done: `).
    package var head: Substring
    /// The path as written (`todos[0].done`).
    var path: Substring
    /// `~`'s old and new value; the one value of `+` and `-`; a `~` line without ` -> ` has one.
    package var values: [Substring]

    /// Whether the values are the old and new of a `~` line, or the old one of a `-` line.
    package var isChange: Bool { head.hasPrefix("~") }
    var isRemoval: Bool { head.hasPrefix("-") }

    /// The separator of a `~` line's old and new values.
    package static let arrow = " -> "

    /// `nil` for a line that is not a `~`, `+` or `-` line with a path.
    package init?(_ line: Substring) {
        guard line.hasPrefix("~ ") || line.hasPrefix("+ ") || line.hasPrefix("- "),
            let colon = ValuePattern.firstOutsideQuotes(": ", in: line.dropFirst(2), atDepthZero: true)
        else { return nil }
        head = line[..<line.utf8.index(colon, offsetBy: 2)]
        path = line[line.utf8.index(line.startIndex, offsetBy: 2)..<colon]
        let rest = line[head.endIndex...]
        if line.hasPrefix("~ "), let arrow = ValuePattern.firstOutsideQuotes(Self.arrow, in: rest, atDepthZero: true) {
            values = [rest[..<arrow], rest[rest.utf8.index(arrow, offsetBy: Self.arrow.utf8.count)...]]
        } else {
            values = [rest]
        }
    }
}
