import FluxShellJSON
import FluxShellSystem

/// Between typed actions and their command syntax.
@usableFromInline
enum ActionText {
    /// The argument for each parameter of a signature, in declaration order (`nil`: left out).
    enum Arguments {
        /// The invocation's own list, whose arguments come in declaration order (the usual case).
        case inOrder([ActionInvocation.Argument])
        /// One slot per parameter.
        case slots(ContiguousArray<JSONValue?>)

        subscript(parameter: Int) -> JSONValue? {
            switch self {
            case .inOrder(let arguments): parameter < arguments.count ? arguments[parameter].value : nil
            case .slots(let slots): slots[parameter]
            }
        }
    }

    /// The arguments of `invocation`, one per parameter of `signature` in declaration order
    /// (`nil`: left out): labels matched to the parameters' labels, positional arguments by position.
    static func arguments(of invocation: ActionInvocation, for signature: ActionSignature) throws(ShellError)
        -> Arguments
    {
        let parameters = signature.parameters
        // NB: arguments that each match the parameter at their own position, with only optional
        // ones left out, need no slots: what the matching below would give, without building it.
        // NB: by index, reading each member in place: a parameter copied whole is four
        // reference counts, on every dispatch.
        let given = invocation.arguments
        if given.count <= parameters.count {
            var inOrder = true
            for index in given.indices {
                guard let label = given[index].label else { continue }
                if label != parameters[index].label, label != parameters[index].key {
                    inOrder = false
                    break
                }
            }
            for index in given.count..<parameters.count where inOrder && !parameters[index].isOptional {
                inOrder = false
            }
            if inOrder { return .inOrder(given) }
        }
        var usage: String { "usage: \(signature.usage)" }
        // NB: an argument is matched to the parameter at its own position first: arguments in
        // declaration order cost no search.
        var slots = ContiguousArray<JSONValue?>(repeating: nil, count: parameters.count)
        for (position, argument) in invocation.arguments.enumerated() {
            guard let index = parameterIndex(of: argument, at: position, among: parameters) else {
                if let label = argument.label {
                    throw ShellError(
                        "'\(signature.name)' has no argument '\(label)'",
                        hint: Suggestion.didYouMean(label, among: parameters.compactMap(\.label)) ?? usage)
                }
                throw ShellError(
                    "'\(signature.name)' takes \(countText(parameters.count)), got \(invocation.arguments.count)",
                    hint: usage)
            }
            guard slots[index] == nil else {
                throw ShellError("argument '\(parameters[index].label ?? "\(index + 1)")' is given twice", hint: usage)
            }
            slots[index] = argument.value
        }
        for (missing, parameter) in parameters.enumerated() where slots[missing] == nil {
            if !parameter.isOptional {
                throw ShellError(
                    "'\(signature.name)' needs its argument \(parameter.label.map { "'\($0)'" } ?? "\(missing + 1)") (\(parameter.typeName))",
                    hint: usage)
            }
        }
        return .slots(slots)
    }

    /// The parameter that `argument`, typed at `position`, fills: a labelled one the parameter
    /// of that label (or key), looked for at its own position first; a positional one the
    /// parameter at its position. `nil` when there is none.
    static func parameterIndex(
        of argument: ActionInvocation.Argument, at position: Int, among parameters: [ActionSignature.Parameter]
    ) -> Int? {
        guard let label = argument.label else { return position < parameters.count ? position : nil }
        if position < parameters.count, parameters[position].label == label || parameters[position].key == label {
            return position
        }
        return parameters.firstIndex { $0.label == label || $0.key == label }
    }

    private static func countText(_ count: Int) -> String {
        count == 0 ? "no arguments" : count == 1 ? "1 argument" : "\(count) arguments"
    }

    /// A follow-up action for its `=> ` line: in command syntax, or by its case name when it has
    /// no case-name form.
    @usableFromInline
    package static func announcement<A>(of action: A) -> ActionInvocation {
        (try? invocation(of: action))
            ?? ActionInvocation(name: RuntimeMetadata.caseName(ofTyped: action) ?? "\(action)")
    }

    /// A typed action back in command syntax: `{"add":{"_0":5}}` is `add 5`.
    @usableFromInline
    package static func invocation<A>(of action: A) throws -> ActionInvocation {
        try invocation(printed: ValueReader.read(action), of: action)
    }

