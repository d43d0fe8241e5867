/// `dispatch NAME ARG...`: an action's case name and its arguments, as typed.
@_documentation(visibility: internal)
public struct ActionInvocation: Sendable, Equatable, CustomStringConvertible {
    public struct Argument: Sendable, Equatable {
        public var label: String?
        public var value: JSONValue

        public init(label: String?, value: JSONValue) {
            self.label = label
            self.value = value
        }
    }

    public var name: String
    public var arguments: [Argument]

    public init(name: String, arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }

    // NB: inlinable, for the session, which asks on every dispatch whether the action is the
    // one it resolved last: a call into another module on every piped line otherwise.
    @inlinable
    public static func == (left: ActionInvocation, right: ActionInvocation) -> Bool {
        left.name == right.name && left.arguments == right.arguments
    }

    /// The invocation in command syntax: `rename id: 2 title: "Buy milk"`.
    public var description: String {
        var text = name
        for argument in arguments {
            text += " "
            if let label = argument.label { text += label + ": " }
            text += ArgumentText.render(argument.value)
        }
        return text
    }
}

/// Values as arguments: a string that reads back as the same bare word prints bare.
package enum ArgumentText {
    public static func render(_ value: JSONValue) -> String {
        if case .string(let string) = value, isBareWord(string) { return string }
        return JSONText.compact(value)
    }

    package static func isBareWord(_ string: String) -> Bool {
        guard !string.isEmpty, !["true", "false", "null"].contains(string) else { return false }
        guard let first = string.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
            return false
        }
        return string.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                || $0 == "/" || $0 == "."
        }
    }
}
