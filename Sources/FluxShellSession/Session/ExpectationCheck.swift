import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// Evaluates `expect PATH OP VALUE` at one place.
struct ExpectationCheck {
    let expectation: Expectation
    /// The VALUE, read already when it was `$PATH`.
    let expected: JSONValue
    /// The VALUE when it has `*` where any value may stand (`==` only): `expected` is its value
    /// written, `null` at each `*`.
    var pattern: ValuePattern?

    /// `nil` when the expectation holds for `actual`, else the error that says what was found.
    ///
    /// - Parameter place: the element's own path when the expectation's path has `[*]`, so that
    ///   the error names the element that failed (`todos[3].done is true`).
    func failure(actual: JSONValue, at place: ValuePath?) -> ShellError? {
        let holds: Bool
        switch expectation.op {
        case .equal: holds = pattern?.matches(actual) ?? (actual == expected)
        case .notEqual: holds = actual != expected
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = Self.compare(actual, expected) else {
                return ShellError(
                    "expect \(stated): cannot order \(actual.kindName) and \(expected.kindName)\(elementNote(place, actual))",
                    hint:
                        "< <= > >= compare two numbers or two strings; found \(Self.abbreviate(JSONText.compact(actual)))"
                )
            }
            switch expectation.op {
            case .less: holds = order < 0
            case .lessOrEqual: holds = order <= 0
            case .greater: holds = order > 0
            default: holds = order >= 0
            }
        case .contains:
            switch (actual, expected) {
            case (.array(let elements), _): holds = elements.contains(expected)
            case (.object(let object), .string(let key)): holds = object[key] != nil
            case (.string(let text), .string(let part)): holds = text.contains(part)
            default:
                return ShellError(
                    "expect \(stated): \(place ?? expectation.path) is \(actual.kindName)",
                    hint: "contains looks in an array, an object's keys (give a string) or a string")
            }
        }
        guard !holds else { return nil }
        // NB: from the pattern with what `actual` has where each `*` stands: no `*` is a difference.
        let expected = pattern?.filled(from: actual) ?? expected
        if expectation.op == .equal, place == nil, let differences = differences(from: expected, to: actual) {
            return differences
        }
        if let place {
            return ShellError(
                "expectation failed: \(stated): \(place) is \(Self.abbreviate(JSONText.compact(actual)))",
                hint: resolvedNote, unmetExpectation: true)
        }
        return ShellError(
            "expectation failed: \(stated)",
            hint: "actual: \(Self.abbreviate(JSONText.compact(actual)))" + (resolvedNote.map { "; " + $0 } ?? ""),
            unmetExpectation: true)
    }

    /// An `==` between two arrays or objects that does not hold, as the diff lines from the expected
    /// value to the actual one (at most ``maximumDifferences``), rather than both values whole.
    private func differences(from expected: JSONValue, to actual: JSONValue) -> ShellError? {
        switch (expected, actual) {
        case (.array, .array), (.object, .object): break
        default: return nil
        }
        var entries: [DiffEntry] = []
        StateDiff.diff(expected, actual, at: expectation.path, into: &entries)
        guard !entries.isEmpty else { return nil }
        var details = entries.prefix(Self.maximumDifferences).map { "    " + $0.line }
        if entries.count > Self.maximumDifferences {
            details.append("    (\(entries.count - Self.maximumDifferences) more)")
        }
        let count = entries.count == 1 ? "1 difference" : "\(entries.count) differences"
        var stated = self.stated
        if stated.count > 120 { stated = String(stated.prefix(117)) + "..." }
        return ShellError(
            "expectation failed: \(stated): \(count), from the expected value to the actual one:", hint: resolvedNote,
            unmetExpectation: true, details: details)
    }

    /// How many diff lines a failed `==` shows.
    static let maximumDifferences = 40

    /// The expectation as typed, with a literal VALUE shown as compact JSON.
    private var stated: String { expectation.description }

    /// What a `$PATH` VALUE read, when it was one.
    private var resolvedNote: String? {
        guard case .path(let path) = expectation.value else { return nil }
        return "$\(path) is \(Self.abbreviate(JSONText.compact(expected)))"
    }

    private func elementNote(_ place: ValuePath?, _ actual: JSONValue) -> String {
        place.map { " (\($0) is \(Self.abbreviate(JSONText.compact(actual))))" } ?? ""
    }

    static func abbreviate(_ text: String) -> String {
        text.count > 400 ? String(text.prefix(397)) + "..." : text
    }

    /// -1, 0 or 1 for two numbers or two strings; `nil` for anything else.
    static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int? {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a < b ? -1 : a == b ? 0 : 1
        default: return NumberOrder.compare(lhs, rhs)
        }
    }
}
