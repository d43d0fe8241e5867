/// Between typed actions and their command syntax.
@usableFromInline
enum ActionText {
    /// The arguments of `invocation` as the case's `Codable` payload: labels kept, positional
    /// arguments matched to the signature's parameters by position (`_0`, `_1`, … without one).
    static func payload(for invocation: ActionInvocation, signature: ActionSignature?) throws(ShellError)
        -> JSONObject
    {
        var payload = JSONObject()
        guard let signature else {
            for (position, argument) in invocation.arguments.enumerated() {
                let key = argument.label ?? "_\(position)"
                guard payload[key] == nil else {
                    throw ShellError("argument '\(key)' is given twice")
                }
                payload[key] = argument.value
            }
            return payload
        }
        let usage = "usage: \(signature.usage)"
        var filled = Array(repeating: false, count: signature.parameters.count)
        for (position, argument) in invocation.arguments.enumerated() {
            let index: Int
            if let label = argument.label {
                guard let match = signature.parameters.firstIndex(where: { $0.label == label || $0.key == label })
                else {
                    let labels = signature.parameters.compactMap(\.label)
                    throw ShellError(
                        "'\(signature.name)' has no argument '\(label)'",
                        hint: Suggestion.didYouMean(label, among: labels) ?? usage)
                }
                index = match
            } else {
                guard position < signature.parameters.count else {
                    throw ShellError(
                        "'\(signature.name)' takes \(countText(signature.parameters.count)), got \(invocation.arguments.count)",
                        hint: usage)
                }
                index = position
            }
            guard !filled[index] else {
                throw ShellError("argument '\(signature.parameters[index].label ?? "\(index + 1)")' is given twice", hint: usage)
            }
            filled[index] = true
            payload[signature.parameters[index].key] = argument.value
        }
        if let missing = filled.firstIndex(of: false), !signature.parameters[missing].typeName.hasSuffix("?") {
            let parameter = signature.parameters[missing]
            throw ShellError(
                "'\(signature.name)' needs its argument \(parameter.label.map { "'\($0)'" } ?? "\(missing + 1)") (\(parameter.typeName))",
                hint: usage)
        }
        // NB: keep the declaration order, so payloads equal the case's encoded form.
        var ordered = JSONObject()
        for parameter in signature.parameters {
            if let value = payload[parameter.key] { ordered[parameter.key] = value }
        }
        return ordered
    }

    private static func countText(_ count: Int) -> String {
        count == 0 ? "no arguments" : count == 1 ? "1 argument" : "\(count) arguments"
    }

    /// A typed action back in command syntax: `{"add":{"_0":5}}` is `add 5`.
    @usableFromInline
    static func invocation<A>(of action: A) throws -> ActionInvocation {
        let value = ValueReader.read(action)
        if case .string(let name) = value { return ActionInvocation(name: name) }
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

    /// Whether decoding failed because the enum has no case of that name.
    static func isUnknownCase(_ error: DecodingError) -> Bool {
        if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty { return true }
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty { return true }
        return false
    }

    /// A decoding failure in the words of the command line.
    static func describe(_ error: DecodingError, invocation: ActionInvocation, signature: ActionSignature?)
        -> ShellError
    {
        let usage = signature.map { "usage: \($0.usage)" }
        func argumentName(_ path: [any CodingKey]) -> String {
            guard path.count >= 2 else { return "its arguments" }
            let key = path[1].stringValue
            if key.hasPrefix("_"), let index = Int(key.dropFirst()) { return "argument \(index + 1)" }
            let rest = path.dropFirst(2).map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return "argument '\(key)\(rest)'"
        }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return ShellError(
                "\(argumentName(context.codingPath)) of '\(invocation.name)': \(context.debugDescription)",
                hint: usage)
        case .dataCorrupted(let context):
            var message = context.debugDescription
            var hint = usage
            if message.hasPrefix("Cannot initialize") {
                let choices = signatureChoices(signature, context.codingPath)
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
            return ShellError("'\(invocation.name)' needs \(argumentName(path))", hint: usage)
        @unknown default:
            return ShellError("cannot build '\(invocation.name)': \(error)", hint: usage)
        }
    }

    /// The string the user gave for the parameter at `path`, if it was a string.
    private static func givenString(_ invocation: ActionInvocation, _ signature: ActionSignature?, _ path: [any CodingKey])
        -> String?
    {
        guard path.count >= 2, let signature,
            let index = signature.parameters.firstIndex(where: { $0.key == path[1].stringValue })
        else { return nil }
        let parameter = signature.parameters[index]
        let argument =
            invocation.arguments.first { $0.label == parameter.label && $0.label != nil }
            ?? (index < invocation.arguments.count && invocation.arguments[index].label == nil ? invocation.arguments[index] : nil)
        if case .string(let text)? = argument?.value { return text }
        return nil
    }

    private static func signatureChoices(_ signature: ActionSignature?, _ path: [any CodingKey]) -> [String] {
        guard let signature, path.count >= 2 else { return [] }
        return signature.parameters.first { $0.key == path[1].stringValue }?.choices ?? []
    }
}
