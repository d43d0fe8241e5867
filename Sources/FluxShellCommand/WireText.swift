import FluxShell

/// What an app sends over its socket, as `fluxsh attach` shows it on a terminal: its control
/// characters (an escape code that sets the terminal's title or moves its cursor, a bell, a NUL)
/// are written as `\u{1B}`, so that no app makes the terminal obey codes; only the colors the shell
/// asked for (`ESC [ … m`) pass. Written to a pipe or a file, the text is left as sent.
struct WireText {
    /// Whether the text goes to a terminal.
    let toTerminal: Bool
    /// Whether color codes pass (the shell asked the app for colors).
    let colors: Bool

    func shown(_ text: String) -> String {
        guard toTerminal else { return text }
        guard colors else { return Renderer.visible(text) }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(of: "\u{1B}") else { return Renderer.visible(text) }
        var shown = Renderer.visible(String(scalars[..<first]))
        var rest = scalars[first...]
        while let escape = rest.firstIndex(of: "\u{1B}") {
            shown += Renderer.visible(String(rest[..<escape]))
            let after = rest[rest.index(after: escape)...]
            if let end = Self.colorCodeEnd(after) {
                shown += String(rest[escape..<end])
                rest = rest[end...]
            } else {
                shown += Renderer.visible("\u{1B}")
                rest = after
            }
        }
        return shown + Renderer.visible(String(rest))
    }

    /// Where a color code (`[`, digits and `;`, then `m`) that starts `scalars` ends; `nil` when
    /// it is not one.
    private static func colorCodeEnd(_ scalars: Substring.UnicodeScalarView) -> String.Index? {
        guard scalars.first == "[" else { return nil }
        var index = scalars.index(after: scalars.startIndex)
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "m" { return scalars.index(after: index) }
            guard scalar == ";" || ("0"..."9").contains(scalar) else { return nil }
            index = scalars.index(after: index)
        }
        return nil
    }
}
