import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import MCP

/// The tools an agent calls (“Agents” in the reference): each one command line of the shell's
/// language, made from the tool's string arguments, whose output lines are the tool's text.
enum SessionTools {
    /// A tool: its name, what it does, and its arguments (required first), each described.
    struct Definition {
        var name: String
        var summary: String
        var required: [(name: String, summary: String)] = []
        var optional: [(name: String, summary: String)] = []
    }

    static let definitions: [Definition] = [
        Definition(
            name: "run", summary: "Runs any command line of the shell (help lists them) and returns what it prints.",
            required: [("line", "the command line, e.g. `expect todos[*].done == false` or `skip 2`")]),
        Definition(
            name: "load", summary: "Loads a store by name (the `stores` command lists them) and makes it active.",
            required: [("store", "the store's name")], optional: [("alias", "the name to load it under")]),
        Definition(
            name: "dispatch",
            summary: "Dispatches an action to every loaded store that takes it and returns the diff of the state.",
            required: [("action", "the action and its arguments as the shell takes them, e.g. `add title: milk`")]),
        Definition(
            name: "state", summary: "Returns the active store's state, or the value at a path.",
            optional: [("path", "a path such as `todos[0].title`; the whole state when left out")]),
        Definition(
            name: "why", summary: "Lists the steps that created or changed the value at a path, with their diff lines.",
            required: [("path", "a path of the active store's state")]),
        Definition(name: "history", summary: "Lists the steps so far, numbered."),
        Definition(
            name: "undo", summary: "Steps back and returns the diff.",
            optional: [("steps", "how many steps, a whole number (1 when left out)")]),
        Definition(
            name: "find", summary: "Lists the paths of the state whose key or value holds a text, with their values.",
            required: [("text", "the text, in any case")]),
        Definition(
            name: "diff", summary: "Returns the diff lines from the state after one step to the state after another.",
            required: [("from", "a step number as history lists it (0: the start)")],
            optional: [("to", "a step number; now when left out")]),
        Definition(
            name: "save", summary: "Writes the session as a scenario file that `fluxsh test` replays.",
            required: [("path", "the file to write, relative to where the server runs")]),
    ]

    /// Why a call is refused before anything runs.
    struct Refusal: Error {
        var message: String
    }

    /// The command line a call to tool `name` with `arguments` runs.
    static func line(for name: String, arguments: [String: Value]?) throws(Refusal) -> String {
        guard let definition = definitions.first(where: { $0.name == name }) else {
            throw Refusal(
                message: "unknown tool '\(name)' (the tools: \(definitions.map(\.name).joined(separator: ", ")))")
        }
        let given = try strings(arguments, for: definition)
        let text = { (name: String) in given[name] }
        func quoted(_ value: String) -> String { ArgumentText.render(.string(value)) }
        switch name {
        case "run":
            let words = text("line")!.split(whereSeparator: { $0 == " " || $0 == "\t" }).filter { $0 != "!" }
            if let word = words.first, ["quit", "exit", "detach"].contains(word) {
                throw Refusal(message: "\(word) would end the session: the client ends it by closing the server")
            }
            return text("line")!
        case "load": return "load " + quoted(text("store")!) + (text("alias").map { " as " + quoted($0) } ?? "")
        case "dispatch": return "dispatch " + text("action")!
        case "state": return text("path").map { "state " + $0 } ?? "state"
        case "why": return "why " + text("path")!
        case "history": return "history"
        case "undo": return text("steps").map { "undo " + $0 } ?? "undo"
        case "find": return "find " + quoted(text("text")!)
        case "diff": return "diff " + text("from")! + (text("to").map { " " + $0 } ?? "")
        default: return "save " + quoted(text("path")!)
        }
    }

    /// The call's arguments as strings: each required one given, none unknown, and each one
    /// line that does not start another command.
    private static func strings(_ arguments: [String: Value]?, for tool: Definition) throws(Refusal) -> [String: String]
    {
        let known = (tool.required + tool.optional).map(\.name)
        let takes = known.isEmpty ? "it takes no arguments" : "it takes: \(known.joined(separator: ", "))"
        var given: [String: String] = [:]
        for (name, value) in arguments ?? [:] {
            guard known.contains(name) else {
                throw Refusal(message: "tool '\(tool.name)' has no argument '\(name)' (\(takes))")
            }
            guard case .string(let text) = value else {
                throw Refusal(message: "argument '\(name)' of tool '\(tool.name)' must be a string")
            }
            guard !text.contains(where: \.isNewline) else {
                throw Refusal(
                    message: "argument '\(name)' of tool '\(tool.name)' holds a line break: a command is one line")
            }
            given[name] = text
        }
        for (name, _) in tool.required where given[name]?.isEmpty != false {
            throw Refusal(message: "tool '\(tool.name)' needs the argument '\(name)' (\(takes))")
        }
        return given
    }

    /// The tools as the protocol lists them; `actions` (what the `actions` command prints for
    /// each loaded store, under its alias when there are several) goes in the `dispatch` tool's
    /// description.
    static func tools(actions: [String]) -> [Tool] {
        definitions.map { definition in
            var properties: [String: Value] = [:]
            for (name, summary) in definition.required + definition.optional {
                properties[name] = .object(["type": .string("string"), "description": .string(summary)])
            }
            var description = definition.summary
            if definition.name == "dispatch", !actions.isEmpty {
                description +=
                    " The loaded stores' actions, with their argument labels and types:\n"
                    + actions.joined(separator: "\n")
            }
            return Tool(
                name: definition.name, description: description,
                inputSchema: .object([
                    "type": .string("object"), "properties": .object(properties),
                    "required": .array(definition.required.map { .string($0.name) }),
                    "additionalProperties": .bool(false),
                ]))
        }
    }
}
