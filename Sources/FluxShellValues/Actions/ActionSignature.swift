/// One case of a store's action enum as the shell shows it: `add(title: String)`.
@_documentation(visibility: internal)
public struct ActionSignature: Sendable, Equatable, CustomStringConvertible {
    public struct Parameter: Sendable, Equatable {
        /// The label, or `nil` for a positional parameter.
        public var label: String?
        /// The key in the case's synthesized `Codable` form: the label, or `_0`, `_1`, …
        public var key: String
        /// The Swift type, e.g. `Int`, `String`, `Filter`, `[Repository]`.
        public var typeName: String {
            didSet { isOptional = typeName.hasSuffix("?") }
        }
        /// The values of an enum-typed parameter (`all`, `active`, `done`), when known.
        public var choices: [String]
        /// How the values of an enum-typed parameter with payloads begin, in the order its cases
        /// are declared: a case without payload as printed (`idle`), one with a payload as its
        /// object form up to its first label (`{"failed":{"reason":`). Tab offers them.
        public var caseOpenings: [String] = []
        /// What Tab offers for the parameter's value: its ``choices``, else its ``caseOpenings``.
        public var completions: [String] { choices.isEmpty ? caseOpenings : choices }
        /// Whether text can give it a value other than `nil` (not for a closure, or an error type
        /// of the app's that is not `Decodable`; an `any Error` takes a string).
        public var hasTextForm: Bool
        /// A value of its type for `usage` (`900` for a `Duration`, `[]` for an `IndexSet`), when
        /// its type's shape gives one; otherwise one is guessed from ``typeName``.
        public var example: String?
        /// An `Optional` parameter: it may be left out, and takes `null`.
        ///
        /// NB: stored, not worked out from ``typeName``: every dispatch asks it of the parameters
        /// left out.
        public private(set) var isOptional: Bool

        public init(label: String?, key: String, typeName: String, choices: [String] = [], hasTextForm: Bool = true) {
            self.label = label
            self.key = key
            self.typeName = typeName
            self.isOptional = typeName.hasSuffix("?")
            self.choices = choices
            self.hasTextForm = hasTextForm
        }
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

    /// Why the case cannot be dispatched from text (`Handle has no text form`), or `nil`: a
    /// parameter that text cannot give and that is not `Optional`.
    public var notDispatchableBecause: String? {
        return parameters.first { !$0.hasTextForm && !$0.isOptional }.map { "\($0.typeName) has no text form" }
    }

    /// An example invocation in command syntax: `add title: "..."`.
    public var usage: String {
        var text = "dispatch " + name
        for parameter in parameters {
            text += " " + (parameter.label.map { "\($0): " } ?? "") + placeholder(parameter)
        }
        return text
    }

    /// Whether `[K: V]`'s inside has a `:` outside nested brackets (`[[String: Int]]` has not).
    private static func hasTopLevelColon(_ text: Substring) -> Bool {
        var depth = 0
        for character in text {
            switch character {
            case "[", "(", "<": depth += 1
            case "]", ")", ">": depth -= 1
            case ":" where depth == 0: return true
            default: break
            }
        }
        return false
    }

    private func placeholder(_ parameter: Parameter) -> String {
        if let first = parameter.choices.first { return first }
        if let example = parameter.example { return example }
        return Self.placeholder(
            typeName: parameter.isOptional ? String(parameter.typeName.dropLast()) : parameter.typeName)
    }

    /// A value for a usage line of a parameter whose type is written `typeName`.
    static func placeholder(typeName: String) -> String {
        switch typeName {
        case "Int", "Int64", "Int32", "Int16", "Int8", "UInt", "UInt64", "UInt32", "UInt16", "UInt8", "Double", "Float",
            "Decimal":
            return "1"
        case "Bool": return "true"
        case "String", "Character": return "\"text\""
        case "Date": return "\"2026-11-22T10:00:00Z\""
        case "URL": return "\"https://example.com\""
        case "UUID": return "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\""
        case "Data": return "\"aGVsbG8=\""
        // NB: `any Error`, which takes the description of the error it makes.
        case "Error": return "\"offline\""
        default:
            // NB: `[Int: String]` is a dictionary (an object); `[String]` and `Set<…>` arrays.
            let isDictionary = typeName.hasPrefix("[") && Self.hasTopLevelColon(typeName.dropFirst().dropLast())
            return (typeName.hasPrefix("[") && !isDictionary) || typeName.hasPrefix("Set<") ? "[]" : "{}"
        }
    }
}
