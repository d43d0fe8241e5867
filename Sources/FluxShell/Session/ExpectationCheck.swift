/// Evaluates `expect PATH OP VALUE`.
enum ExpectationCheck {
    /// `nil` when the expectation holds, else the error that says what was found.
    static func failure(of expectation: Expectation, actual: JSONValue) -> ShellError? {
        let holds: Bool
        let expected = expectation.value
        switch expectation.op {
        case .equal: holds = actual == expected
        case .notEqual: holds = actual != expected
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = compare(actual, expected) else {
                return ShellError(
                    "expect \(expectation.path) \(expectation.op.rawValue) \(JSONText.compact(expected)): cannot order \(actual.kindName) and \(expected.kindName)",
                    hint: "< <= > >= compare two numbers or two strings; found \(JSONText.compact(actual))")
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
                    "expect \(expectation.path) contains \(JSONText.compact(expected)): \(expectation.path) is \(actual.kindName)",
                    hint: "contains looks in an array, an object's keys (give a string) or a string")
            }
        }
        guard !holds else { return nil }
        return ShellError(
            "expectation failed: \(expectation.path) \(expectation.op.rawValue) \(JSONText.compact(expected))",
            hint: "actual: \(abbreviate(JSONText.compact(actual)))")
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
