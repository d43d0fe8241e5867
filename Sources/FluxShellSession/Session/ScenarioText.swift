import FluxShellJSON
import FluxShellLanguage
import FluxShellValues

/// The one writer of scenario text: comments, commands (through the command printer), each
/// state-changing command's expected diff lines, and `expect . ==` lines. What `save`, explore's
/// failing scenarios and journals, and its trap reports write.
///
/// ```swift
/// var scenario = ScenarioText()
/// scenario.comment("Found by fluxsh explore counter --seed 7.")
/// scenario.command(.load(name: "counter", alias: nil))
/// scenario.command(.dispatch(ActionInvocation(name: "increment")), diff: ["~ count: 0 -> 1"])
/// scenario.text  // "# Found by …\nload counter\ndispatch increment\n~ count: 0 -> 1\n"
/// ```
package struct ScenarioText: Sendable {
    /// The scenario so far, each line ending in a newline.
    public private(set) var text = ""

    public init() {}

    /// `# LINE`
    public mutating func comment(_ line: String) {
        text += "# " + line + "\n"
    }

    /// The command's line (`! COMMAND` when it is expected to fail), then `diff`, its expected
    /// diff lines.
    public mutating func command(_ command: Command, expectsFailure: Bool = false, diff: [String] = []) {
        text += (expectsFailure ? "! " : "") + command.description + "\n"
        for line in diff { text += line + "\n" }
    }

    /// A line as someone typed it (an `--invariant` as the rest of an `expect` line).
    public mutating func line(_ text: String) {
        self.text += text + "\n"
    }

    /// `use ALIAS` when `alias` is given, then `expect . == STATE`.
    public mutating func expectState(_ state: JSONValue, of alias: String? = nil) {
        if let alias { command(.use(alias: alias)) }
        command(.expect(Expectation(path: .root, op: .equal, value: .literal(state))))
    }
}
