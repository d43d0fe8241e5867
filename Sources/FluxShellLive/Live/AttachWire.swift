import FluxShellJSON
import FluxShellRunner
import FluxShellSystem
import FluxShellValues

/// The attach protocol: what a shell and an app's agent say to each other over the socket, one
/// JSON object per line each way (besides the command lines a shell sends).
///
/// A client that sends command lines only (`socat - UNIX-CONNECT:PATH`) gets what `--format json`
/// prints, one object per command, and one object per action the app dispatches by itself
/// (`{"event":"app",…}`). `fluxsh attach` first sends a ``Hello``; it then gets each output line
/// framed (``Frame``), in the format it asked for, and a `done` frame after each line.
package enum AttachWire {
    /// What `fluxsh attach` asks for, on its first line.
    public struct Hello: Sendable, Equatable {
        public var format: Renderer.Format = .text
        public var colors = false
        /// The terminal's columns; `nil` when piped.
        public var width: Int?
        /// A terminal: errors are not located, expected diff lines are refused.
        public var interactive = false
        /// The file name in located errors (`<stdin>`).
        public var file = "<stdin>"
        public var echo = false
        public var bail = false
        /// The attaching shell's name (`notesh`): what a saved scenario and the hints name.
        public var program: String?
        /// The shell writes the files `save` makes (a ``Frame/save(file:line:scenario:saved:)``), where
        /// its user works; without it, the app writes them, relative to its own working folder.
        public var writesSaves = false
        /// Each step's object names its number in `history` (`"step":N`), for a client that
        /// keeps a timeline (the devtools page).
        public var numbersSteps = false

        public init() {}

        public var line: String {
            var object = JSONObject([
                ("fluxsh", .int(1)), ("format", .string(format.rawValue)), ("colors", .bool(colors)),
                ("interactive", .bool(interactive)), ("file", .string(file)), ("echo", .bool(echo)),
                ("bail", .bool(bail)),
            ])
            if let width { object["width"] = .int(width) }
            if let program { object["program"] = .string(program) }
            if writesSaves { object["writesSaves"] = .bool(true) }
            if numbersSteps { object["steps"] = .bool(true) }
            return JSONText.compact(.object(object))
        }

        /// The hello `line` holds, or `nil` when it is not one.
        public init?(line: Substring) {
            guard line.hasPrefix("{\"fluxsh\""), case .object(let object)? = try? JSONParser.parse(line) else {
                return nil
            }
            if case .string(let text)? = object["format"] { format = Renderer.Format(rawValue: text) ?? .text }
            if case .bool(let flag)? = object["colors"] { colors = flag }
            if case .int(let columns)? = object["width"], columns > 0 { width = columns }
            if case .bool(let flag)? = object["interactive"] { interactive = flag }
            if case .string(let name)? = object["file"] { file = name }
            if case .bool(let flag)? = object["echo"] { echo = flag }
            if case .bool(let flag)? = object["bail"] { bail = flag }
            if case .bool(let flag)? = object["writesSaves"] { writesSaves = flag }
            if case .bool(let flag)? = object["steps"] { numbersSteps = flag }
            // NB: a word of a program's name only: it is printed in a saved file's first line.
            if case .string(let name)? = object["program"], (1...64).contains(name.utf8.count),
                name.unicodeScalars.allSatisfy({
                    $0.properties.isAlphabetic || "0123456789-_.".unicodeScalars.contains($0)
                })
            {
                program = name
            }
        }
    }

    /// One line from the agent to a shell that said hello.
    public enum Frame: Sendable, Equatable {
        /// The answer to the hello: the app's name and the prompt.
        case attached(name: String, prompt: String)
        /// A line of standard output.
        case out(String)
        /// A line of standard error.
        case err(String)
        /// A line of what the app did by itself (`<= ACTION`, its diff).
        case app(String)
        /// Line `line` ran; `failed` when it, or expected lines before it, failed; the prompt now.
        case done(line: Int, failed: Bool, prompt: String)
        /// The completions of a `{"complete":TEXT}` request: the word completed, and candidates.
        case completions(word: String, candidates: [String])
        /// `save FILE` of a shell that writes its saves, on line `line`: the file as typed, the
        /// scenario to write there, and the lines to print once it is written (the confirmation a
        /// local `save` prints).
        case save(file: String, line: Int, scenario: String, saved: [String])
        /// The session ends: `detached` (the shell left), or `app exited`.
        case bye(String)
        /// The answer to a `{"stateAfter":N}` request: each loaded store's state after step N (the
        /// page's inspector of a step it did not see), or why there is none.
        case stateAfter(step: Int, states: JSONObject?, error: String?)
        /// The answer to an `{"open":SCENARIO,"file":NAME}` request: the file as named, whether the
        /// session is now the scenario's (paused at its first step) or nothing changed, how many
        /// steps it has, the errors its lines made (each a JSON object, as the renderer writes
        /// one), and the prompt now.
        case opened(file: String, isOpen: Bool, steps: Int, errors: [String], prompt: String)

        /// Appends an ``app(_:)`` frame for each whole line of `text`, as ``line`` writes it.
        public static func writeApp(linesOf text: borrowing OutputBuffer, to output: inout OutputBuffer) {
            JSONText.writeLines(of: text, between: #"{"app":""#, and: #""}"#, to: &output)
        }

        /// Appends an ``out(_:)`` frame, or an ``err(_:)`` frame when `isError`, for each whole
        /// line of `text` within `range`, as ``line`` writes it.
        public static func writeOutput(
            linesOf text: borrowing OutputBuffer, in range: Range<Int>, isError: Bool, to output: inout OutputBuffer
        ) {
            let prefix: StaticString = isError ? #"{"err":""# : #"{"out":""#
            JSONText.writeLines(of: text, in: range, between: prefix, and: #""}"#, to: &output)
        }

        /// The frame as one line of compact JSON, without its newline.
        public var line: String {
            var text = OutputBuffer()
            write(to: &text)
            return text.text
        }

        /// Appends ``line`` and a newline, written straight into `output`: no value or string is
        /// made for the frame (the `done` that ends each line a shell sends).
        public func writeLine(to output: inout OutputBuffer) {
            write(to: &output)
            output.append(0x0A)
        }

        /// Appends the frame as compact JSON, without its newline.
        private func write(to output: inout OutputBuffer) {
            // NB: each key goes out with what surrounds it, as one piece of text.
            func string(after key: StaticString, _ text: String) {
                output.append(key)
                JSONText.writeQuoted(text, to: &output)
            }
            func number(after key: StaticString, _ number: Int) {
                output.append(key)
                output.appendDecimal(number)
            }
            func strings(after key: StaticString, _ texts: [String]) {
                output.append(key)
                Self.writeArray(texts, to: &output)
            }
            switch self {
            case .attached(let name, let prompt):
                string(after: #"{"attached":"#, name)
                string(after: #","prompt":"#, prompt)
            case .out(let text): string(after: #"{"out":"#, text)
            case .err(let text): string(after: #"{"err":"#, text)
            case .app(let text): string(after: #"{"app":"#, text)
            case .bye(let reason): string(after: #"{"bye":"#, reason)
            case .done(let line, let failed, let prompt):
                number(after: #"{"done":"#, line)
                string(after: failed ? #","failed":true,"prompt":"# : #","failed":false,"prompt":"#, prompt)
            case .completions(let word, let candidates):
                string(after: #"{"word":"#, word)
                strings(after: #","completions":"#, candidates)
            case .save(let file, let line, let scenario, let saved):
                string(after: #"{"save":"#, file)
                number(after: #","line":"#, line)
                string(after: #","scenario":"#, scenario)
                strings(after: #","saved":"#, saved)
            case .stateAfter(let step, let states, let error):
                number(after: #"{"stateAfter":"#, step)
                if let states {
                    output.append(#","states":"#)
                    JSONText.writeCompact(.object(states), to: &output)
                }
                if let error { string(after: #","error":"#, error) }
            case .opened(let file, let isOpen, let steps, let errors, let prompt):
                string(after: #"{"opened":"#, file)
                output.append(isOpen ? #","open":true"# : #","open":false"#)
                number(after: #","steps":"#, steps)
                strings(after: #","errors":"#, errors)
                string(after: #","prompt":"#, prompt)
            }
            output.append(0x7D)
        }

        /// Appends `["a","b"]`.
        private static func writeArray(_ texts: [String], to output: inout OutputBuffer) {
            output.append(0x5B)
            for (index, text) in texts.enumerated() {
                if index > 0 { output.append(0x2C) }
                JSONText.writeQuoted(text, to: &output)
            }
            output.append(0x5D)
        }

        /// The frame `line` holds, or `nil` when it is not one.
        public init?(line: Substring) {
            guard case .object(let object)? = try? JSONParser.parse(line) else { return nil }
            self.init(object: object)
        }

        /// The frame the UTF-8 `bytes` of a line hold, or `nil` when they are not one: read as
        /// they came, with no text made of the line.
        public init?(bytes: ArraySlice<UInt8>) {
            guard case .object(let object)? = try? JSONParser.parse(bytes) else { return nil }
            self.init(object: object)
        }

        // NB: always inlined: called, it passes a frame's whole object on, on every line
        // `fluxsh attach` reads (the budget's `attached shell` path).
        @inline(__always) private init?(object: JSONObject) {
            guard let (key, value) = object.members.first(where: { _ in true })
            else { return nil }
            func text(_ key: String) -> String? {
                if case .string(let text)? = object[key] { return text }
                return nil
            }
            switch (key, value) {
            case ("attached", .string(let name)): self = .attached(name: name, prompt: text("prompt") ?? "")
            case ("out", .string(let text)): self = .out(text)
            case ("err", .string(let text)): self = .err(text)
            case ("app", .string(let text)): self = .app(text)
            case ("done", .int(let line)):
                guard case .bool(let failed)? = object["failed"] else { return nil }
                self = .done(line: line, failed: failed, prompt: text("prompt") ?? "")
            case ("word", .string(let word)):
                guard case .array(let list)? = object["completions"] else { return nil }
                self = .completions(
                    word: word,
                    candidates: list.compactMap {
                        if case .string(let text) = $0 { return text }
                        return nil
                    })
            case ("bye", .string(let reason)): self = .bye(reason)
            case ("stateAfter", .int(let step)):
                var states: JSONObject?
                if case .object(let object)? = object["states"] { states = object }
                self = .stateAfter(step: step, states: states, error: text("error"))
            case ("opened", .string(let file)):
                guard case .bool(let isOpen)? = object["open"], case .int(let steps)? = object["steps"],
                    case .array(let list)? = object["errors"]
                else { return nil }
                self = .opened(
                    file: file, isOpen: isOpen, steps: steps,
                    errors: list.compactMap {
                        if case .string(let text) = $0 { return text }
                        return nil
                    }, prompt: text("prompt") ?? "")
            case ("save", .string(let file)):
                guard let scenario = text("scenario"), case .int(let line)? = object["line"],
                    case .array(let list)? = object["saved"]
                else { return nil }
                self = .save(
                    file: file, line: line, scenario: scenario,
                    saved: list.compactMap {
                        if case .string(let text) = $0 { return text }
                        return nil
                    })
            default: return nil
            }
        }
    }

    /// A client's request for each loaded store's state after step `step`, without travelling.
    public static func stateAfterRequest(_ step: Int) -> String {
        JSONText.compact(.object(JSONObject([("stateAfter", .int(step))])))
    }

    /// A page's request to open `scenario`, the text of the file named `file`, in place of its
    /// session.
    public static func openRequest(_ scenario: String, file: String) -> String {
        JSONText.compact(.object(JSONObject([("open", .string(scenario)), ("file", .string(file))])))
    }

    /// A shell's request for completions of the text before its cursor.
    public static func completionRequest(_ text: String) -> String {
        JSONText.compact(.object(JSONObject([("complete", .string(text))])))
    }

    /// A line the user typed, as a shell sends it: one that begins with `{` (which no command
    /// does) goes after a space, so that the agent runs it as a command, says what is wrong with
    /// it and ends it with `done`, rather than take `{"complete":…}` for a request.
    public static func typedLine(_ text: String) -> String {
        text.hasPrefix("{") ? " " + text : text
    }

    /// What the agent says, and `fluxsh attach` prints, when the app stops its agent: a clean
    /// end of the session (status 0).
    public static let appExited = "app exited"
    /// What `fluxsh attach` prints when the app's side closed with no word from its agent (the
    /// app exited without stopping it, crashed or was killed): status 1.
    public static let appExitedUnexpectedly = "app exited unexpectedly"
    /// What `fluxsh listen` prints when the network between it and the app was lost (no answer
    /// from the app's host for some seconds): status 1.
    public static let appDisconnected = "app disconnected"
    /// What the agent says when the shell leaves (`detach`, `quit`, the end of its input).
    public static let detached = "detached"

    /// Why the agent ended the session of a shell that left its answers unread (`held` bytes, more
    /// than `limit`, for `seconds`): everything before this was sent, and the lines after
    /// `lastLine` were not run.
    public static func leftUnread(held: Int, limit: Int, seconds: Int64, lastLine: Int) -> String {
        "the app ended the session: \(held) bytes of answers were left unread for \(seconds) s "
            + "(it holds at most \(limit) bytes for \(seconds) s); "
            + (lastLine == 0 ? "no line was run" : "the lines after line \(lastLine) were not run")
    }

    /// Why the agent refuses a connection when it serves as many as it may.
    public static func full(limit: Int) -> String {
        "refused: the app serves \(limit) connections at most, and they are all open; detach a shell and try again"
    }

    /// What `fluxsh attach` says when the app closed the connection without a last word, while
    /// it still runs: it does so only to a shell that left its answers unread past its limit.
    public static func closedWhileRunning(_ name: String) -> String {
        "the app '\(name)' closed the connection before the session ended; it still runs: "
            + "a shell that leaves its answers unread past the app's limit is disconnected, and those answers are lost"
    }
}

extension AttachConnection {
    /// Reads what is available (blocking until something is); `nil` at the end of the stream (or
    /// when the app reset the connection).
    /// Returns the whole frames received; text that is not a frame is skipped.
    package func receive() -> [AttachWire.Frame]? {
        receiveLines()?.compactMap { AttachWire.Frame(bytes: $0) }
    }
}
