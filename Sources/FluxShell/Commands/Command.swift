/// One command of the shell's language (SPEC section 3).
@_spi(Engine) public enum Command: Sendable, Equatable {
    case help(topic: String?)
    case stores
    case load(name: String, alias: String?)
    case use(alias: String)
    case actions
    case dispatch(ActionInvocation)
    /// `dispatch` with `$PATH` arguments: each is read from the active store when the command
    /// runs and put in the invocation, at its argument's index, before the action is built.
    case dispatchReading(ActionInvocation, paths: [ArgumentPath])
    case state(path: ValuePath)
    case history
    case undo(steps: Int)
    case redo(steps: Int)
    case reset
    case expect(Expectation)
    case why(path: ValuePath)
    /// Checks the invariants the loaded stores' definitions declare.
    case invariants
    /// `watch PATH...`; no paths lists the watches.
    case watch([ValuePath])
    /// `unwatch PATH...`; no paths removes them all.
    case unwatch([ValuePath])
    case save(file: String)
    case exhaustive(Bool)
    case quit

    /// The command word, as in `help` and JSON output.
    public var word: String {
        switch self {
        case .help: "help"
        case .stores: "stores"
        case .load: "load"
        case .use: "use"
        case .actions: "actions"
        case .dispatch, .dispatchReading: "dispatch"
        case .state: "state"
        case .history: "history"
        case .undo: "undo"
        case .redo: "redo"
        case .reset: "reset"
        case .expect: "expect"
        case .why: "why"
        case .invariants: "invariants"
        case .watch: "watch"
        case .unwatch: "unwatch"
        case .save: "save"
        case .exhaustive: "exhaustive"
        case .quit: "quit"
        }
    }

    /// Whether the command may change state, and so is followed by its expected diff lines.
    public var changesState: Bool {
        switch self {
        case .dispatch, .dispatchReading, .undo, .redo, .reset: true
        default: false
        }
    }
}

/// `dispatch NAME ARG...`: an action's case name and its arguments, as typed.
public struct ActionInvocation: Sendable, Equatable, CustomStringConvertible {
    public struct Argument: Sendable, Equatable {
        public var label: String?
        public var value: JSONValue

        public init(label: String?, value: JSONValue) {
            self.label = label
            self.value = value
        }
    }

    public var name: String
    public var arguments: [Argument]

    public init(name: String, arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// The invocation in command syntax: `rename id: 2 title: "Buy milk"`.
    public var description: String { description(reading: []) }
}

/// An argument given as `$PATH`: the argument at `index` of its invocation is the value at `path`.
@_spi(Engine) public struct ArgumentPath: Sendable, Equatable {
    public var index: Int
    public var path: ValuePath

    public init(index: Int, path: ValuePath) {
        self.index = index
        self.path = path
    }
}

/// A VALUE as typed in `expect`: a literal, or `$PATH`, a path of the active store's state read
/// when the command runs (`expect count == $items.count`).
@_spi(Engine) public enum Operand: Sendable, Equatable, CustomStringConvertible {
    case literal(JSONValue)
    case path(ValuePath)

    /// `$PATH`, or the literal as compact JSON.
    public var description: String {
        switch self {
        case .literal(let value): JSONText.compact(value)
        case .path(let path): "$" + path.description
        }
    }
}

/// Values as arguments: a string that reads back as the same bare word prints bare.
@_spi(Engine) public enum ArgumentText {
    public static func render(_ value: JSONValue) -> String {
        if case .string(let string) = value, isBareWord(string) { return string }
        return JSONText.compact(value)
    }

    static func isBareWord(_ string: String) -> Bool {
        guard !string.isEmpty, !["true", "false", "null"].contains(string) else { return false }
        guard let first = string.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
            return false
        }
        return string.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
                || $0 == "/" || $0 == "."
        }
    }
}

/// `expect PATH OP VALUE`.
@_spi(Engine) public struct Expectation: Sendable, Equatable, CustomStringConvertible {
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case contains = "contains"
    }

    public var path: ValuePath
    public var op: Operator
    public var value: Operand

    public init(path: ValuePath, op: Operator, value: Operand) {
        self.path = path
        self.op = op
        self.value = value
    }

    /// The expectation as typed after `expect`: `todos[*].done == false`.
    public var description: String { "\(path) \(op.rawValue) \(value)" }
}

/// A line of a script or scenario, parsed.
@_spi(Engine) public struct ParsedLine: Sendable, Equatable {
    /// `nil` for a blank or comment-only line.
    public var command: Command?
    /// The line began with `! `: the command is expected to fail.
    public var expectsFailure: Bool
}
