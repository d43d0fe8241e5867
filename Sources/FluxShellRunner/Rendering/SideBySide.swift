import FluxShellValues

/// Expected and actual diff lines in two columns, differing rows marked.
enum SideBySide {
    /// The widest a column's text is shown.
    static let maximumWidth = 60

    /// One row: the expected and the actual line side by side (either may be empty).
    struct Row {
        var expected: String
        var actual: String
        var differs: Bool
    }

    /// Each expected line beside the actual line for the same sign and path (`~ nextID: `), in
    /// the order both were written; a line with no such partner alone on its row.
    static func render(expected: [String], actual: [String]) -> [String] {
        render(pairs(expected: expected, actual: actual), expected: expected, actual: actual)
    }

    /// The rows `pairs` gives, side by side.
    static func render(_ pairs: [(expected: Int?, actual: Int?)], expected: [String], actual: [String]) -> [String] {
        render(
            pairs.map { e, a in
                let left = e.map { expected[$0] } ?? ""
                let right = a.map { actual[$0] } ?? ""
                return Row(expected: left, actual: right, differs: left != right)
            })
    }

    /// The rows of expected and actual lines, paired where their sign and path are the same (the
    /// edit script of the two lists of keys keeps them), each other line alone, removals before
    /// insertions: indices into `expected` and `actual`, `nil` on the side a row has no line.
    static func pairs(expected: [String], actual: [String]) -> [(expected: Int?, actual: Int?)] {
        func key(_ line: String) -> Substring { PrintedDiffLine(line[...])?.head ?? line[...] }
        var alone = (expected: Set<Int>(), actual: Set<Int>())
        for edit in ArrayEdit.edits(from: expected.map(key), to: actual.map(key), pairsChanges: false) {
            switch edit {
            case .removed(let index): alone.expected.insert(index)
            case .inserted(let index): alone.actual.insert(index)
            case .changed: break
            }
        }
        var rows: [(expected: Int?, actual: Int?)] = []
        var (e, a) = (0, 0)
        while e < expected.count || a < actual.count {
            if e < expected.count, alone.expected.contains(e) {
                rows.append((e, nil))
                e += 1
            } else if a < actual.count, alone.actual.contains(a) || e == expected.count {
                rows.append((nil, a))
                a += 1
            } else {
                rows.append((e, a < actual.count ? a : nil))
                e += 1
                a += 1
            }
        }
        return rows
    }

    /// As `alignment` lays them: each line found beside its actual line, `...` beside the first
    /// of the lines it stands for, lines not found or not expected alone on their row.
    static func render(_ alignment: ExpectedDiff.Alignment, expected: [String], actual: [String]) -> [String] {
        var rows: [Row] = []
        for step in alignment.steps {
            switch step {
            case .matched(let e, let a): rows.append(Row(expected: expected[e], actual: actual[a], differs: false))
            case .replaced(let e, let a): rows.append(Row(expected: expected[e], actual: actual[a], differs: true))
            case .missing(let e): rows.append(Row(expected: expected[e], actual: "", differs: true))
            case .unexpected(let a): rows.append(Row(expected: "", actual: actual[a], differs: true))
            case .ellipsis(let e, let covers):
                guard let first = covers.first else {
                    rows.append(Row(expected: expected[e], actual: "", differs: false))
                    continue
                }
                for a in covers {
                    rows.append(Row(expected: a == first ? expected[e] : "", actual: actual[a], differs: false))
                }
            }
        }
        return render(rows)
    }

    /// The rows in two columns, the expected one at most ``maximumWidth`` wide. A differing row
    /// whose expected line is wider is shown whole instead, the expected line above the actual
    /// one, with a `^` under the first character that differs: the value that differs, which
    /// may come late in a long line (a date at the end of an object), is never cut off.
    static func render(_ rows: [Row]) -> [String] {
        func isStacked(_ row: Row) -> Bool { row.differs && row.expected.count > maximumWidth }
        let width = min(maximumWidth, max(8, rows.lazy.filter { !isStacked($0) }.map(\.expected.count).max() ?? 0))
        func cell(_ text: String) -> String {
            let clipped = clipped(text, to: width)
            return clipped + String(repeating: " ", count: width - clipped.count)
        }
        var lines = ["    " + cell("expected") + " | actual"]
        for row in rows {
            guard isStacked(row) else {
                lines.append("  " + (row.differs ? "≠ " : "  ") + cell(row.expected) + " | " + row.actual)
                continue
            }
            lines.append("  ≠ expected: " + row.expected)
            guard !row.actual.isEmpty else { continue }
            lines.append("      actual: " + row.actual)
            let same = zip(row.expected, row.actual).prefix { $0 == $1 }.count
            // NB: no mark under a `*`, which stands for whatever the actual line has there.
            if row.expected.dropFirst(same).first != "*" {
                lines.append(String(repeating: " ", count: 14 + same) + "^")
            }
        }
        return lines
    }

    /// `text`, cut to `width` characters with `…` when longer.
    static func clipped(_ text: String, to width: Int = maximumWidth) -> String {
        text.count > width ? String(text.prefix(width - 1)) + "…" : text
    }
}
