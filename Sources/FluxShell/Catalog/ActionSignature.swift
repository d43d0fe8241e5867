/// One case of a store's action enum as the shell shows it: `add(title: String)`.
public struct ActionSignature: Sendable, Equatable, CustomStringConvertible {
    public struct Parameter: Sendable, Equatable {
        /// The label, or `nil` for a positional parameter.
        public var label: String?
        /// The key in the case's synthesized `Codable` form: the label, or `_0`, `_1`, …
        public var key: String
        /// The Swift type, e.g. `Int`, `String`, `Filter`, `[Repository]`.
        public var typeName: String
        /// The values of an enum-typed parameter (`all`, `active`, `done`), when known.
        public var choices: [String]
    }

    public var name: String
    public var parameters: [Parameter]

    /// `add(title: String)`, `add(Int)`, `increment`.
    public var description: String {
        guard !parameters.isEmpty else { return name }
        let list = parameters.map { parameter in
            (parameter.label.map { "\($0): " } ?? "") + parameter.typeName
        }
        return name + "(" + list.joined(separator: ", ") + ")"
    }

    /// An example invocation in command syntax: `add title: "..."`.
    public var usage: String {
        var text = "dispatch " + name
        for parameter in parameters {
            text += " " + (parameter.label.map { "\($0): " } ?? "") + placeholder(parameter)
        }
        return text
    }

    private func placeholder(_ parameter: Parameter) -> String {
        if let first = parameter.choices.first { return first }
        switch parameter.typeName {
        case "Int", "Int64", "Int32", "UInt", "Double", "Float": return "1"
        case "Bool": return "true"
        case "String": return "\"text\""
        default: return parameter.typeName.hasPrefix("[") ? "[]" : "{}"
        }
    }
}
