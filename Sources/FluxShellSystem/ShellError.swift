/// A failed command: what went wrong and, where we can tell, the way out. Reported as a
/// `Diagnostic`, which the engine's renderer writes (`FILE:LINE: error: MESSAGE (HINT)`).
public struct ShellError: Error, Sendable, Equatable {
    public var message: String
    public var hint: String?
    /// An `expect` or `invariants` that could be checked and does not hold, rather than one that
    /// cannot be checked (a path that is not there, values that cannot be ordered).
    public var isUnmetExpectation: Bool
    /// Lines below the message (what differs between an expected value and the actual one).
    public var details: [String]

    public init(_ message: String, hint: String? = nil, unmetExpectation: Bool = false, details: [String] = []) {
        self.message = message
        self.hint = hint
        self.isUnmetExpectation = unmetExpectation
        self.details = details
    }

    /// `MESSAGE (HINT)`
    public var text: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}

/// Where a command came from: a file (or `<stdin>`) and a line number.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    public var description: String { "\(file):\(line)" }
}

/// "Did you mean …?" by edit distance.
package enum Suggestion {
    public static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String? {
        closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
    }

    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let limit = max(1, min(3, word.count / 2))
        var best: (String, Int)?
        let lowered = word.lowercased()
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased(), limit: limit)
            if distance <= limit, distance < best?.1 ?? .max { best = (candidate, distance) }
            if candidate.lowercased().hasPrefix(lowered), lowered.count >= 2, best == nil {
                best = (candidate, limit)
            }
        }
        return best?.0
    }

    /// Levenshtein distance, giving up (returning `limit + 1`) on long inputs.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.unicodeScalars.prefix(64))
        let b = Array(b.unicodeScalars.prefix(64))
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...max(1, a.count) where !a.isEmpty {
            current[0] = i
            for j in 1...max(1, b.count) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
