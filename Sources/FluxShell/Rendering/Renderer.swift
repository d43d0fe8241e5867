/// Turns what commands did into what people and scripts read: text lines (optionally colored)
/// or one `--format json` object per command (SPEC §4), errors included. The one place output
/// is shaped, for every mode: piped, `run`, `test` and the interactive shell.
public struct Renderer: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text
        case json
    }

    public var format: Format
    /// ANSI colors: `+` green, `-` red, `~` yellow, `=>` dim, errors red.
    public var colors: Bool
    /// Errors begin with `FILE:LINE: ` (everywhere but the interactive shell).
    public var locatesErrors: Bool
    /// The terminal's columns, in the interactive shell: a diff line wider prints its values over
    /// several lines (SPEC §4). `nil` (piped, files, scenarios, JSON) keeps one line per change.
    public var width: Int?

    public init(format: Format = .text, colors: Bool = false, locatesErrors: Bool = true, width: Int? = nil) {
        self.format = format
        self.colors = colors
        self.locatesErrors = locatesErrors
        self.width = width
    }

    // MARK: - Results

    /// Appends what `result` prints, each line ending in a newline: in text, its diff (only the
    /// lines `filter` shows, when paths are watched), its other lines and its warnings; in JSON,
    /// its one object, with the whole diff.
    public func write(
        _ result: CommandResult, command: Command, line: Int?, watching filter: WatchFilter? = nil,
        to output: inout OutputBuffer
    ) {
        switch format {
        case .json:
            output.appendLine(jsonLine(of: result, command: command, line: line))
        case .text where colors || width != nil:
            for text in lines(of: result, watching: filter) { output.appendLine(text) }
        case .text:
            // NB: the diff's lines are written as bytes, without a string for each, and a result
            // with nothing else to print (a dispatch) makes no list of lines.
            result.diff?.write(to: &output, showing: filter)
            if result.output.printsLines {
                for text in lines(of: result.output) { output.appendLine(text) }
            }
            for warning in result.warnings { output.appendLine(warning) }
        }
    }

    /// The lines `result` prints in the text format, colored when ``colors`` is on.
    public func lines(of result: CommandResult, watching filter: WatchFilter? = nil) -> [String] {
        var lines: [String] = []
        result.diff?.forEachLine(showing: filter) { line in
            switch line {
            case .noChanges: lines.append("(no changes)")
            case .followUp(let action): lines.append(wrapped("=> " + action.description, "2"))
            case .entry(let entry): lines += self.lines(of: entry)
            case .hidden(let count): lines.append(CommandDiff.Line.hiddenText(count))
            }
        }
        var others = self.lines(of: result.output) + result.warnings
        if colors { others = others.map(color) }
        return lines + others
    }

    /// A diff entry's lines: one, or its values over several when it is wider than ``width``;
    /// all in the color of its operation.
    func lines(of entry: DiffEntry, indent: Int = 0) -> [String] {
        let lines = width.map { entry.lines(width: $0 - indent) } ?? [entry.line]
        guard colors else { return lines }
        return lines.map { wrapped($0, Self.colorCode(of: entry.operation)) }
    }

    /// The ANSI color of a diff line: `+` green, `-` red, `~` yellow.
    private static func colorCode(of operation: DiffEntry.Operation) -> String {
        switch operation {
        case .added: "32"
        case .removed: "31"
        case .changed: "33"
        }
    }

    /// The text lines of what a command shows besides its diff.
    private func lines(of output: CommandOutput) -> [String] {
        switch output {
        case .none, .loaded, .activated, .expectationHeld:
            return []
        case .stores(let stores):
            let width = (stores.map(\.name.count).max() ?? 0) + 2
            return stores.map { store in
                guard !store.summary.isEmpty else { return store.name }
                return store.name + String(repeating: " ", count: max(1, width - store.name.count)) + store.summary
            }
        case .actions(let store, let signatures, let reason):
            guard !signatures.isEmpty else {
                return ["(the actions of '\(store)' cannot be listed: \(reason ?? "it has none"))"]
            }
            return signatures.map { signature in
                let choices = signature.parameters.flatMap(\.choices)
                var line = signature.description + (choices.isEmpty ? "" : "    " + choices.joined(separator: " | "))
                if let reason = signature.notDispatchableBecause { line += "    (not dispatchable from text: \(reason))" }
                return line
            }
        case .value(let path, let value):
            // NB: on a terminal, a value wider than it prints as the whole state does.
            guard !path.isRoot else { return [JSONText.pretty(value)] }
            return [JSONText.fitting(value, width: width ?? .max).joined(separator: "\n")]
        case .history(let listing):
            var lines: [String] = []
            if listing.forgotten > 0 { lines.append("(\(listing.forgotten) earlier steps are no longer kept)") }
            let width = String(listing.entries.last?.number ?? 0).count
            for entry in listing.entries {
                let number = String(entry.number)
                let undone = entry.isUndone ? "   (undone)" : ""
                lines.append(String(repeating: " ", count: width - number.count + 2) + number + "  " + entry.text + undone)
                for followUp in entry.followUps {
                    lines.append(String(repeating: " ", count: width + 4) + "=> " + followUp.description)
                }
            }
            if listing.entries.isEmpty { lines.append("(no actions dispatched yet)") }
            return lines
        case .why(let listing):
            return whyLines(listing)
        case .watches(let paths):
            return paths.isEmpty ? ["(nothing is watched)"] : paths
        case .saved(let file, let count):
            return ["saved \(count) state-changing command\(count == 1 ? "" : "s") to \(file)"]
        case .help(let lines):
            return lines
        }
    }

    /// `why PATH`: each step numbered and named as `history` shows it, its lines indented below.
    private func whyLines(_ listing: WhyListing) -> [String] {
        var lines: [String] = []
        if listing.forgotten > 0, !listing.steps.isEmpty {
            lines.append("(\(listing.forgotten) earlier steps are no longer kept)")
        }
        let width = String(listing.steps.last?.number ?? 0).count
        let indent = String(repeating: " ", count: width + 4)
        for step in listing.steps {
            let number = String(step.number)
            lines.append(String(repeating: " ", count: width - number.count + 2) + number + "  " + step.action)
            for group in step.groups {
                if let followUp = group.followUp { lines.append(indent + "=> " + followUp.description) }
                for entry in group.entries { lines += self.lines(of: entry, indent: indent.count).map { indent + $0 } }
            }
        }
        if listing.steps.isEmpty, listing.forgotten > 0 {
            lines.append(
                "(no kept step changed \(listing.path); the \(listing.forgotten) earlier steps that may have are no longer kept)")
        } else if listing.steps.isEmpty {
            lines.append("(no step changed \(listing.path): it is as the store was loaded)")
        }
        return lines
    }

    /// The command's one line of `--format json`:
    /// `{"line":2,"command":"dispatch","action":"increment","changes":[…]}`.
    public func jsonLine(of result: CommandResult, command: Command, line: Int?) -> String {
        var object = JSONObject()
        if let line { object["line"] = .int(line) }
        object["command"] = .string(command.word)
        for (key, value) in Self.fields(of: result, command: command) { object[key] = value }
        return JSONText.compact(.object(object))
    }

    /// The members of a result's JSON object after `line` and `command`.
    private static func fields(of result: CommandResult, command: Command) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        switch result.output {
        case .none: break
        case .loaded(let store, let alias): fields = [("store", .string(store)), ("alias", .string(alias))]
        case .activated(let alias): fields = [("alias", .string(alias))]
        case .stores(let stores):
            let list = stores.map { JSONValue.object(JSONObject([("name", .string($0.name)), ("summary", .string($0.summary))])) }
            fields = [("stores", .array(list))]
        case .actions(_, let signatures, _): fields = [("actions", .array(signatures.map { .string($0.description) }))]
        case .value(let path, let value): fields = [("path", .string(path.description)), ("value", value)]
        case .history(let listing):
            let items = listing.entries.map { entry in
                JSONValue.object(
                    JSONObject([("number", .int(entry.number)), ("action", .string(entry.text)), ("undone", .bool(entry.isUndone))]))
            }
            fields = [("history", .array(items))]
        case .expectationHeld: fields = [("passed", .bool(true))]
        case .why(let listing):
            let steps = listing.steps.map { step in
                var object = JSONObject([("number", .int(step.number)), ("action", .string(step.action))])
                let own = step.groups.filter { $0.followUp == nil }.flatMap(\.entries)
                object["changes"] = .array(own.map(\.json))
                let followUps = step.groups.compactMap { group in
                    group.followUp.map { action in
                        JSONValue.object(
                            JSONObject([("action", .string(action.description)), ("changes", .array(group.entries.map(\.json)))]))
                    }
                }
                if !followUps.isEmpty { object["followUps"] = .array(followUps) }
                return JSONValue.object(object)
            }
            fields = [("path", .string(listing.path.description)), ("steps", .array(steps))]
            if listing.forgotten > 0 { fields.append(("forgotten", .int(listing.forgotten))) }
        case .watches(let paths): fields = [("watches", .array(paths.map(JSONValue.string)))]
        case .saved(let file, _): fields = [("file", .string(file))]
        case .help(let lines): fields = [("text", .string(lines.joined(separator: "\n")))]
        }
        if let diff = result.diff {
            switch command {
            case .dispatch(let typed):
                fields.append(("action", .string((result.printedAction ?? typed).description)))
            case .dispatchReading(let typed, _):
                fields.append(("action", .string((result.printedAction ?? typed).description)))
            default:
                break
            }
            fields.append(("changes", .array(diff.ownStep.entries.map(\.json))))
            if !diff.followUpSteps.isEmpty {
                let list = diff.followUpSteps.map { step in
                    JSONValue.object(
                        JSONObject([
                            ("action", .string(step.followUp?.description ?? "")),
                            ("changes", .array(step.entries.map(\.json))),
                        ]))
                }
                fields.append(("followUps", .array(list)))
            }
        }
        let warnings = result.warnings
        if !warnings.isEmpty { fields.append(("warnings", .array(warnings.map(JSONValue.string)))) }
        return fields
    }

    // MARK: - Errors and failures

    /// A failure's lines for standard error (text), or its one JSON object for standard output.
    public func report(_ failure: ScriptRunner.Failure) -> [String] {
        switch format {
        case .text:
            let lines = locatesErrors ? failure.locatedLines : failure.lines
            return colors ? lines.map(color) : lines
        case .json:
            let message = failure.lines.joined(separator: "\n")
            let text = message.hasPrefix("error: ") ? String(message.dropFirst(7)) : message
            return [JSONText.compact(.object(JSONObject([("line", .int(failure.location.line)), ("error", .string(text))])))]
        }
    }

    // MARK: - Scenarios

    /// What `fluxsh test` prints for `results`: in text, a `PASS`/`FAIL` line per scenario, the
    /// failures' reports, and `N passed, M failed`; in JSON, one object per scenario, then
    /// `{"passed":N,"failed":M}`.
    public func report(_ results: [ScenarioRunner.Result]) -> [String] {
        let failed = results.filter { !$0.passed }
        switch format {
        case .json:
            var lines = results.map { result in
                let failures: [JSONValue] = result.failures.map { failure in
                    .object(
                        JSONObject([
                            ("line", .int(failure.location.line)), ("error", .string(failure.lines.joined(separator: "\n"))),
                        ]))
                }
                return JSONText.compact(
                    .object(
                        JSONObject([
                            ("path", .string(result.path)), ("passed", .bool(result.passed)),
                            ("updated", .bool(result.wasUpdated)), ("failures", .array(failures)),
                        ])))
            }
            lines.append(
                JSONText.compact(.object(JSONObject([("passed", .int(results.count - failed.count)), ("failed", .int(failed.count))]))))
            return lines
        case .text:
            var lines = results.map { result in
                (result.passed ? wrapped("PASS", "32") : wrapped("FAIL", "31")) + " \(result.path)" + (result.wasUpdated ? " (updated)" : "")
            }
            for result in failed { lines += [""] + result.report }
            if !failed.isEmpty { lines.append("") }
            lines.append("\(results.count - failed.count) passed, \(failed.count) failed")
            return lines
        }
    }

    /// A line colored by its first characters.
    func color(_ text: String) -> String {
        if text.hasPrefix("=> ") { return wrapped(text, "2") }
        if text.hasPrefix("error:") { return wrapped(text, "31") }
        if text.count > 1, text.dropFirst().first == " ", let operation = DiffEntry.Operation(rawValue: String(text.prefix(1))) {
            return wrapped(text, Self.colorCode(of: operation))
        }
        return text
    }
}

