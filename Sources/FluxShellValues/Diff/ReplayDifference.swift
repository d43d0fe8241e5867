import FluxShellJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where the same actions, run again, left a value other than the first time: a scenario's
/// expected line against what `test` printed, explore's run against its replay, a state kept for
/// `undo` against the one its actions make again. What an error names, with how to pin it.
package struct ReplayDifference: Equatable {
    /// The first path whose value differs, at its deepest (`todos[0].createdAt`).
    var path: ValuePath
    /// The value there the first time, and when run again (`nil`: nothing there).
    var first: JSONValue?
    var again: JSONValue?
    /// Whether these are the values before the change (a `~` line's old value, a `-` line's).
    var isOldValue = false
    /// Whether the two values print alike, though they differ (two dates in one millisecond).
    var printsAlike = false

    package init(
        path: ValuePath, first: JSONValue?, again: JSONValue?, isOldValue: Bool = false, printsAlike: Bool = false
    ) {
        self.path = path
        self.first = first
        self.again = again
        self.isOldValue = isOldValue
        self.printsAlike = printsAlike
    }

    /// The first difference from `first` to `again`, two states of one type, also where they
    /// print alike; `nil` when none is found.
    package static func between<State>(_ first: State, _ again: State) -> ReplayDifference? {
        if let entry = ValueDiffer.entries(from: first, to: again).first {
            return ReplayDifference(path: entry.path, first: entry.old, again: entry.new)
        }
        return ValueDiffer.firstDifference(from: first, to: again).map {
            ReplayDifference(path: $0, first: nil, again: nil, printsAlike: true)
        }
    }

    /// The first difference from `first` to `again`, values at `path`; `nil` when they are equal.
    package static func between(_ first: JSONValue, _ again: JSONValue, at path: ValuePath) -> ReplayDifference? {
        var entries: [DiffEntry] = []
        StateDiff.diff(first, again, at: path, into: &entries)
        return entries.first.map { ReplayDifference(path: $0.path, first: $0.old, again: $0.new) }
    }

    /// The first difference between two diff lines for the same place: `first`, as the earlier run
    /// printed it (or an expected line, whose `*` matches anything), and `again`, as this one
    /// did; `nil` when they are not lines for the same path or do not differ in a value.
    package static func between(lines first: String, _ again: String) -> ReplayDifference? {
        guard let before = PrintedDiffLine(first[...]), let after = PrintedDiffLine(again[...]),
            before.head == after.head, before.values.count == after.values.count,
            let path = try? ValuePath.parse(before.path)
        else { return nil }
        for (index, (written, printed)) in zip(before.values, after.values).enumerated() {
            guard let value = try? JSONParser.parse(printed), let pattern = try? ValuePattern.parse(written),
                var difference = between(pattern.filled(from: value), value, at: path)
            else { continue }
            difference.isOldValue = before.isRemoval || (before.isChange && index == 0)
            return difference
        }
        return nil
    }

    /// Whether the value may be one that changes from run to run, so that how to pin it is worth
    /// saying: two values that print alike (two dates in one millisecond), a value that looks
    /// like a date, an id or a random number (an ISO 8601 date, a UUID, a number of ten digits or
    /// more, a fraction of six or more), or one at a path named so (`createdAt`, `id`, `seed`).
    package var mayChangeFromRunToRun: Bool {
        if printsAlike { return true }
        if let name = path.segments.last(where: { $0.keyText != nil })?.keyText,
            Self.words(of: name).contains(where: Self.unpinnedWords.contains)
        {
            return true
        }
        return [first, again].contains { $0.map(Self.looksUnpinned) ?? false }
    }

    /// Words that name a date, an id or a random number in a member's name (`createdAt`,
    /// `nextID`, `session_token`).
    private static let unpinnedWords: Set<String> = [
        "at", "date", "time", "timestamp", "stamp", "now", "id", "ids", "uuid", "random", "seed", "nonce", "token",
    ]

    /// The words of a member's name, lowercased: split where a lowercase letter or a digit meets
    /// an uppercase one, and at `_` (`createdAt` is `created at`, `nextID` is `next id`).
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in name {
            if character == "_" || character == "-" {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                if character.isUppercase, let previous, previous.isLowercase || previous.isNumber, !word.isEmpty {
                    words.append(word)
                    word = ""
                }
                word.append(Character(character.lowercased()))
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// Whether `value` (or a value inside it) looks like a date, an id or a random number.
    private static func looksUnpinned(_ value: JSONValue) -> Bool {
        switch value {
        case .int(let number): return number.magnitude >= 1_000_000_000
        case .double(let number):
            guard number.isFinite else { return false }
            let digits = String(number).split(separator: ".").last.map { $0.prefix { $0.isNumber }.count } ?? 0
            return number.magnitude >= 1_000_000_000 || digits >= 6 || String(number).contains("e")
        case .number: return true
        case .string(let text):
            return ISO8601.parse(text) != nil || UUID(uuidString: text) != nil
        case .array(let elements): return elements.contains(where: looksUnpinned)
        case .object(let object): return object.values.contains(where: looksUnpinned)
        case .null, .bool: return false
        }
    }

    /// `todos[0].createdAt: "2026-11-22T10:00:05Z" where THEN "2026-11-22T10:00:00Z"`, with what
    /// showed the first value (`it showed`, `the expected line has`). A long value is shown from
    /// a little before where the two first differ, and cut after 60 characters.
    package func clause(where then: String) -> String {
        guard !printsAlike else { return "\(path), another value that prints alike" }
        let first = self.first.map(JSONText.compact)
        let again = self.again.map(JSONText.compact)
        let same = first.flatMap { first in again.map { zip(first, $0).prefix { $0 == $1 }.count } } ?? 0
        func shown(_ text: String?) -> String {
            guard let text else { return "nothing" }
            guard text.count > Self.widest else { return text }
            let start = max(0, min(same - 20, text.count - Self.widest))
            let shown = text.dropFirst(start).prefix(Self.widest)
            return (start > 0 ? "…" : "") + shown + (start + shown.count < text.count ? "…" : "")
        }
        return "\(path)\(isOldValue ? " (its old value)" : ""): \(shown(again)) where \(then) \(shown(first))"
    }

    /// The most characters of a value a clause shows.
    private static let widest = 60

    /// How to make a value that differs from run to run the same in every run.
    package static let pinning =
        "read dates, ids and random numbers from the session's environment (env.now, env.uuid(), env.random "
        + "in make: { env in … }, or an effect's context.environment), "
        + "or use catalog.pinningDependencies() with swift-dependencies"

    /// The hint for a difference between an expected diff line and what a run printed.
    package static let pinningOrMatching =
        "if it changes from run to run, pin it: \(pinning); or write * for it in the expected line"
}
