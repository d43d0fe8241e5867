import FluxShellJSON
import FluxShellSystem

/// Turns a command line into a ``Command``.
///
/// ```swift
/// try CommandParser.parse(#"dispatch rename id: 2 title: "Buy milk""#)
/// // .dispatch(rename(id: 2, title: "Buy milk"))
/// ```
package enum CommandParser {
    /// Every command word, for completion and did-you-mean: those `help` explains, and `exit`.
    public static let commandWords = CommandHelp.entries.map(\.word) + ["exit"]
    /// What an attached session also completes: `detach` (a word of `quit` everywhere).
    public static let attachedCommandWords = commandWords + ["detach"]

    public static func parse(_ line: String) throws(ShellError) -> ParsedLine {
        try parse(line[...])
    }

    public static func parse(_ line: Substring) throws(ShellError) -> ParsedLine {
        var tokens: [Token] = []
        return try parse(line, reusing: &tokens)
    }

    /// Parses `line` with `tokens` as the lexer's buffer: a caller parsing line after line keeps
    /// one buffer instead of allocating one per line.
    public static func parse(_ line: Substring, reusing tokens: inout [Token]) throws(ShellError) -> ParsedLine {
        var rest = line
        var expectsFailure = false
        // NB: on the UTF-8 bytes, since `!` and the blanks are ASCII (no grapheme breaking).
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        if let bang = rest.utf8.firstIndex(where: { !blank($0) }), rest.utf8[bang] == UInt8(ascii: "!") {
            let after = rest.utf8.index(after: bang)
            if after == rest.endIndex || blank(rest.utf8[after]) {
                expectsFailure = true
                rest = rest[after...]
            }
        }
        try CommandLexer.tokens(in: rest, into: &tokens)
        guard let first = tokens.first else {
            if expectsFailure { throw ShellError("'!' must be followed by a command") }
            return ParsedLine(command: nil, expectsFailure: false)
        }
        return ParsedLine(command: try command(first, tokens[1...], in: line), expectsFailure: expectsFailure)
    }

    /// The command of the tokens of `line`.
    private static func command(_ first: Token, _ rest: ArraySlice<Token>, in line: Substring) throws(ShellError)
        -> Command
    {
        guard case .word = first.kind else {
            throw ShellError("expected a command, found \(first.text)", hint: "try 'help'")
        }
        let word = String(first.text)
        // NB: `dispatch`, the command of most lines, reads its arguments from the caller's token
        // buffer; the others, from an array of their own indexed from 0.
        if word == "dispatch" {
            guard let action = rest.first else {
                throw CommandHelp.usageError(of: "dispatch")
            }
            if case .word = action.kind, action.text.utf8.contains(UInt8(ascii: "(")) {
                throw swiftCall(line[action.text.startIndex...])
            }
            var paths: [ArgumentPath] = []
            let invocation = ActionInvocation(
                name: try name(action, what: "action name"),
                arguments: try self.arguments(rest.dropFirst(), in: line, paths: &paths))
            return paths.isEmpty ? .dispatch(invocation) : .dispatchReading(invocation, paths: paths)
        }
        if word == "replace" { return try replace(rest, in: line) }
        let arguments = Array(rest)
        if let command = try sessionCommand(word, arguments) { return command }
        if let command = try timelineCommand(word, arguments) { return command }
        if let command = try queryCommand(word, arguments, in: line) { return command }
        if let command = try effectsCommand(word, arguments) { return command }
        if let command = try shellCommand(word, arguments) { return command }
        throw ShellError(
            "unknown command '\(word)'",
            hint: Suggestion.didYouMean(word, among: commandWords) ?? "type 'help' for the list")
    }

    /// `help`, `stores`, `load`, `use`, `actions`, `state`, `history`: the stores and what they hold. `nil` for another word.
    private static func sessionCommand(_ word: String, _ arguments: [Token]) throws(ShellError) -> Command? {
        switch word {
        case "help":
            try expectCount(arguments, 0...1, of: "help")
            return .help(topic: arguments.first.map { String($0.text) })
        case "stores":
            try expectCount(arguments, 0...0, of: "stores")
            return .stores
        case "load":
            return try load(arguments)
        case "use":
            try expectCount(arguments, 1...1, of: "use")
            return .use(alias: try name(arguments[0], what: "alias"))
        case "actions":
            try expectCount(arguments, 0...1, of: "actions")
            return .actions(
                alias: try arguments.first.map { (token: Token) throws(ShellError) in try name(token, what: "alias") })
        case "state":
            try expectCount(arguments, 0...1, of: "state")
            guard let path = arguments.first else { return .state(path: .root) }
            return .state(path: try self.path(path))
        case "history":
            try expectCount(arguments, 0...0, of: "history")
            return .history
        default:
            return nil
        }
    }

    /// `undo`, `redo`, `reset`, `commit`, `sweep`, `skip`, `unskip`, `diff`: the timeline. `nil` for another word.
    private static func timelineCommand(_ word: String, _ arguments: [Token]) throws(ShellError) -> Command? {
        switch word {
        case "undo", "redo":
            try expectCount(arguments, 0...1, of: word)
            var steps = 1
            if let count = arguments.first {
                guard let number = Int(count.text), number >= 1 else {
                    throw ShellError(
                        "\(word) takes a positive number of steps, not '\(count.text)'",
                        hint: "e.g. \(word) 2")
                }
                steps = number
            }
            return word == "undo" ? .undo(steps: steps) : .redo(steps: steps)
        case "reset", "commit", "sweep":
            try expectCount(arguments, 0...0, of: word)
            return word == "reset" ? .reset : word == "commit" ? .commit : .sweep
        case "skip", "unskip":
            try expectCount(arguments, 1...1, of: word)
            let step = try stepNumber(arguments[0], of: word)
            return word == "skip" ? .skip(step: step) : .unskip(step: step)
        case "diff":
            try expectCount(arguments, 1...2, of: "diff")
            let steps = try arguments.map { (token: Token) throws(ShellError) -> Int in
                guard let number = Int(token.text), number >= 0 else {
                    throw ShellError(
                        "diff takes step numbers as history lists them (0 for the start), not '\(token.text)'",
                        hint: "e.g. diff 2 5, or diff 2 for step 2 against now")
                }
                return number
            }
            return .diff(from: steps[0], to: steps.count > 1 ? steps[1] : nil)
        default:
            return nil
        }
    }

    /// `expect`, `why`, `find`, `invariants`, `watch`, `unwatch`: questions about the state. `nil` for another word.
    private static func queryCommand(_ word: String, _ arguments: [Token], in line: Substring) throws(ShellError)
        -> Command?
    {
        switch word {
        case "expect":
            return .expect(try expectation(arguments, in: line))
        case "why":
            try expectCount(arguments, 1...1, of: "why")
            return .why(path: try path(arguments[0]))
        case "find":
            return .find(try findQuery(arguments))
        case "invariants":
            try expectCount(arguments, 0...0, of: "invariants")
            return .invariants
        case "watch", "unwatch":
            var paths: [ValuePath] = []
            for argument in arguments { paths.append(try path(argument)) }
            return word == "watch" ? .watch(paths) : .unwatch(paths)
        default:
            return nil
        }
    }

    /// `advance`, `effects`, `cancel`, `seed`: effects over time and the environment. `nil` for another word.
    private static func effectsCommand(_ word: String, _ arguments: [Token]) throws(ShellError) -> Command? {
        switch word {
        case "advance":
            try expectCount(arguments, 0...1, of: "advance")
            guard let argument = arguments.first else { return .advance(nil) }
            return .advance(try Seconds.duration(argument.text))
        case "effects":
            try expectCount(arguments, 0...0, of: "effects")
            return .effects
        case "cancel":
            try expectCount(arguments, 0...1, of: "cancel")
            guard let argument = arguments.first else { return .cancel(id: nil) }
            if case .quoted(let text) = argument.kind { return .cancel(id: text) }
            return .cancel(id: String(argument.text))
        case "seed":
            try expectCount(arguments, 1...1, of: "seed")
            guard let seed = UInt64(arguments[0].text) else {
                throw ShellError(
                    "seed takes a whole number from 0 to \(UInt64.max), not '\(arguments[0].text)'",
                    hint: "e.g. seed 42")
            }
            return .seed(seed)
        default:
            return nil
        }
    }

    /// `save`, `read`, `output`, `format`, `timer`, `exhaustive`, `quit`: the session's files and the shell's own. `nil` for another word.
    private static func shellCommand(_ word: String, _ arguments: [Token]) throws(ShellError) -> Command? {
        switch word {
        case "save", "read":
            try expectCount(arguments, 1...1, of: word)
            let file = fileName(arguments[0])
            return word == "save" ? .save(file: file) : .read(file: file)
        case "output":
            try expectCount(arguments, 0...1, of: "output")
            return .output(file: arguments.first.map(fileName))
        case "format":
            guard arguments.count == 1, ["text", "json"].contains(arguments[0].text) else {
                throw CommandHelp.usageError(of: "format")
            }
            return .format(json: arguments[0].text == "json")
        case "timer":
            guard arguments.count == 1, ["on", "off"].contains(arguments[0].text) else {
                throw CommandHelp.usageError(of: "timer")
            }
            return .timer(arguments[0].text == "on")
        case "exhaustive":
            guard arguments.count == 1, ["on", "off"].contains(arguments[0].text) else {
                throw CommandHelp.usageError(of: "exhaustive")
            }
            return .exhaustive(arguments[0].text == "on")
        case "quit", "exit", "detach":
            try expectCount(arguments, 0...0, of: word)
            return .quit
        default:
            return nil
        }
    }

    /// `replace N ACTION [ARG...]`: the arguments as `dispatch` reads them, with values only.
    private static func replace(_ rest: ArraySlice<Token>, in line: Substring) throws(ShellError) -> Command {
        guard rest.count >= 2 else {
            throw CommandHelp.usageError(of: "replace")
        }
        let step = try stepNumber(rest[rest.startIndex], of: "replace")
        let action = rest[rest.startIndex + 1]
        if case .word = action.kind, action.text.utf8.contains(UInt8(ascii: "(")) {
            throw swiftCall(line[action.text.startIndex...])
        }
        var paths: [ArgumentPath] = []
        let invocation = ActionInvocation(
            name: try name(action, what: "action name"),
            arguments: try arguments(rest.dropFirst(2), in: line, paths: &paths))
        guard paths.isEmpty else {
            throw ShellError(
                "replace takes values, not $PATH: a path would be read in the state of now, not of step \(step)",
                hint: "write the value itself, e.g. replace \(step) \(invocation.name) 3")
        }
        return .replace(step: step, invocation)
    }

    /// A file as typed: a bare word, or a quoted string for one with spaces.
    private static func fileName(_ token: Token) -> String {
        if case .quoted(let text) = token.kind { return text }
        return String(token.text)
    }

    /// A step number as `history` lists it, for `skip`, `unskip` and `replace`.
    private static func stepNumber(_ token: Token, of word: String) throws(ShellError) -> Int {
        guard case .word = token.kind, let number = Int(token.text), number >= 1 else {
            throw ShellError(
                "\(word) takes a step number as history lists it, not '\(token.text)'",
                hint: word == "replace" ? "e.g. replace 2 add title: milk" : "e.g. \(word) 2")
        }
        return number
    }

    /// `load NAME [as ALIAS] [with STATE]`, STATE a JSON value.
    private static func load(_ arguments: [Token]) throws(ShellError) -> Command {
        var rest = arguments[...]
        guard let first = rest.popFirst() else { throw CommandHelp.usageError(of: "load") }
        let name = try name(first, what: "store name")
        var alias: String?
        if rest.first?.text == "as" {
            guard rest.count >= 2 else { throw CommandHelp.usageError(of: "load") }
            alias = try self.name(rest[rest.startIndex + 1], what: "alias")
            rest = rest.dropFirst(2)
        }
        var state: JSONValue?
        if rest.first?.text == "with" {
            guard rest.count == 2, case .json = rest[rest.startIndex + 1].kind else {
                throw ShellError(
                    "load ... with takes one state, a JSON value",
                    hint: #"usage: \#(CommandHelp.usage(of: "load")), e.g. load counter with {"count":3}"#)
            }
            let token = rest[rest.startIndex + 1]
            do {
                state = try JSONParser.parse(token.text)
            } catch {
                throw invalidJSON(token.text, error)
            }
            rest = rest.dropFirst(2)
        }
        guard rest.isEmpty else { throw CommandHelp.usageError(of: "load") }
        return .load(name: name, alias: alias, state: state)
    }

    private static func expectation(_ arguments: [Token], in line: Substring) throws(ShellError) -> Expectation {
        guard arguments.count >= 3 else {
            throw ShellError(
                "usage: \(CommandHelp.usage(of: "expect")), OP one of == != < <= > >= contains",
                hint: "e.g. expect count == 1")
        }
        guard arguments.count == 3 else {
            throw ShellError(
                "expect takes one value after the operator, found \(arguments.count - 2) words",
                hint: "quote a string with spaces: expect todos[0].title == \"Buy milk\"")
        }
        let path = try path(arguments[0])
        guard let op = Expectation.Operator(rawValue: String(arguments[1].text)) else {
            throw ShellError(
                "unknown operator '\(arguments[1].text)'",
                hint: "use one of == != < <= > >= contains")
        }
        let value = try operand(arguments[2])
        if case .pattern = value, op != .equal {
            let text = arguments[2].text
            let star = ValuePattern.firstOutsideQuotes("*", in: text, atDepthZero: false) ?? text.startIndex
            let column = arguments[2].column(in: line) + text.unicodeScalars.distance(from: text.startIndex, to: star)
            throw ShellError(
                "'*' at column \(column) matches any value: only '==' compares with it, not '\(op.rawValue)'",
                hint: #"e.g. expect todos[0] == {"id":1,"createdAt":*}; "*" in quotes is the string"#)
        }
        return Expectation(path: path, op: op, value: value)
    }

    /// `find TEXT` or `find PATH ~ VALUE`.
    private static func findQuery(_ arguments: [Token]) throws(ShellError) -> FindQuery {
        if arguments.count >= 2, case .word = arguments[1].kind, arguments[1].text == "~" {
            guard arguments.count == 3 else {
                throw ShellError(
                    "find PATH ~ takes one value after '~', found \(arguments.count - 2)",
                    hint: #"e.g. find todos ~ {"done":true,"title":*}"#)
            }
            let path = try path(arguments[0])
            switch try operand(arguments[2]) {
            case .literal(let value): return .matching(path: path, ValuePattern(value: value, wildcards: []))
            case .pattern(let pattern): return .matching(path: path, pattern)
            case .path:
                throw ShellError(
                    "find compares with a value, not with $PATH",
                    hint: #"write the value, with * where any value may stand: find todos ~ {"id":*,"done":true}"#)
            }
        }
        guard arguments.count == 1 else {
            throw arguments.isEmpty
                ? ShellError("usage: \(CommandHelp.usage(of: "find"))", hint: "e.g. find milk")
                : ShellError(
                    "find takes one text, found \(arguments.count) words",
                    hint: "quote a text with spaces: find \"buy milk\"")
        }
        let text: String
        switch arguments[0].kind {
        case .quoted(let quoted): text = quoted
        default: text = String(arguments[0].text)
        }
        guard !text.isEmpty else { throw ShellError("find takes a text that is not empty", hint: "e.g. find milk") }
        return .text(text)
    }

    /// The arguments of `dispatch` in `line`; a `$PATH`, as an argument or inside one, is a `null`
    /// in its place, and its path is added to `paths`.
    private static func arguments(_ tokens: ArraySlice<Token>, in line: Substring, paths: inout [ArgumentPath])
        throws(ShellError) -> [ActionInvocation.Argument]
    {
        var result: [ActionInvocation.Argument] = []
        result.reserveCapacity(tokens.count)
        var index = tokens.startIndex
        while index < tokens.endIndex {
            let token = tokens[index]
            if case .label(let label) = token.kind {
                guard index + 1 < tokens.endIndex else {
                    throw ShellError("argument '\(label):' has no value", hint: "e.g. \(label): 1")
                }
                if case .label = tokens[index + 1].kind {
                    throw ShellError("argument '\(label):' has no value", hint: "e.g. \(label): 1")
                }
                result.append(
                    .init(
                        label: label, value: try argument(tokens[index + 1], at: result.count, in: line, paths: &paths))
                )
                index += 2
            } else {
                result.append(.init(label: nil, value: try argument(token, at: result.count, in: line, paths: &paths)))
                index += 1
            }
        }
        return result
    }

    /// A PATH (of `state`, `expect`, `why`, `watch`): `$` marks a VALUE read from the state, not a path.
    private static func path(_ token: Token) throws(ShellError) -> ValuePath {
        if token.text.utf8.first == UInt8(ascii: "$") {
            throw ShellError(
                "'\(token.text)': a path is written without '$', which marks a value read from the state",
                hint: "e.g. state \(token.text.dropFirst()), or expect count == \(token.text)")
        }
        return try ValuePath.parse(token.text)
    }

    /// A `dispatch` argument's value; for `$PATH`, a `null` standing in for the value read later,
    /// and in a JSON literal, a `null` where each `$PATH` in it stands.
    private static func argument(_ token: Token, at index: Int, in line: Substring, paths: inout [ArgumentPath])
        throws(ShellError) -> JSONValue
    {
        if let path = try referencedPath(token) {
            paths.append(ArgumentPath(index: index, path: path))
            return .null
        }
        guard case .json = token.kind else {
            if case .word = token.kind, token.text == "*" { throw notDispatchable(at: token.column(in: line)) }
            return try value(token)
        }
        do {
            return try JSONParser.parse(token.text)
        } catch {
            // NB: only a literal that failed at a `$` (or a `*`) is parsed again, for its paths: a
            // line without one costs what it did.
            if let offset = failsAt("*", error, token) {
                throw notDispatchable(at: token.column(in: line) + scalars(in: token.text, upTo: offset))
            }
            guard failsAt("$", error, token) != nil else { throw invalidJSON(token.text, error) }
            return try valueReadingPaths(token, at: index, in: line, paths: &paths)
        }
    }

    /// An action written as Swift calls it (`add(title: "y", done: true)`), with the line the
    /// shell takes instead (`dispatch add title: "y" done: true`): the name, then the arguments
    /// without the parentheses and the commas between them.
    private static func swiftCall(_ text: Substring) -> ShellError {
        // NB: found by its byte: a `(` followed by a combining mark is one Character with it.
        let open = text.utf8.firstIndex(of: UInt8(ascii: "(")) ?? text.endIndex
        let afterOpen = open < text.endIndex ? text.utf8.index(after: open) : open
        var inside = text[afterOpen...]
        if let close = inside.lastIndex(of: ")") { inside = inside[..<close] }
        var arguments = ""
        var depth = 0
        var inQuotes = false
        var escaped = false
        for character in inside {
            if inQuotes {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inQuotes = false
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "[" || character == "{" {
                depth += 1
            } else if character == "]" || character == "}" {
                depth -= 1
            } else if character == ",", depth == 0 {
                continue
            }
            arguments.append(character)
        }
        while arguments.last == " " { arguments.removeLast() }
        let trimmed = arguments.drop(while: { $0 == " " })
        let suggestion = "dispatch \(text[..<open])" + (trimmed.isEmpty ? "" : " \(trimmed)")
        return ShellError(
            "'\(abbreviated(text[..<afterOpen]))' is Swift's call syntax: the shell takes an action's arguments after its name, separated by spaces",
            hint: "did you mean '\(suggestion)'?")
    }

    /// A `*` in a `dispatch` argument: it matches values, and makes none.
    private static func notDispatchable(at column: Int) -> ShellError {
        ShellError(
            "'*' at column \(column) only matches a value, in an expected diff line or expect: it cannot be dispatched",
            hint: #"give the value itself; "*" in quotes is the string"#)
    }

    /// A JSON literal with `$PATH`s inside (`{"id":$todos[0].id}`): `null` in their places, and
    /// each path added to `paths` with its place, in the order written.
    private static func valueReadingPaths(
        _ token: Token, at index: Int, in line: Substring, paths: inout [ArgumentPath]
    ) throws(ShellError) -> JSONValue {
        var holes: [JSONParser.Hole] = []
        let value: JSONValue
        do {
            value = try JSONParser.parse(token.text, holes: &holes)
        } catch {
            if let offset = failsAt("*", error, token) {
                throw notDispatchable(at: token.column(in: line) + scalars(in: token.text, upTo: offset))
            }
            throw invalidJSON(token.text, error)
        }
        for hole in holes {
            // NB: the column of the `$`: one line may hold several.
            let column = token.column(in: line) + scalars(in: token.text, upTo: hole.offset)
            guard !hole.text.isEmpty else {
                throw ShellError(
                    "'$' at column \(column) must be followed by a path of the state",
                    hint: "e.g. $count, or \"$\" for the string")
            }
            let path = try ValuePath.parse(hole.text, column: column)
            paths.append(ArgumentPath(index: index, within: ValuePath(hole.place), path: path))
        }
        return value
    }

    /// The byte offset where the JSON literal of `token` failed to parse, when it did at
    /// `character` (`$` or `*`).
    private static func failsAt(_ character: Unicode.Scalar, _ error: JSONParseError, _ token: Token) -> Int? {
        let bytes = token.text.utf8
        guard error.offset < bytes.count,
            bytes[bytes.index(bytes.startIndex, offsetBy: error.offset)] == UInt8(ascii: character)
        else { return nil }
        return error.offset
    }

    /// How many characters (Unicode scalars, as columns count) of `text` come before its byte `offset`.
    private static func scalars(in text: Substring, upTo offset: Int) -> Int {
        text.unicodeScalars.distance(from: text.startIndex, to: text.utf8.index(text.startIndex, offsetBy: offset))
    }

    /// A `$PATH` inside JSON anywhere but in a `dispatch` argument.
    private static func readsInsideJSON(_ text: Substring) -> ShellError {
        ShellError(
            "invalid JSON \(abbreviated(text)): a value read from the state ($PATH) works inside JSON in dispatch arguments only",
            hint: "compare a part at a time, e.g. expect todos[0].id == $nextID")
    }

    private static func invalidJSON(_ text: Substring, _ error: JSONParseError) -> ShellError {
        ShellError("invalid JSON \(abbreviated(text)): \(error.message)")
    }

    /// An `expect` VALUE: a literal, `$PATH`, or a literal with `*` where any value may stand.
    static func operand(_ token: Token) throws(ShellError) -> Operand {
        if let path = try referencedPath(token) { return .path(path) }
        switch token.kind {
        case .word where token.text == "*":
            return .pattern(.any)
        case .json:
            do {
                return .literal(try JSONParser.parse(token.text))
            } catch {
                guard failsAt("*", error, token) != nil else { break }
                do {
                    return .pattern(try ValuePattern.parse(token.text))
                } catch {
                    guard failsAt("$", error, token) != nil else { throw invalidJSON(token.text, error) }
                    throw readsInsideJSON(token.text)
                }
            }
        default:
            break
        }
        return .literal(try value(token))
    }

    /// The path of a bare word `$PATH`; `nil` for any other token (a quoted "$5" is a string).
    private static func referencedPath(_ token: Token) throws(ShellError) -> ValuePath? {
        guard case .word = token.kind, token.text.utf8.first == UInt8(ascii: "$") else { return nil }
        let text = token.text.dropFirst()
        guard !text.isEmpty else {
            throw ShellError(
                "'$' must be followed by a path of the state", hint: "e.g. $count, or \"$\" for the string")
        }
        return try ValuePath.parse(text)
    }

    /// A VALUE: a JSON literal, or a bare word meaning that word as a string.
    public static func value(_ token: Token) throws(ShellError) -> JSONValue {
        switch token.kind {
        case .quoted(let string):
            return .string(string)
        case .json:
            do {
                return try JSONParser.parse(token.text)
            } catch {
                guard failsAt("$", error, token) != nil else { throw invalidJSON(token.text, error) }
                throw readsInsideJSON(token.text)
            }
        case .label(let label):
            throw ShellError("unexpected label '\(label):'", hint: "quote a value containing ':'")
        case .word:
            let text = token.text
            // NB: compared only when the first byte could start one of them: a comparison of a
            // substring with a literal takes the general string comparison.
            if let first = text.utf8.first,
                first == UInt8(ascii: "t") || first == UInt8(ascii: "f") || first == UInt8(ascii: "n")
            {
                switch text {
                case "true": return .bool(true)
                case "false": return .bool(false)
                case "null": return .null
                default: break
                }
            }
            if let first = text.utf8.first,
                (0x30...0x39).contains(first)
                    || (first == UInt8(ascii: "-")
                        && text.utf8.dropFirst().first.map { (0x30...0x39).contains($0) } == true)
            {
                if let integer = plainInteger(text) { return .int(integer) }
                do {
                    return try JSONParser.parse(text)
                } catch {
                    if error.message.contains("out of range") {
                        throw ShellError("number \(abbreviated(text)) is out of range")
                    }
                }
            }
            return .string(String(text))
        }
    }

    /// A JSON integer of at most 18 digits (`0`, `-12`; not `012`), which needs no number parser.
    private static func plainInteger(_ text: Substring) -> Int? {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        guard !digits.isEmpty, digits.count <= 18, digits.first != UInt8(ascii: "0") || text.utf8.count == 1 else {
            return nil
        }
        var value = 0
        for digit in digits {
            guard (0x30...0x39).contains(digit) else { return nil }
            value = value &* 10 &+ Int(digit &- 0x30)
        }
        return digits.count == text.utf8.count ? value : -value
    }

    package static func abbreviated(_ text: Substring) -> String {
        text.count > 40 ? String(text.prefix(37)) + "..." : String(text)
    }

    private static func name(_ token: Token, what: String) throws(ShellError) -> String {
        switch token.kind {
        case .word, .quoted: break
        default:
            let article = what.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            throw ShellError("expected \(article) \(what), found \(abbreviated(token.text))")
        }
        if case .quoted(let text) = token.kind { return text }
        return String(token.text)
    }

    /// Throws `usage: USAGE` of command `word` unless it has a count of arguments in `range`.
    private static func expectCount(_ arguments: [Token], _ range: ClosedRange<Int>, of word: String)
        throws(ShellError)
    {
        guard range.contains(arguments.count) else {
            throw ShellError("usage: \(CommandHelp.usage(of: word))")
        }
    }
}
