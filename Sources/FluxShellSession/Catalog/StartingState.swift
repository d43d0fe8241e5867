import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// The state a store begins from when `load NAME with STATE` gives one (a scenario saved while
/// attached begins where the app was): built from its printed form, as action arguments are.
@usableFromInline
enum StartingState {
    /// `json` as a `State`, or a located error that says where it does not fit.
    @usableFromInline
    static func build<State>(_ type: State.Type, from json: JSONValue, store alias: String) throws(ShellError)
        -> State
    {
        do {
            return try ValueBuilder.build(State.self, from: json, at: [])
        } catch let error as DecodingError {
            let (path, reason): ([any CodingKey], String) =
                switch error {
                case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                    (context.codingPath, context.debugDescription)
                case .keyNotFound(let key, let context): (context.codingPath + [key], "missing")
                @unknown default: ([], "\(error)")
                }
            throw ShellError(
                "the state given to store '\(alias)' does not fit \(TypeNames.display(State.self))"
                    + "\(Self.place(path)): \(reason)",
                hint: "give the state as 'state' prints it")
        } catch let error as NoTextForm {
            throw ShellError(
                "store '\(alias)' cannot begin from a given state: \(TypeNames.display(error.type))"
                    + "\(Self.place(error.codingPath)) has no text form",
                hint: "load it without 'with'")
        } catch {
            throw ShellError(
                "the state given to store '\(alias)' does not fit \(TypeNames.display(State.self)): \(error)")
        }
    }

    /// ` at todos[0].title`, or nothing for the whole state.
    private static func place(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        let text = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return " at " + text.drop { $0 == "." }
    }
}
