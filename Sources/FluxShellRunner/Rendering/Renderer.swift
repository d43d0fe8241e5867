import FluxShellJSON
import FluxShellLanguage
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// Turns what commands did into what people and scripts read: text lines (optionally colored)
/// or one `--format json` object per command (“Printed values” in the reference), errors included.
/// The one place output is shaped, for every mode: piped, `run`, `test` and the interactive shell.
package struct Renderer: Sendable {
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
    /// several lines (“Printed values” in the reference). `nil` (piped, files, scenarios, JSON)
    /// keeps one line per change.
    public var width: Int?
    /// In JSON, a step's object names its number in `history` (`"step":N`): the devtools page
    /// pairs what it sees with the timeline by it. Asked for by an attached shell's hello.
    public var numbersSteps = false

    public init(format: Format = .text, colors: Bool = false, locatesErrors: Bool = true, width: Int? = nil) {
        self.format = format
        self.colors = colors
        self.locatesErrors = locatesErrors
        self.width = width
    }

    // MARK: - Results

    /// One line of what a command prints in the text format, as data: ``forEachLine(of:watching:_:)``
    /// is the one walk of a result, ``write(_:to:)`` the one place a line becomes text.
    public enum Line {
        /// A line of a diff, `indent` spaces in (`why` nests its changes under its steps).
        case diff(CommandDiff.Line, indent: Int = 0)
        /// `warning: …` after a diff: not a diff line (expected lines, `save` and `--update`
        /// leave it out).
        case warning(String)
        /// Any other line a command shows (a value printed over several lines is one).
        case text(String)
    }

    /// Appends what `result` prints, each line ending in a newline: in text, its diff (only the
    /// lines `filter` shows, when paths are watched), its other lines and its warnings; in JSON,
    /// its one object, with the whole diff.
    public func write(
        _ result: CommandResult, command: Command, line: Int?, watching filter: WatchFilter? = nil,
        to output: inout OutputBuffer
    ) {
        switch format {
        case .json:
            output.appendLine(jsonLine(of: result, command: command, line: line, marking: numbersSteps ? filter : nil))
        case .text:
            forEachLine(of: result, watching: filter) { write($0, to: &output) }
        }
    }

    /// `timer on`: a command's wall time, after what it printed: `time: 0.41 ms`, or in JSON
    /// `{"line":3,"seconds":0.000412}`.
    public func writeTime(_ duration: Duration, line: Int, to output: inout OutputBuffer) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        switch format {
        case .json:
            output.appendLine(
                JSONText.compact(.object(JSONObject([("line", .int(line)), ("seconds", .double(seconds))]))))
        case .text:
            let milliseconds = seconds * 1_000
            let text =
                switch milliseconds {
                case ..<10: String(format2: milliseconds) + " ms"
                case ..<1_000: String(Int(milliseconds.rounded())) + " ms"
                default: String(format2: seconds) + " s"
                }
            write(.text("time: " + text), to: &output)
        }
    }

    /// Calls `body` with each line `result` prints in the text format: its diff's (only those
    /// `filter` shows), the lines of its output, then its warnings.
    public func forEachLine(of result: CommandResult, watching filter: WatchFilter? = nil, _ body: (Line) -> Void) {
        result.diff?.forEachLine(showing: filter) { body(.diff($0)) }
        // NB: a dispatch shows nothing else: no walk of an output, no list of warnings.
        if result.output.printsLines { forEachLine(of: result.output, body) }
        if result.followUpLimitReached != nil {
            for warning in Self.warnings(of: result) { body(.warning(warning)) }
        }
    }

    /// `warning: …` lines printed after the diff. They are not diff lines: expected lines, `save`
    /// and `--update` leave them out; `--format json` has them as `"warnings"`.
    static func warnings(of result: CommandResult) -> [String] {
        guard let limit = result.followUpLimitReached else { return [] }
        return ["warning: effects dispatched more than \(limit) follow-up actions; the rest were dropped"]
    }

    /// Appends `line` and a newline: colored when ``colors`` is on, a change's values over
    /// several lines when it is wider than ``width``.
    public func write(_ line: Line, to output: inout OutputBuffer) {
        switch line {
        case .diff(.entry(let entry), let indent) where colors || width != nil:
            for text in lines(of: entry, indent: indent) {
                for _ in 0..<indent { output.append(0x20) }
                output.appendLine(text)
            }
        case .diff(.followUp(let action), let indent) where colors:
            for _ in 0..<indent { output.append(0x20) }
            output.appendLine(wrapped("=> " + action.description, "2"))
        case .diff(let line, let indent):
            // NB: the common line, a change in plain text, is written as bytes, without a string.
            for _ in 0..<indent { output.append(0x20) }
            line.write(to: &output)
            output.append(0x0A)
        case .warning(let text), .text(let text):
            output.appendLine(text)
        }
    }

    /// The lines `result` prints in the text format, as a terminal shows them (a value printed
    /// over several lines is several lines).
    public func lines(of result: CommandResult, watching filter: WatchFilter? = nil) -> [String] {
        var output = OutputBuffer()
        forEachLine(of: result, watching: filter) { write($0, to: &output) }
        return output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
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

    /// Calls `body` with the lines of what a command shows besides its diff.
    private func forEachLine(of output: CommandOutput, _ body: (Line) -> Void) {
        switch output {
        case .none, .loaded, .activated, .expectationHeld:
            return
        case .stores(let stores):
            let width = (stores.map(\.name.count).max() ?? 0) + 2
            for store in stores {
                guard !store.summary.isEmpty else {
                    body(.text(store.name))
                    continue
                }
                body(
                    .text(store.name + String(repeating: " ", count: max(1, width - store.name.count)) + store.summary))
            }
        case .actions(let store, let signatures, let reason):
            guard !signatures.isEmpty else {
                return body(.text("(the actions of '\(store)' cannot be listed: \(reason ?? "it has none"))"))
            }
            for signature in signatures {
                let choices = signature.parameters.flatMap(\.choices)
                var line = signature.description + (choices.isEmpty ? "" : "    " + choices.joined(separator: " | "))
                if let reason = signature.notDispatchableBecause {
                    line += "    (not dispatchable from text: \(reason))"
                }
                body(.text(line))
            }
        case .value(let path, let value):
            // NB: on a terminal, a value wider than it prints as the whole state does.
            guard !path.isRoot else { return body(.text(JSONText.pretty(value))) }
            body(.text(JSONText.fitting(value, width: width ?? .max).joined(separator: "\n")))
        case .effects(let listing):
            if listing.isAttached {
                return body(
                    .text(
                        "(the attached app's effects run on its own clock: the shell neither lists nor advances them)"))
            }
            guard !listing.entries.isEmpty else { return body(.text("(no effects running)")) }
            for entry in listing.entries { body(.text(entry.text)) }
        case .invariantsHeld(0):
            body(.text("(no loaded store declares invariants)"))
        case .invariantsHeld:
            return
        case .history(let listing):
            forEachLine(of: listing, body)
        case .why(let listing):
            forEachLine(of: listing, body)
        case .committed(let count):
            body(.text("(\(count == 1 ? "1 step" : "\(count) steps") forgotten: the history starts here)"))
        case .swept(let removed):
            guard !removed.isEmpty else { return body(.text("(no step is skipped or replaced: nothing to sweep)")) }
            let numbers = removed.map(String.init).joined(separator: ", ")
            body(.text("(removed step\(removed.count == 1 ? "" : "s") \(numbers))"))
        case .found(let places):
            guard !places.isEmpty else { return body(.text("(nothing found)")) }
            for place in places { body(.text("\(place.path): " + JSONText.compact(place.value))) }
        case .watches(let paths):
            guard !paths.isEmpty else { return body(.text("(nothing is watched)")) }
            for path in paths { body(.text(path)) }
        case .saved(let file, let count, let running):
            body(.text("saved \(count) state-changing command\(count == 1 ? "" : "s") to \(file)"))
            if running > 0 {
                body(
                    .text(
                        "warning: \(running) effect\(running == 1 ? " is" : "s are") still running: the scenario fails at its end until they are advanced or cancelled (advance, or cancel, then save again)"
                    ))
            }
        case .help(let lines):
            for line in lines {
                for part in Self.wrap(line, width: width) { body(.text(part)) }
            }
        case .steppedOver(let moved):
            for step in moved.steps { body(.text(Self.line(of: step, redone: moved.isRedo))) }
        }
    }

    /// `history`'s lines: each step with its number and marks, its follow-ups, and where steps
    /// went (undone then replaced, swept).
    private func forEachLine(of listing: HistoryListing, _ body: (Line) -> Void) {
        if listing.forgotten > 0 { body(.text("(\(listing.forgotten) earlier steps are no longer kept)")) }
        let width = String(listing.entries.last?.number ?? 0).count
        // NB: with nothing forgotten, the steps count from 1: steps undone and replaced before
        // the first one kept show too.
        var previous: Int? = listing.forgotten == 0 ? 0 : nil
        for entry in listing.entries {
            // NB: numbers stay those `why` shows; a step undone then replaced by a new one
            // leaves its number unused, and says so.
            // NB: a gap is cut where its steps went another way (`sweep` took some out).
            var first = (previous ?? entry.number) + 1
            while first < entry.number {
                let isSwept = listing.swept.contains(first)
                var last = first
                while last + 1 < entry.number, listing.swept.contains(last + 1) == isSwept { last += 1 }
                let gap = first == last ? "step \(first) was" : "steps \(first)-\(last) were"
                let how = isSwept ? "swept" : "undone, then replaced"
                body(.text(String(repeating: " ", count: width + 4) + "(\(gap) \(how))"))
                first = last + 1
            }
            previous = entry.number
            let number = String(entry.number)
            let undone =
                entry.isUndone
                ? "   (undone)"
                : entry.isSkipped
                    ? "   (skipped)" : entry.replacedAt.map { "   (replaced at step \($0))" } ?? ""
            body(
                .text(String(repeating: " ", count: width - number.count + 2) + number + "  " + entry.text + undone)
            )
            for followUp in entry.followUps {
                body(.text(String(repeating: " ", count: width + 4) + "=> " + followUp.description))
            }
        }
        if listing.entries.isEmpty { body(.text("(no actions dispatched yet)")) }
    }

    /// `(undid step 3: tick, which the app dispatched)`: a step an attached `undo` or `redo` moved over.
    static func line(of step: SteppedOver.Step, redone: Bool) -> String {
        let verb = redone ? "redid" : "undid"
        switch step.origin {
        case .app: return "(\(verb) step \(step.number): \(step.text), which the app dispatched)"
        case .appStates:
            // NB: the note is in parentheses already: `(3 changes dropped)`.
            let note =
                step.text.hasPrefix("(") && step.text.hasSuffix(")") ? step.text.dropFirst().dropLast() : step.text[...]
            return "(\(verb) step \(step.number): \(note))"
        case .shell:
            let made = step.text == "reset" ? "ran" : "dispatched"
            return "(\(verb) step \(step.number): \(step.text), which this shell \(made))"
        }
    }

    /// `why PATH`: each step numbered and named as `history` shows it, its lines indented below.
    private func forEachLine(of listing: WhyListing, _ body: (Line) -> Void) {
        if listing.forgotten > 0, !listing.steps.isEmpty {
            body(.text("(\(listing.forgotten) earlier steps are no longer kept)"))
        }
        let width = String(listing.steps.last?.number ?? 0).count
        let indent = String(repeating: " ", count: width + 4)
        for step in listing.steps {
            let number = String(step.number)
            body(.text(String(repeating: " ", count: width - number.count + 2) + number + "  " + step.action))
            for group in step.groups {
                if let followUp = group.followUp { body(.text(indent + "=> " + followUp.description)) }
                for entry in group.entries { body(.diff(.entry(entry), indent: indent.count)) }
            }
        }
        if listing.steps.isEmpty, listing.forgotten > 0 {
            body(
                .text(
                    "(no kept step changed \(listing.path); the \(listing.forgotten) earlier steps that may have are no longer kept)"
                ))
        } else if listing.steps.isEmpty {
            let origin = listing.isAttached ? "it was when the shell attached" : "the store was loaded"
            body(.text("(no step changed \(listing.path): it is as \(origin))"))
        }
    }

    /// The command's one line of `--format json`:
    /// `{"line":2,"command":"dispatch","action":"increment","changes":[…]}`.
    ///
    /// - Parameter marking: watched paths, for the devtools page: the whole diff is there, each
    ///   change the watches leave out marked `"hidden":true`, as the page prints what the shell
    ///   prints.
    public func jsonLine(of result: CommandResult, command: Command, line: Int?, marking filter: WatchFilter? = nil)
        -> String
    {
        var object = JSONObject()
        if let line { object["line"] = .int(line) }
        object["command"] = .string(command.word)
        for (key, value) in Self.fields(of: result, command: command) { object[key] = value }
        if let filter, let diff = result.diff {
            for (key, value) in Self.jsonMembers(of: diff, marking: filter) { object[key] = value }
        }
        if numbersSteps, let step = result.step { object["step"] = .int(step) }
        return JSONText.compact(.object(object))
    }

    /// A step of `history` in JSON.
    private static func json(of entry: HistoryListing.Entry) -> JSONValue {
        var object = JSONObject([
            ("number", .int(entry.number)), ("action", .string(entry.text)), ("undone", .bool(entry.isUndone)),
        ])
        if entry.isSkippable { object["skippable"] = .bool(true) }
        if entry.isSkipped { object["skipped"] = .bool(true) }
        if let step = entry.replacedAt { object["replacedAt"] = .int(step) }
        return .object(object)
    }

    /// A step of `why` in JSON: its own changes, and each follow-up's.
    private static func json(of step: WhyListing.Step) -> JSONValue {
        var object = JSONObject([("number", .int(step.number)), ("action", .string(step.action))])
        let own = step.groups.filter { $0.followUp == nil }.flatMap(\.entries)
        object["changes"] = .array(own.map(\.json))
        let followUps = step.groups.compactMap { group in
            group.followUp.map { action in
                JSONValue.object(
                    JSONObject([
                        ("action", .string(action.description)), ("changes", .array(group.entries.map(\.json))),
                    ])
                )
            }
        }
        if !followUps.isEmpty { object["followUps"] = .array(followUps) }
        return .object(object)
    }

    /// The members of a result's JSON object after `line` and `command`.
    private static func fields(of result: CommandResult, command: Command) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        switch result.output {
        case .none: break
        case .loaded(let store, let alias): fields = [("store", .string(store)), ("alias", .string(alias))]
        case .activated(let alias): fields = [("alias", .string(alias))]
        case .stores(let stores):
            let list = stores.map {
                JSONValue.object(JSONObject([("name", .string($0.name)), ("summary", .string($0.summary))]))
            }
            fields = [("stores", .array(list))]
        case .actions(_, let signatures, _): fields = [("actions", .array(signatures.map { .string($0.description) }))]
        case .value(let path, let value): fields = [("path", .string(path.description)), ("value", value)]
        case .history(let listing): fields = [("history", .array(listing.entries.map(json(of:))))]
        case .effects(let listing):
            let items = listing.entries.map { entry in
                var object = JSONObject([("number", .int(entry.number)), ("action", .string(entry.action))])
                if let line = entry.line { object["line"] = .int(line) }
                if !entry.ids.isEmpty { object["ids"] = .array(entry.ids.map { .string($0) }) }
                object["waitsFor"] = entry.waitsFor.map { .string($0) } ?? .null
                object["cancelled"] = .bool(entry.isCancelled)
                return JSONValue.object(object)
            }
            fields = [("effects", .array(items))]
            if listing.isAttached { fields.append(("attached", .bool(true))) }
        case .found(let places):
            let items = places.map { place in
                JSONValue.object(JSONObject([("path", .string(place.path.description)), ("value", place.value)]))
            }
            fields = [("found", .array(items))]
        case .expectationHeld: fields = [("passed", .bool(true))]
        case .invariantsHeld(let count): fields = [("passed", .bool(true)), ("invariants", .int(count))]
        case .why(let listing):
            fields = [("path", .string(listing.path.description)), ("steps", .array(listing.steps.map(json(of:))))]
            if listing.forgotten > 0 { fields.append(("forgotten", .int(listing.forgotten))) }
        case .watches(let paths): fields = [("watches", .array(paths.map(JSONValue.string)))]
        case .committed(let count): fields = [("forgotten", .int(count))]
        case .swept(let removed): fields = [("removed", .array(removed.map(JSONValue.int)))]
        case .saved(let file, _, let running):
            fields = [("file", .string(file))]
            if running > 0 { fields.append(("runningEffects", .int(running))) }
        case .help(let lines): fields = [("text", .string(lines.joined(separator: "\n")))]
        case .steppedOver(let moved):
            let steps = moved.steps.map { step in
                JSONValue.object(
                    JSONObject([
                        ("number", .int(step.number)), ("action", .string(step.text)),
                        ("by", .string(step.origin == .shell ? "shell" : "app")),
                    ]))
            }
            fields = [(moved.isRedo ? "redid" : "undid", .array(steps))]
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
            fields += jsonMembers(of: diff)
        }
        let warnings = Self.warnings(of: result)
        if !warnings.isEmpty { fields.append(("warnings", .array(warnings.map(JSONValue.string)))) }
        return fields
    }

    /// A diff's members of a command's JSON object: `changes`, and `followUps` when there are.
    ///
    /// - Parameter filter: watched paths: each change they leave out is marked `"hidden":true`.
    package static func jsonMembers(of diff: CommandDiff, marking filter: WatchFilter? = nil) -> [(String, JSONValue)] {
        func changes(_ entries: [DiffEntry]) -> JSONValue {
            .array(
                entries.map { entry in
                    guard let filter, !filter.shows(entry), case .object(var object) = entry.json else {
                        return entry.json
                    }
                    object["hidden"] = .bool(true)
                    return .object(object)
                })
        }
        var members: [(String, JSONValue)] = [("changes", changes(diff.ownStep.entries))]
        if !diff.followUpSteps.isEmpty {
            let list = diff.followUpSteps.map { step in
                JSONValue.object(
                    JSONObject([
                        ("action", .string(step.followUp?.description ?? "")), ("changes", changes(step.entries)),
                    ]))
            }
            members.append(("followUps", .array(list)))
        }
        return members
    }

    // MARK: - An attached app's own steps

    /// Appends what a store did with no command, as a shell shows it: `<= ACTION` (or `<= (the
    /// store changed by itself)`) and its diff (only the lines `filter` shows), or `(N changes
    /// dropped)` and the state again; in JSON, one object (`{"event":"app","action":…,
    /// "changes":[…]}`, `{"event":"dropped",…}`).
    public func write(_ step: AppStep, watching filter: WatchFilter? = nil, to output: inout OutputBuffer) {
        if let (action, diff, step) = step.announced {
            switch format {
            case .text:
                output.appendLine(wrapped("<= " + action, "1"))
                diff.forEachLine(showing: filter) { write(.diff($0), to: &output) }
            case .json:
                var object = JSONObject([("event", .string("app")), ("action", .string(action))])
                for (key, value) in Self.jsonMembers(of: diff, marking: numbersSteps ? filter : nil) {
                    object[key] = value
                }
                if numbersSteps { object["step"] = .int(step) }
                output.appendLine(JSONText.compact(.object(object)))
            }
            return
        }
        guard case .dropped(let count, let states) = step else { return }
        switch format {
        case .text:
            output.appendLine(AppStep.resyncNote(dropped: count))
            let state = states.count == 1 ? states[0].state : .object(JSONObject(states.map { ($0.alias, $0.state) }))
            output.appendLine(JSONText.pretty(state))
        case .json:
            let object = JSONObject([
                ("event", .string(count == 0 ? "set" : "dropped")), ("dropped", .int(count)),
                ("states", .object(JSONObject(states.map { ($0.alias, $0.state) }))),
            ])
            output.appendLine(JSONText.compact(.object(object)))
        }
    }

    // MARK: - Diagnostics

    /// A diagnostic's lines in text (`FILE:LINE: error: MESSAGE (HINT)`, then its details), or
    /// its one JSON object (`{"line":N,"error":"MESSAGE (HINT)\nDETAILS"}`). The one writer of
    /// `error:`.
    public func lines(of diagnostic: Diagnostic) -> [String] {
        switch format {
        case .text:
            let isWarning = diagnostic.kind == .warning
            let color = isWarning ? "33" : "31"
            var located = ""
            if locatesErrors || diagnostic.isInReadFile, let location = diagnostic.location {
                located = Self.visible("\(location): ")
            }
            // NB: on a terminal the message is cut at spaces, as `help` is; its details (a table
            // of expected and actual lines) are not. The location stays out of the color.
            var message = Self.wrap(
                located + (isWarning ? "warning: " : "error: ") + Self.visible(diagnostic.text), width: width)
            for index in message.indices {
                let isLocated = index == 0 && message[0].hasPrefix(located)
                let text = isLocated ? String(message[0].dropFirst(located.count)) : message[index]
                message[index] = (isLocated ? located : "") + wrapped(text, color)
            }
            return message + diagnostic.details.map(Self.visible)
        case .json:
            return [JSONText.compact(json(of: diagnostic))]
        }
    }

    /// `line` cut at spaces into lines of at most `width` characters (a word longer than that
    /// stands alone), each after the first indented to where the line's text begins: past its
    /// leading spaces and, in a table's row (`  undo [N]   Steps back…`), past its first column.
    /// Unchanged without a width (piped output) or when it fits.
    static func wrap(_ line: String, width: Int?) -> [String] {
        guard let width, line.count > width else { return [line] }
        let characters = Array(line)
        var textStart = characters.prefix { $0 == " " }.count
        // NB: a row's second column starts after the first run of two spaces past its first word.
        if textStart < characters.count - 1,
            let gap = (textStart..<characters.count - 1).first(where: {
                characters[$0] == " " && characters[$0 + 1] == " "
            })
        {
            textStart = characters[gap...].firstIndex { $0 != " " } ?? textStart
        }
        let indent = String(repeating: " ", count: textStart <= width / 2 ? textStart : 4)
        var lines: [String] = []
        var current = String(characters[..<textStart])
        var words = String(characters[textStart...]).split(separator: " ", omittingEmptySubsequences: false)[...]
        var isFirstWord = true
        while let word = words.popFirst() {
            if !isFirstWord, current.count + 1 + word.count > width, current.count > indent.count {
                lines.append(current)
                current = indent + word
            } else {
                current += (isFirstWord ? "" : " ") + word
            }
            isFirstWord = false
        }
        lines.append(current)
        return lines
    }

    /// `text` with its control characters (an escape code, a NUL, a bell, but a tab) and the
    /// characters that reverse text (U+202E…) written as `\u{1B}`: an error that quotes what was
    /// typed, or a file's name, never sends a terminal codes it would obey or shows reversed.
    public static func visible(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F || JSONText.isHidden(scalar)
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// `{"line":N,"error":"MESSAGE (HINT)\nDETAILS"}` (no `line` when it concerns no line).
    package func json(of diagnostic: Diagnostic) -> JSONValue {
        var object = JSONObject()
        if let location = diagnostic.location {
            if diagnostic.isInReadFile { object["file"] = .string(location.file) }
            object["line"] = .int(location.line)
        }
        object[diagnostic.kind == .warning ? "warning" : "error"] = .string(
            ([diagnostic.text] + diagnostic.details).joined(separator: "\n"))
        if let (expected, actual) = diagnostic.diff {
            object["expected"] = .array(expected.map(JSONValue.string))
            object["actual"] = .array(actual.map(JSONValue.string))
        }
        return .object(object)
    }

    // MARK: - Scenarios

    /// `{"path":…,"passed":…,"updated":…,"failures":[{"line":N,"error":…}]}`
    public func json(of result: ScenarioRunner.Result) -> JSONObject {
        JSONObject([
            ("path", .string(result.path)), ("passed", .bool(result.passed)), ("updated", .bool(result.wasUpdated)),
            ("failures", .array(result.failures.map(json(of:)))),
        ])
    }

    /// What `fluxsh test` prints for `results`: in text, a `PASS`/`FAIL` line per scenario, the
    /// failures' reports, how many scenarios `--bail` left unstarted (`notRun`) when any, and
    /// `N passed, M failed`; in JSON, one object per scenario, then `{"passed":N,"failed":M}`
    /// (with `"notRun":K` when any).
    public func report(_ results: [ScenarioRunner.Result], notRun: Int = 0) -> [String] {
        let failed = results.filter { !$0.passed }
        switch format {
        case .json:
            var lines = results.map { JSONText.compact(.object(json(of: $0))) }
            var summary = JSONObject([("passed", .int(results.count - failed.count)), ("failed", .int(failed.count))])
            if notRun > 0 { summary["notRun"] = .int(notRun) }
            lines.append(JSONText.compact(.object(summary)))
            return lines
        case .text:
            var lines = results.map { result in
                (result.passed ? wrapped("PASS", "32") : wrapped("FAIL", "31")) + " \(Self.visible(result.path))"
                    + (result.wasUpdated ? " (updated)" : "")
            }
            for result in failed { lines += [""] + result.report }
            if !failed.isEmpty { lines.append("") }
            if notRun > 0 {
                lines.append("\(notRun) scenario\(notRun == 1 ? "" : "s") not run: --bail stopped at the first failure")
            }
            lines.append("\(results.count - failed.count) passed, \(failed.count) failed")
            return lines
        }
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

extension Renderer {
    /// `text` in the color of ANSI code `code` (`31` red), when the renderer prints colors.
    package func wrapped(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

extension String {
    /// `value` with two decimals (`0.41`, `12.00`), without Foundation's formatting.
    fileprivate init(format2 value: Double) {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        self = "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
