import MCP
import Testing

@testable import FluxShellMCP

/// The tools an agent calls (reference: "Agents"): each call is one command line, its string
/// arguments quoted where the language needs it; a call with a missing, unknown, non-string or
/// multi-line argument, or to an unknown tool, is refused before anything runs.
struct SessionToolsTests {
    @Test(arguments: [
        ("run", ["line": "expect count == 1"], "expect count == 1"),
        ("load", ["store": "todos"], "load todos"),
        ("load", ["store": "todos", "alias": "my list"], #"load todos as "my list""#),
        ("dispatch", ["action": "add title: milk"], "dispatch add title: milk"),
        ("state", [:], "state"),
        ("state", ["path": "todos[0].title"], "state todos[0].title"),
        ("why", ["path": "count"], "why count"),
        ("history", [:], "history"),
        ("undo", [:], "undo"),
        ("undo", ["steps": "3"], "undo 3"),
        ("find", ["text": "buy milk"], #"find "buy milk""#),
        ("diff", ["from": "1"], "diff 1"),
        ("diff", ["from": "1", "to": "3"], "diff 1 3"),
        ("save", ["path": "/tmp/a b.scenario"], #"save "/tmp/a b.scenario""#),
    ])
    func eachCallIsOneCommandLine(tool: String, arguments: [String: String], line: String) throws {
        #expect(try SessionTools.line(for: tool, arguments: arguments.mapValues { .string($0) }) == line)
    }

    @Test(arguments: [
        ("fly", [String: Value](), "unknown tool 'fly' (the tools: run, load"),
        ("dispatch", [:], "tool 'dispatch' needs the argument 'action' (it takes: action)"),
        ("dispatch", ["action": ""], "needs the argument 'action'"),
        (
            "dispatch", ["action": "increment", "times": "2"],
            "tool 'dispatch' has no argument 'times' (it takes: action)"
        ),
        ("history", ["all": "yes"], "tool 'history' has no argument 'all' (it takes no arguments)"),
        ("undo", ["steps": .int(2)], "argument 'steps' of tool 'undo' must be a string"),
        ("run", ["line": "load counter\ndispatch increment"], "holds a line break: a command is one line"),
    ])
    func aBadCallIsRefusedBeforeAnythingRuns(tool: String, arguments: [String: Value], message: String) {
        #expect {
            try SessionTools.line(for: tool, arguments: arguments)
        } throws: { error in
            (error as? SessionTools.Refusal)?.message.contains(message) == true
        }
    }

    @Test func theDispatchToolListsTheActiveStoresActions() {
        let tools = SessionTools.tools(actions: ["increment", "add(_: Int)"])
        #expect(
            tools.map(\.name) == ["run", "load", "dispatch", "state", "why", "history", "undo", "find", "diff", "save"])
        let dispatch = tools.first { $0.name == "dispatch" }
        #expect(dispatch?.description?.hasSuffix("types:\nincrement\nadd(_: Int)") == true)
    }
}
