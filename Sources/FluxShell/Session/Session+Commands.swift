/// The commands that read or describe a session rather than change its stores.
extension Session {
    func listStores() -> CommandResult {
        var result = CommandResult()
        let width = (catalog.names.map(\.count).max() ?? 0) + 2
        for definition in catalog.definitions {
            let padding = String(repeating: " ", count: max(1, width - definition.name.count))
            result.text.append(definition.summary.isEmpty ? definition.name : definition.name + padding + definition.summary)
        }
        if recordsJSON {
            result.fields = [
                (
                    "stores",
                    .array(
                        catalog.definitions.map {
                            .object(JSONObject([("name", .string($0.name)), ("summary", .string($0.summary))]))
                        })
                )
            ]
        }
        return result
    }

    func listActions() throws(ShellError) -> CommandResult {
        let store = try activeStore()
        var result = CommandResult()
        let signatures = store.definition.actions
        if signatures.isEmpty {
            result.text = ["(the actions of '\(store.alias)' cannot be listed: its action type is not an enum)"]
        }
        for signature in signatures {
            let choices = signature.parameters.flatMap(\.choices)
            var line = signature.description + (choices.isEmpty ? "" : "    " + choices.joined(separator: " | "))
            if let reason = signature.notDispatchableBecause {
                line += "    (not dispatchable from text: \(reason))"
            }
            result.text.append(line)
        }
        if recordsJSON { result.fields = [("actions", .array(signatures.map { .string($0.description) }))] }
        return result
    }

    func state(at path: ValuePath) throws(ShellError) -> CommandResult {
        let store = try activeStore()
        let value = try store.runtime.read(path)
        var result = CommandResult()
        result.text = [path.segments.isEmpty ? JSONText.pretty(value) : JSONText.compact(value)]
        if recordsJSON { result.fields = [("path", .string(path.description)), ("value", value)] }
        return result
    }

    func listHistory() -> CommandResult {
        var result = CommandResult()
        if history.forgotten > 0 {
            result.text.append("(\(history.forgotten) earlier steps are no longer kept)")
        }
        let width = String(history.entries.last?.number ?? 0).count
        var items: [JSONValue] = []
        for (index, entry) in history.entries.enumerated() {
            let number = String(entry.number)
            let undone = index >= history.undoable ? "   (undone)" : ""
            result.text.append(
                String(repeating: " ", count: width - number.count + 2) + number + "  " + entry.text + undone)
            for followUp in entry.followUps {
                result.text.append(String(repeating: " ", count: width + 4) + "=> " + followUp.description)
            }
            if recordsJSON {
                items.append(
                    .object(
                        JSONObject([
                            ("number", .int(entry.number)), ("action", .string(entry.text)),
                            ("undone", .bool(index >= history.undoable)),
                        ])))
            }
        }
        if history.entries.isEmpty { result.text.append("(no actions dispatched yet)") }
        if recordsJSON { result.fields = [("history", .array(items))] }
        return result
    }

    func expect(_ expectation: Expectation) throws(ShellError) -> CommandResult {
        let store = try activeStore()
        let actual = try store.runtime.read(expectation.path)
        if let failure = ExpectationCheck.failure(of: expectation, actual: actual) { throw failure }
        var result = CommandResult()
        if recordsJSON { result.fields = [("passed", .bool(true))] }
        return result
    }

    func save(to file: String) throws(ShellError) -> CommandResult {
        guard !transcriptOverflowed else {
            throw ShellError(
                "this session is too long to save (over \(transcriptLimit) commands)",
                hint: "save earlier, or replay a script file with '\(catalog.programName) run'")
        }
        try FileSystem.writeAtomically(scenarioText(), to: file)
        var result = CommandResult()
        let count = transcript.filter { $0.diff != nil }.count
        result.text = ["saved \(count) state-changing command\(count == 1 ? "" : "s") to \(file)"]
        if recordsJSON { result.fields = [("file", .string(file))] }
        return result
    }

    /// The session as a scenario that `fluxsh test --exhaustive` passes.
    func scenarioText() -> String {
        var text = "# Saved by \(catalog.programName). Replay with: \(catalog.programName) test FILE\n"
        for entry in transcript {
            text += entry.commandLine + "\n"
            for line in entry.diff?.lines ?? [] { text += line + "\n" }
        }
        for store in stores {
            text += "use \(store.alias)\n"
            text += "expect . == \(JSONText.compact(store.json))\n"
        }
        if let activeAlias, stores.last?.alias != activeAlias { text += "use \(activeAlias)\n" }
        return text
    }

    func help(_ topic: String?) throws(ShellError) -> CommandResult {
        var result = CommandResult()
        if let topic {
            guard let entry = HelpText.entry(for: topic) else {
                throw ShellError(
                    "no help for '\(topic)'",
                    hint: Suggestion.didYouMean(topic, among: HelpText.entries.map(\.word)) ?? "type 'help' for the list")
            }
            result.text = entry.long
        } else {
            result.text = HelpText.overview
        }
        if recordsJSON { result.fields = [("text", .string(result.lines.joined(separator: "\n")))] }
        return result
    }
}

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
        case (.int(let a), .int(let b)): return a < b ? -1 : a == b ? 0 : 1
        default:
            guard let a = lhs.numberValue, let b = rhs.numberValue else { return nil }
            return a < b ? -1 : a == b ? 0 : 1
        }
    }
}
