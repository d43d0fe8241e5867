/// What Tab does with the candidates the shell offers for the word before the cursor: the line
/// editor applies it.
package enum TabCompletion: Equatable {
    /// No candidate: the terminal beeps.
    case beep
    /// Text put in at the cursor: the rest of the one candidate, with a space after a word that
    /// is whole (not after a path that goes on: `todos[`, `todos.`, `Scenarios/`); or what every
    /// candidate has beyond the word. Empty when there is nothing to add.
    case insert(String)
    /// Several candidates with nothing more in common: listed in columns under the line, as
    /// wide as `width`.
    case list(String)

    /// What Tab does when the shell offers `candidates` for `word`, the end of the line before
    /// the cursor, on a terminal `width` columns wide.
    package init(word: String, candidates: [String], width: Int = 80) {
        guard var common = candidates.first else {
            self = .beep
            return
        }
        if candidates.count == 1 {
            let insertion = String(common.dropFirst(word.count))
            let goesOn = common.last.map { "[./".contains($0) } ?? true
            self = .insert(insertion + (goesOn ? "" : " "))
            return
        }
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(common) { common.removeLast() }
        }
        if common.count > word.count {
            self = .insert(String(common.dropFirst(word.count)))
            return
        }
        let columnWidth = (candidates.map(\.count).max() ?? 0) + 2
        let columns = max(1, width / columnWidth)
        var text = "\n"
        for (index, candidate) in candidates.enumerated() {
            text += candidate + String(repeating: " ", count: columnWidth - candidate.count)
            if index % columns == columns - 1 || index == candidates.count - 1 { text += "\n" }
        }
        self = .list(text)
    }
}