    /// ``invocation(of:)`` of an action already read: `value` is `ValueReader.read(action)`.
    static func invocation<A>(printed value: JSONValue, of action: A) throws -> ActionInvocation {
        // NB: a case without payload of a raw-value enum prints as its raw value (`"HIGH"`), but
        // is dispatched by its name (`high`).
        if case .string(let name) = value {
            return ActionInvocation(name: RuntimeMetadata.caseName(ofTyped: action) ?? name)
        }
        guard case .object(let outer) = value, outer.count == 1, let name = outer.keys.first else {
            throw ShellError("action \(action) has no case-name form")
        }
        var arguments: [ActionInvocation.Argument] = []
        if case .object(let payload)? = outer[name] {
            for (key, value) in payload.members {
                let isPositional = key.hasPrefix("_") && Int(key.dropFirst()) != nil
                arguments.append(.init(label: isPositional ? nil : key, value: value))
            }
        }
        return ActionInvocation(name: name, arguments: arguments)
    }

    /// A decoding failure in the words of the command line.
    static func describe(_ error: DecodingError, invocation: ActionInvocation, signature: ActionSignature?)
        -> ShellError
    {
        let usage = signature.map { "usage: \($0.usage)" }
        func argumentName(_ path: [any CodingKey]) -> String {
            guard path.count >= 2 else { return "its arguments" }
            let key = path[1].stringValue
            let rest = path.dropFirst(2).map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            if key.hasPrefix("_"), let index = Int(key.dropFirst()) {
                // NB: a positional argument has no name of its own; a path inside it follows it.
                return "argument \(index + 1)"
                    + (rest.isEmpty ? "" : " (at \(rest.dropFirst(rest.hasPrefix(".") ? 1 : 0)))")
            }
            return "argument '\(key)\(rest)'"
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            // NB: a synthesized `Decodable` enum says this of an object whose key is none of its
            // cases (`{"nope":{}}`): name the cases instead.
            let cases = caseNames(signature, context.codingPath)
            if context.debugDescription.hasPrefix("Invalid number of keys found"), !cases.isEmpty {
                return ShellError(
                    "\(argumentName(context.codingPath)) of '\(invocation.name)': not one of its cases: "
                        + cases.joined(separator: ", "),
                    hint: usage)
            }
            return ShellError(
                "\(argumentName(context.codingPath)) of '\(invocation.name)': \(context.debugDescription)",
                hint: usage)
        case .dataCorrupted(let context):
            var message = context.debugDescription
            var hint = usage
            if message.hasPrefix("Cannot initialize") {
                // NB: an enum with payloads has no plain values to list: its cases are the choices.
                var choices = signatureChoices(signature, context.codingPath)
                if choices.isEmpty { choices = caseNames(signature, context.codingPath) }
                message = "not one of its values" + (choices.isEmpty ? "" : ": \(choices.joined(separator: ", "))")
                if let given = givenString(invocation, signature, context.codingPath),
                    let suggestion = Suggestion.didYouMean(given, among: choices)
                {
                    hint = suggestion
                }
            }
            return ShellError("\(argumentName(context.codingPath)) of '\(invocation.name)': \(message)", hint: hint)
        case .keyNotFound(let key, let context):
            let path = context.codingPath + [key]
            // NB: a member with a default value too: the runtime does not know the default.
            let inside = path.count > 2 ? ": only optional members may be left out" : ""
            return ShellError("'\(invocation.name)' needs \(argumentName(path))\(inside)", hint: usage)
        @unknown default:
            return ShellError("cannot build '\(invocation.name)': \(error)", hint: usage)
        }
    }

    /// The string the user gave for the parameter at `path`, if it was a string.
    private static func givenString(
        _ invocation: ActionInvocation, _ signature: ActionSignature?, _ path: [any CodingKey]
    )
        -> String?
    {
        guard path.count >= 2, let signature,
            let index = signature.parameters.firstIndex(where: { $0.key == path[1].stringValue })
        else { return nil }
        let parameter = signature.parameters[index]
        let argument =
            invocation.arguments.first { $0.label == parameter.label && $0.label != nil }
            ?? (index < invocation.arguments.count && invocation.arguments[index].label == nil
                ? invocation.arguments[index] : nil)
        if case .string(let text)? = argument?.value { return text }
        return nil
    }

    /// The case names of the enum-typed parameter at `path` (of its top level only), from how its
    /// values begin: `idle`, `{"syncing":{"since":` name `idle` and `syncing`.
    private static func caseNames(_ signature: ActionSignature?, _ path: [any CodingKey]) -> [String] {
        guard let signature, path.count == 2,
            let parameter = signature.parameters.first(where: { $0.key == path[1].stringValue })
        else { return [] }
        return parameter.caseOpenings.map { opening in
            guard opening.hasPrefix("{\"") else { return opening }
            return String(opening.dropFirst(2).prefix { $0 != "\"" })
        }
    }

    private static func signatureChoices(_ signature: ActionSignature?, _ path: [any CodingKey]) -> [String] {
        guard let signature, path.count >= 2 else { return [] }
        return signature.parameters.first { $0.key == path[1].stringValue }?.choices ?? []
    }
}
