import FluxShellJSON

/// One command of the shell's language (“The command language” in the reference).
package enum Command: Sendable, Equatable {
    case help(topic: String?)
    case stores
    /// `load NAME [as ALIAS] [with STATE]`: with a state, the store begins from it rather than its
    /// initial state (a scenario saved while attached begins where the app was).
    ///
    /// NB: indirect (one box, made by a rare command), so that the state adds nothing to the
    /// size every other command is copied at.
    indirect case load(name: String, alias: String?, state: JSONValue? = nil)
    case use(alias: String)
    /// `actions [ALIAS]`: the active store's actions, or those of the loaded store ALIAS.
    indirect case actions(alias: String? = nil)
    case dispatch(ActionInvocation)
    /// `dispatch` with `$PATH` arguments, or `$PATH`s inside JSON arguments: each is read from the
    /// active store when the command runs and put in the invocation, in its argument at its
    /// place, before the action is built.
    case dispatchReading(ActionInvocation, paths: [ArgumentPath])
    case state(path: ValuePath)
    case history
    case undo(steps: Int)
    case redo(steps: Int)
    case reset
    /// `skip N`: step N's actions taken out of the timeline, every later state made again
    /// without them (a step of its own, which `undo` takes back).
    case skip(step: Int)
    /// `unskip N`: a skipped step's actions put back.
    case unskip(step: Int)
    /// `replace N ACTION [ARG...]`: another action in place of step N's, the later steps
    /// replayed after it (a step of its own, which `undo` takes back).
    indirect case replace(step: Int, ActionInvocation)
    /// `commit`: the history forgets its steps; the state now is where it starts.
    case commit
    /// `sweep`: the skipped steps leave the history, and the edits that skipped or replaced them
    /// become the steps as they now stand.
    case sweep
    case expect(Expectation)
    case why(path: ValuePath)
    /// `find TEXT` or `find PATH ~ VALUE`: the places of the active store's state a text or a
    /// value (a pattern, with `*`) names.
    indirect case find(FindQuery)
    /// `diff N [M]`: the diff lines from the state after step N (0: the start) to the state
    /// after step M, or to now.
    indirect case diff(from: Int, to: Int?)
    /// Checks the invariants the loaded stores' definitions declare.
    case invariants
    /// `watch PATH...`; no paths lists the watches.
    case watch([ValuePath])
    /// `unwatch PATH...`; no paths removes them all.
    case unwatch([ValuePath])
    case save(file: String)
    /// `advance [SECONDS]`: moves the session's clock (to the earliest deadline when `nil`).
    ///
    /// NB: indirect, as `seed`: a payload of plain bits (no spare bits for the case's tag) made
    /// every copy of a command go through its value witnesses, on every piped line.
    indirect case advance(Duration?)
    /// `effects`: lists the effects still running.
    case effects
    /// `cancel [ID]`: cancels every running effect, or those of cancellation id `ID`.
    indirect case cancel(id: String?)
    /// `seed N`: seeds the environment's random numbers (`explore` begins each run so).
    indirect case seed(UInt64)
    case exhaustive(Bool)
    /// `read FILE`: runs the command file's lines in this session, as a script.
    indirect case read(file: String)
    /// `output FILE`: results go to FILE from now on; `output` alone: back to standard output.
    indirect case output(file: String?)
    /// `format text|json`: how results are written from now on.
    case format(json: Bool)
    /// `timer on|off`: each command's wall time after its output.
    case timer(Bool)
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
        case .skip: "skip"
        case .unskip: "unskip"
        case .replace: "replace"
        case .commit: "commit"
        case .sweep: "sweep"
        case .expect: "expect"
        case .why: "why"
        case .find: "find"
        case .diff: "diff"
        case .invariants: "invariants"
        case .watch: "watch"
        case .unwatch: "unwatch"
        case .save: "save"
        case .advance: "advance"
        case .effects: "effects"
        case .cancel: "cancel"
        case .seed: "seed"
        case .exhaustive: "exhaustive"
        case .read: "read"
        case .output: "output"
        case .format: "format"
        case .timer: "timer"
        case .quit: "quit"
        }
    }

    /// Whether the shell runs the command itself, not the session: what it changes is where and
    /// how lines are read and written (`read`, `output`, `format`, `timer`).
    public var isTheShells: Bool {
        switch self {
        case .read, .output, .format, .timer: true
        default: false
        }
    }

    /// Whether the command may change state, and so is followed by its expected diff lines.
    public var changesState: Bool {
        switch self {
        case .dispatch, .dispatchReading, .undo, .redo, .reset, .skip, .unskip, .replace, .advance: true
        default: false
        }
    }
}

/// What `find` looks for.
package enum FindQuery: Sendable, Equatable, CustomStringConvertible {
    /// `find TEXT`: every key, and every value printed as a scalar, that holds TEXT, in any case.
    case text(String)
    /// `find PATH ~ VALUE`: every value at or under PATH equal to VALUE, `*` in it matching any
    /// value there.
    case matching(path: ValuePath, ValuePattern)

    /// The query as typed after `find`.
    public var description: String {
        switch self {
        case .text(let text): ArgumentText.render(.string(text))
        case .matching(let path, let pattern): "\(path) ~ \(pattern)"
        }
    }
}

/// A `$PATH` of a `dispatch`: the value at `path` goes in the argument at `index` of its
/// invocation, at `within` inside it: the whole argument (`set $count`), or a member or element
/// at any depth of a JSON argument (`[0].id` in `toggle [{"id":$todos[0].id}]`), where the
/// invocation holds a `null` until the value is read.
package struct ArgumentPath: Sendable, Equatable {
    public var index: Int
    public var within: ValuePath
    public var path: ValuePath

    public init(index: Int, within: ValuePath = .root, path: ValuePath) {
        self.index = index
        self.within = within
        self.path = path
    }
}

extension ActionInvocation {
    /// Puts `value`, read at `read.path`, in its argument at its place.
    package mutating func fill(_ read: ArgumentPath, with value: JSONValue) {
        arguments[read.index].value.put(value, at: read.within.segments[...])
    }
}

/// A VALUE as typed in `expect`: a literal, `$PATH`, a path of the active store's state read
/// when the command runs (`expect count == $items.count`), or a literal with `*` where any value
/// may stand (`expect todos[0] == {"id":1,"createdAt":*}`, `==` only).
package enum Operand: Sendable, Equatable, CustomStringConvertible {
    case literal(JSONValue)
    case path(ValuePath)
    case pattern(ValuePattern)

    /// `$PATH`, or the literal as compact JSON (with its `*`s).
    public var description: String {
        switch self {
        case .literal(let value): JSONText.compact(value)
        case .path(let path): "$" + path.description
        case .pattern(let pattern): pattern.description
        }
    }
}

/// `expect PATH OP VALUE`.
package struct Expectation: Sendable, Equatable, CustomStringConvertible {
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
package struct ParsedLine: Sendable, Equatable {
    /// `nil` for a blank or comment-only line.
    public var command: Command?
    /// The line began with `! `: the command is expected to fail.
    public var expectsFailure: Bool
}
