/// ANSI colors, on a terminal only: `+` green, `-` red, `~` yellow, errors red.
struct Colors {
    let enabled: Bool

    /// Colors for standard output: on a terminal only, never with `--no-color` or `NO_COLOR`.
    static func forStandardOutput(noColor: Bool) -> Colors {
        Colors(enabled: !noColor && Platform.environment("NO_COLOR") == nil && Platform.isTerminal(1))
    }

    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func dim(_ text: String) -> String { wrap(text, "2") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// A diff or error line, colored by its first character.
    func line(_ text: String) -> String {
        guard enabled else { return text }
        if text.hasPrefix("+ ") { return green(text) }
        if text.hasPrefix("- ") { return red(text) }
        if text.hasPrefix("~ ") { return yellow(text) }
        if text.hasPrefix("=> ") { return dim(text) }
        if text.hasPrefix("error:") { return red(text) }
        return text
    }
}