extension CommandOutput {
    /// Whether it prints lines of its own in the text format.
    var printsLines: Bool {
        switch self {
        case .none, .loaded, .activated, .expectationHeld: false
        default: true
        }
    }
}

// MARK: - Exploration

extension Renderer {
    /// What `fluxsh explore` prints: what ran and what was checked, the failure (shrunk, with
    /// its steps' diff lines) if one was found, and the coverage of each action case.
    public func report(_ report: Explorer.Report, options: Explorer.Options, seconds: Double, savedTo file: String?) -> [String] {
        var lines = [
            "explore \(options.stores.joined(separator: " ")): seed \(report.seed), up to \(options.runs) run\(options.runs == 1 ? "" : "s") of \(options.steps) action\(options.steps == 1 ? "" : "s")"
                + (options.shard.map { ", shard \($0.index)/\($0.count)" } ?? ""),
            "checks: " + report.checks.joined(separator: ", "),
        ]
        let rate = seconds > 0 ? Int(Double(report.actions) / seconds) : 0
        let trapped = report.failure?.check == .trap
        if trapped {
            lines.append("the exploring process died after \(report.actions) action\(report.actions == 1 ? "" : "s") of a run")
        } else {
            lines.append(
                "\(report.actions) action\(report.actions == 1 ? "" : "s") in \(report.runs) run\(report.runs == 1 ? "" : "s"), "
                    + "\(format2(seconds)) s (\(rate) actions/s)" + (report.failure == nil ? ": no failure" : ""))
        }
        if let failure = report.failure {
            lines.append("")
            let initially = failure.actions.isEmpty && !trapped
            lines.append(wrapped("FAIL", "31") + ": \(failure.check)" + (trapped || initially ? "" : " (run \(failure.run + 1))"))
            lines.append("  " + failure.message)
            if !initially {
                lines.append("shrunk from \(failure.actions.count) action\(failure.actions.count == 1 ? "" : "s") to \(failure.minimal.count):")
            }
            for (step, printed) in zip(failure.minimal, failure.minimalLines) {
                lines.append("  " + (step.wasRefused ? "! " : "") + "dispatch " + step.action.description)
                for line in printed { lines.append("    " + (colors ? color(line) : line)) }
            }
            if let file { lines.append("saved \(file) (replay: \(report.programName) test \(file))") }
        }
        lines.append("")
        guard !trapped else {
            lines.append("coverage: not known (the exploring process died)")
            return lines
        }
        lines.append("coverage: dispatched, refused, changed state")
        let width = report.coverage.map { $0.store.count + $0.name.count + 1 }.max() ?? 0
        for row in report.coverage {
            let name = row.store + "." + row.name
            let padding = String(repeating: " ", count: width - name.count + 2)
            if let reason = row.notGenerated {
                lines.append("  \(name)\(padding)never generated: \(reason)")
            } else if row.dispatched == 0 {
                lines.append("  \(name)\(padding)never generated")
            } else {
                func column(_ number: Int) -> String {
                    let text = String(number)
                    return String(repeating: " ", count: max(0, 8 - text.count)) + text
                }
                lines.append("  \(name)\(padding)\(column(row.dispatched))\(column(row.refused))\(column(row.changed))")
            }
        }
        return lines
    }

    /// Seconds with two decimals.
    private func format2(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100).rounded())
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100)." + (fraction.count == 1 ? "0" + fraction : fraction)
    }

    private func wrapped(_ text: String, _ code: String) -> String { colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}
