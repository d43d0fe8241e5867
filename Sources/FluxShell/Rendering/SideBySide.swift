/// Expected and actual diff lines in two columns, differing rows marked.
enum SideBySide {
    static func render(expected: [String], actual: [String]) -> [String] {
        let width = min(60, max(8, expected.map(\.count).max() ?? 0))
        func cell(_ text: String) -> String {
            let clipped = text.count > width ? String(text.prefix(width - 1)) + "…" : text
            return clipped + String(repeating: " ", count: width - clipped.count)
        }
        var lines = ["    " + cell("expected") + " | actual"]
        for row in 0..<max(expected.count, actual.count) {
            let left = row < expected.count ? expected[row] : ""
            let right = row < actual.count ? actual[row] : ""
            let marker = left == right ? "  " : "≠ "
            lines.append("  " + marker + cell(left) + " | " + right)
        }
        return lines
    }
}
