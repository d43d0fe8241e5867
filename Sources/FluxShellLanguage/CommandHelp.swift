import FluxShellSystem

/// Each command's usage, summary and example: the one place a command's usage is written, which
/// `help` and `help COMMAND` print and the parser's errors quote (`usage: skip N`).
package enum CommandHelp {
    package struct Entry: Sendable {
        package var word: String
        package var usage: String
        package var summary: String
        package var example: String

        package var long: [String] { ["usage: \(usage)", summary, "example: \(example)"] }

        /// The summary's first clause, for the one-line overview.
        package var short: String {
            var text = Substring(summary)
            for separator in ["; ", ". ", " ("] {
                if let range = text.firstRange(of: separator) { text = text[..<range.lowerBound] }
            }
            return text.hasSuffix(".") ? String(text) : text + "."
        }
    }

    package static let entries: [Entry] = [
        Entry(
            word: "help", usage: "help [COMMAND]", summary: "Lists the commands, or explains one.",
            example: "help dispatch"),
        Entry(word: "stores", usage: "stores", summary: "Lists the stores you can load.", example: "stores"),
        Entry(
            word: "load", usage: "load NAME [as ALIAS] [with STATE]",
            summary:
                "Creates a store in its initial state (or STATE, as JSON) and makes it active; loaded stores share one dispatcher.",
            example: "load todos as list"),
        Entry(word: "use", usage: "use ALIAS", summary: "Makes a loaded store active.", example: "use counter"),
        Entry(
            word: "actions", usage: "actions [ALIAS]",
            summary:
                "Lists the active store's actions (or those of store ALIAS) with their argument labels and types.",
            example: "actions"),
        Entry(
            word: "dispatch", usage: "dispatch ACTION [ARG...]",
            summary:
                "Dispatches an action to every loaded store that accepts it and prints the diff. Arguments are VALUE or LABEL: VALUE; a value is JSON, a bare word, or $PATH (read from the state), also inside JSON: {\"id\":$todos[0].id}.",
            example: "dispatch rename id: 2 title: \"Buy milk\""),
        Entry(
            word: "state", usage: "state [PATH]",
            summary:
                "Prints the active store's state, or the value at PATH (count, todos[0].title, scores[\"alice\"], todos.count).",
            example: "state todos[0]"),
        Entry(word: "history", usage: "history", summary: "Lists the actions dispatched so far.", example: "history"),
        Entry(
            word: "undo", usage: "undo [N]",
            summary:
                "Steps back N actions (default 1) and prints the diff; attached, it names each step and who made it.",
            example: "undo 2"),
        Entry(
            word: "redo", usage: "redo [N]", summary: "Steps forward N undone actions and prints the diff.",
            example: "redo"),
        Entry(
            word: "reset", usage: "reset",
            summary: "Returns every loaded store to its initial state (undo brings it back).",
            example: "reset"),
        Entry(
            word: "skip", usage: "skip N",
            summary:
                "Replays the steps after N without step N and prints the diff. Effects do not run again: what they sent is replayed. Undo takes it back.",
            example: "skip 2"),
        Entry(
            word: "unskip", usage: "unskip N", summary: "Puts a skipped step back and replays the later steps.",
            example: "unskip 2"),
        Entry(
            word: "replace", usage: "replace N ACTION [ARG...]",
            summary:
                "Puts ACTION in step N's place and replays the later steps. Undo brings the old timeline back.",
            example: "replace 2 add title: bread"),
        Entry(
            word: "commit", usage: "commit",
            summary: "Forgets every step: the state now is where the history starts.", example: "commit"),
        Entry(
            word: "sweep", usage: "sweep",
            summary:
                "Removes the skipped steps and the edits from the history. A replaced step keeps its new action.",
            example: "sweep"),
        Entry(
            word: "expect", usage: "expect PATH OP VALUE",
            summary:
                "Asserts a value; OP is == != < <= > >= or contains. [*] in PATH means every element (true for none); a VALUE $PATH is read from the state; with ==, * in VALUE matches any value there ({\"id\":1,\"createdAt\":*}).",
            example: "expect todos[*].id < $nextID"),
        Entry(
            word: "why", usage: "why PATH",
            summary:
                "Lists the steps that set the value at PATH, oldest first, with their diff lines; it follows an element across insertions and removals.",
            example: "why todos[0].done"),
        Entry(
            word: "find", usage: "find TEXT | find PATH ~ VALUE",
            summary:
                "Lists the places whose key or value holds TEXT, in any case, as PATH: VALUE; with ~, those at or under PATH equal to VALUE, * in it matching any value.",
            example: #"find milk, find todos ~ {"done":true,"id":*,"title":*}"#),
        Entry(
            word: "diff", usage: "diff N [M]",
            summary:
                "Prints the diff lines from the state after step N (0: the start) to the state after step M, or to now; steps as history numbers them.",
            example: "diff 2 5"),
        Entry(
            word: "watch", usage: "watch [PATH...]",
            summary:
                "Prints only the diff lines at or under PATH (todos[*].done for every todo's) and '(N more changes)'; alone, lists the watches.",
            example: "watch todos[*].done nextID"),
        Entry(
            word: "unwatch", usage: "unwatch [PATH...]",
            summary: "Stops watching PATH; alone, every path (all diff lines print again).", example: "unwatch"),
        Entry(
            word: "invariants", usage: "invariants",
            summary:
                "Checks the invariants the loaded stores declare in Swift (fails naming the first that does not hold).",
            example: "invariants"),
        Entry(
            word: "save", usage: "save FILE",
            summary: "Writes the session as a scenario that 'fluxsh test' replays.",
            example: "save Scenarios/mine.scenario"),
        Entry(
            word: "advance", usage: "advance [SECONDS]",
            summary:
                "Moves the session's clock (alone, to the next effect's deadline) and runs the effects that wake, printing what they send.",
            example: "advance 0.3"),
        Entry(
            word: "effects", usage: "effects",
            summary: "Lists the effects still running: the line that started each and what it waits for.",
            example: "effects"),
        Entry(
            word: "cancel", usage: "cancel [ID]",
            summary: "Cancels every running effect, or those of one id (a scenario may end with none running).",
            example: "cancel search"),
        Entry(
            word: "seed", usage: "seed N",
            summary:
                "Seeds the session's random numbers (env.random), as explore begins each run; they start from 0 otherwise.",
            example: "seed 42"),
        Entry(
            word: "exhaustive", usage: "exhaustive on|off",
            summary: "In scenarios: every later state-changing command must list its expected diff lines.",
            example: "exhaustive on"),
        Entry(
            word: "read", usage: "read FILE",
            summary:
                "Runs the command file's lines in this session, as a script. Expected diff lines are checked; errors name the file's lines.",
            example: "read setup.txt"),
        Entry(
            word: "output", usage: "output [FILE]",
            summary:
                "Sends the results to FILE from now on; alone, back to standard output. Errors stay on standard error in text.",
            example: "output results.txt"),
        Entry(
            word: "format", usage: "format text|json",
            summary: "Writes the results as text or as one JSON object per command from now on.",
            example: "format json"),
        Entry(
            word: "timer", usage: "timer on|off",
            summary: "Prints each command's wall time after its output.", example: "timer on"),
        Entry(
            word: "quit", usage: "quit | exit | detach",
            summary: "Leaves the shell, or an attached app, which goes on as before (Ctrl-D too).", example: "quit"),
    ]

    package static func entry(for word: String) -> Entry? {
        entries.first { $0.word == word } ?? (word == "exit" || word == "detach" ? entries.last : nil)
    }

    /// The usage of command `word` (one of ``entries``).
    static func usage(of word: String) -> String {
        guard let entry = entry(for: word) else { preconditionFailure("no help for the command '\(word)'") }
        return entry.usage
    }

    /// `usage: USAGE`, with the example as the hint.
    static func usageError(of word: String) -> ShellError {
        guard let entry = entry(for: word) else { preconditionFailure("no help for the command '\(word)'") }
        return ShellError("usage: \(entry.usage)", hint: "e.g. \(entry.example)")
    }

    package static var overview: [String] {
        let width = entries.map(\.usage.count).max() ?? 0
        var lines = ["Commands:"]
        for entry in entries {
            lines.append(
                "  " + entry.usage + String(repeating: " ", count: width - entry.usage.count + 2) + entry.short)
        }
        lines.append(
            "A line starting with '! ' is expected to fail; '#' starts a comment. 'help COMMAND' shows an example.")
        return lines
    }
}
