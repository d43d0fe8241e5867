import FluxShellJSON
import FluxShellLanguage
import FluxShellRunner
import FluxShellSystem
import FluxShellValues

/// `fluxsh explore`'s report, printed by the engine's one renderer.
extension Renderer {
    /// `fluxsh explore --format json`: the whole report as one object: `stores`, `seed`, `runs`
    /// (at most, and `ran`), `steps`, `actions`, `seconds`, `checks`, `failure` (`null`, or its
    /// `check`, `message`, `run`, `shrunkFrom`, `minimal` steps each with its `action` and its
    /// `changes` or `error`, and `saved`), and `coverage`.
    package func jsonReport(
        _ report: Explorer.Report, options: Explorer.Options, seconds: Double, savedTo file: String?
    )
        -> String
    {
        var object = JSONObject()
        object["stores"] = .array(options.stores.map(JSONValue.string))
        object["seed"] = .number(String(report.seed))
        object["runs"] = .int(options.runs)
        object["steps"] = .int(options.steps)
        object["ran"] = .int(report.runs)
        object["actions"] = .int(report.actions)
        object["seconds"] = .double((seconds * 1000).rounded() / 1000)
        object["checks"] = .array(report.checks.map(JSONValue.string))
        object["interrupted"] = .bool(report.wasInterrupted)
        if let failure = report.failure {
            var failed = JSONObject()
            failed["check"] = .string(failure.check.description)
            failed["message"] = .string(failure.message)
            if failure.check != .trap, !failure.commands.isEmpty { failed["run"] = .int(failure.run + 1) }
            failed["shrunkFrom"] = .int(failure.originalSteps)
            failed["minimal"] = .array(
                zip(failure.minimal, failure.minimalOutputs).map { step, output in
                    // NB: a dispatch is its action; a step of the clock, its command (`advance`).
                    var members: [(String, JSONValue)] =
                        step.command.dispatched.map { [("action", .string($0.description))] }
                        ?? [("command", .string(step.command.description))]
                    if case .object(let printed) = output.json {
                        for member in printed.members { members.append((member.key, member.value)) }
                    }
                    return .object(JSONObject(members))
                })
            failed["saved"] = file.map(JSONValue.string) ?? .null
            object["failure"] = .object(failed)
        } else {
            object["failure"] = .null
        }
        object["coverage"] = .array(
            report.coverage.map { row in
                var members: [(String, JSONValue)] = [
                    ("store", .string(row.store)), ("action", .string(row.name)), ("dispatched", .int(row.dispatched)),
                    ("refused", .int(row.refused)), ("changed", .int(row.changed)),
                ]
                if let reason = row.notGenerated { members.append(("notGenerated", .string(reason))) }
                return .object(JSONObject(members))
            })
        return JSONText.compact(.object(object))
    }

    /// What `fluxsh explore` prints: what ran and what was checked, the failure (shrunk, with
    /// its steps' diff lines) if one was found, and the coverage of each action case.
    package func report(_ report: Explorer.Report, options: Explorer.Options, seconds: Double, savedTo file: String?)
        -> [String]
    {
        var lines = [
            "explore \(options.stores.joined(separator: " ")): seed \(report.seed), up to \(options.runs) run\(options.runs == 1 ? "" : "s") of \(options.steps) action\(options.steps == 1 ? "" : "s")"
                + (options.shard.map { ", shard \($0.index)/\($0.count)" } ?? ""),
            "checks: " + report.checks.joined(separator: ", "),
        ]
        let rate = seconds > 0 ? Int(Double(report.actions) / seconds) : 0
        let trapped = report.failure?.check == .trap
        if trapped {
            lines.append(
                "the exploring process died after \(report.actions) action\(report.actions == 1 ? "" : "s") of a run")
        } else {
            lines.append(
                "\(report.actions) action\(report.actions == 1 ? "" : "s") in \(report.runs) run\(report.runs == 1 ? "" : "s"), "
                    + "\(format2(seconds)) s (\(rate) actions/s)" + (report.wasInterrupted ? ", interrupted" : "")
                    + (report.failure == nil ? ": no failure" : ""))
        }
        if let failure = report.failure {
            lines.append("")
            let initially = failure.commands.isEmpty && !trapped
            lines.append(
                wrapped("FAIL", "31") + ": \(failure.check)" + (trapped || initially ? "" : " (run \(failure.run + 1))")
            )
            lines.append("  " + failure.message)
            if !initially {
                lines.append(
                    "shrunk from \(failure.originalSteps) step\(failure.originalSteps == 1 ? "" : "s") to \(failure.minimal.count):"
                )
            }
            for (step, printed) in zip(failure.minimal, failure.minimalOutputs) {
                lines.append("  " + (step.wasRefused ? "! " : "") + step.command.description)
                switch printed {
                case .printed(let diff):
                    var output = OutputBuffer()
                    diff?.forEachLine { write(.diff($0, indent: 4), to: &output) }
                    lines += output.text.split(separator: "\n").map(String.init)
                case .refused(let diagnostic):
                    lines += self.lines(of: diagnostic).map { "    " + $0 }
                }
            }
            if let file { lines.append("saved \(file) (replay: \(report.programName) test \(file))") }
        }
        lines.append("")
        guard !trapped else {
            lines.append("coverage: not known (the exploring process died)")
            return lines
        }
        // NB: each count is right-aligned under its column's heading, the names padded to one width.
        let headings = ["dispatched", "refused", "changed state"]
        let nameWidth = max(report.coverage.map { $0.store.count + $0.name.count + 1 }.max() ?? 0, 7)
        func padded(_ text: String, to width: Int, left: Bool) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? padding + text : text + padding
        }
        lines.append(
            padded("coverage:", to: nameWidth + 2, left: false)
                + headings.map { padded($0, to: $0.count + 2, left: true) }.joined())
        for row in report.coverage {
            let name = "  " + padded(row.store + "." + row.name, to: nameWidth, left: false)
            if let reason = row.notGenerated {
                lines.append("\(name)  never generated: \(reason)")
            } else if row.dispatched == 0 {
                // NB: it could be made; no run chose it (few runs, or steps spent elsewhere).
                lines.append("\(name)  not reached")
            } else {
                let counts = zip(headings, [row.dispatched, row.refused, row.changed]).map { heading, count in
                    padded(String(count), to: heading.count + 2, left: true)
                }
                lines.append(name + counts.joined())
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
}
