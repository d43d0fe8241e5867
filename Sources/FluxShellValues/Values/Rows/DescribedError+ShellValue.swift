import FluxShellJSON

// “Printed values”, rule 1, and “Stores of every architecture” in the reference: an error prints as
// its description. The `Error` existential is typed as a string, which makes a `DescribedError`
// with that description, printed back as the string. An error type of the user's own keeps its own
// form (its `Decodable` one, where it has one).

extension DescribedError: ShellValue {
    static var examples: [JSONValue] { [.string("offline"), .string("timed out"), .string("not found")] }

    func shellValue(_ reader: ValueReader) -> JSONValue { .string(description) }

    static func parse(_ value: JSONValue, at path: [any CodingKey]) throws -> DescribedError {
        try parseString(value, at: path, expected: "a string (the error's description)", DescribedError.init)
    }

    /// Whether `type` is the `Error` existential (`any Error`, also `any Error & Sendable`: the
    /// same type at run time), whose values text makes as `DescribedError`s.
    static func isErrorExistential(_ type: Any.Type) -> Bool { type == (any Error).self }

    /// The value of `T`, the `Error` existential, that `value` makes: a `DescribedError` whose
    /// description is the string `value`.
    static func existential<T>(_: T.Type, from value: JSONValue, at path: [any CodingKey]) throws -> T {
        // NB: `T` is `any Error` (see `isErrorExistential`), which holds any error.
        try parse(value, at: path) as! T
    }
}
