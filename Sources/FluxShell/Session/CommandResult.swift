/// What a command did: the lines it prints, its diff, and its fields for `--format json`.
public struct CommandResult: Sendable {
    /// For `dispatch`, `undo`, `redo` and `reset`: the diff it prints first.
    public var diff: CommandDiff?
    /// The other lines it prints: listings, values, messages, warnings.
    public var text: [String] = []
    /// The command's JSON object members after `line` and `command`.
    public var fields: [(String, JSONValue)] = []
    /// `quit` or `exit`.
    public var quits = false

    public init() {}

    /// Lines for standard output in the text format: the diff's, then the others.
    ///
    /// NB: the diff's lines are rendered when asked for: piped mode writes them as bytes instead
    /// (``CommandDiff/write(to:)``), and most are never needed as strings.
    public var lines: [String] {
        guard let diff else { return text }
        return text.isEmpty ? diff.lines : diff.lines + text
    }

    /// The command's one line of `--format json`:
    /// `{"line":2,"command":"dispatch","action":"increment","changes":[…]}`.
    public func jsonLine(command: Command, line: Int?) -> String {
        var object = JSONObject()
        if let line { object.appendUnchecked("line", .int(line)) }
        object.appendUnchecked("command", .string(command.word))
        for (key, value) in fields { object[key] = value }
        return JSONText.compact(.object(object))
    }
}

/// The diff of a state-changing command: one step per action (the dispatched one, then each
/// follow-up), or a single step for `undo`, `redo` and `reset`.
public struct CommandDiff: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        /// The follow-up action that made this step, announced by `=> ACTION`; `nil` for the
        /// command's own step.
        public var followUp: ActionInvocation?
        public var entries: [DiffEntry]
    }

    public var steps: [Step]
    /// No loaded store's state differs after the whole command from before it.
    public var isUnchanged: Bool

    /// The diff as printed: entry lines, `=> ACTION` before follow-ups, or `(no changes)`.
    public var lines: [String] {
        if isUnchanged { return ["(no changes)"] }
        if steps.count == 1 { return steps[0].entries.map(\.line) }
        var lines: [String] = []
        for step in steps {
            if let followUp = step.followUp { lines.append("=> " + followUp.description) }
            for entry in step.entries { lines.append(entry.line) }
        }
        return lines
    }

    /// Appends the diff as printed, each line ending in a newline, as UTF-8.
    public func write(to output: inout OutputBuffer) {
        if isUnchanged {
            output.append("(no changes)\n")
            return
        }
        for step in steps {
            if let followUp = step.followUp {
                output.appendLine("=> \(followUp.description)")
            }
            for entry in step.entries {
                entry.write(to: &output)
                output.append(0x0A)
            }
        }
    }

    var changesJSON: JSONValue {
        .array(steps.first.map { $0.entries.map(\.json) } ?? [])
    }

    var followUpsJSON: JSONValue? {
        let followUps = steps.filter { $0.followUp != nil }
        guard !followUps.isEmpty else { return nil }
        return .array(
            followUps.map { step in
                .object(
                    JSONObject([
                        ("action", .string(step.followUp?.description ?? "")),
                        ("changes", .array(step.entries.map(\.json))),
                    ]))
            })
    }
}
