import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// What a command did, as data: its diff and what it shows. How that is printed (text,
/// colors, `--format json`) is the `Renderer`'s job, not the session's.
///
/// NB: small on purpose (a diff, one word of output, a flag): a piped script makes and drops
/// one per line, and every member copied is reference counting.
package struct CommandResult: Sendable {
    /// For `dispatch`, `undo`, `redo` and `reset`: the diff it prints first.
    public var diff: CommandDiff?
    /// What the command shows besides its diff.
    public var output: CommandOutput = .none
    /// For `dispatch`: the action as its values print (“Printed values” in the reference), when
    /// that differs from the command as typed (a date typed with an offset, a set in another
    /// order); `nil` otherwise.
    public var printedAction: ActionInvocation?
    /// Set when effects dispatched more follow-up actions than this, and the rest were dropped.
    public var followUpLimitReached: Int?
    /// For a command that made a step (`dispatch`, `advance`, `reset`): its number in `history`.
    public var step: Int?
    /// `quit` or `exit`.
    public var quits = false

    public init() {}

    init(_ output: CommandOutput) { self.output = output }

    init(_ diff: CommandDiff, printedAction: ActionInvocation? = nil, followUpLimitReached: Int? = nil) {
        self.diff = diff
        self.printedAction = printedAction
        self.followUpLimitReached = followUpLimitReached
    }
}

/// What a command shows besides its diff.
///
/// NB: the cases with a payload are `indirect` (one box, made by the rare commands that show
/// something), so that the common result, a dispatch's, copies no payload.
package enum CommandOutput: Sendable {
    case none
    /// `load`: the store's name and its alias.
    indirect case loaded(store: String, alias: String)
    /// `use`
    indirect case activated(alias: String)
    /// `stores`: name and summary of each.
    indirect case stores([(name: String, summary: String)])
    /// `actions`: the active store's alias, its actions, and why there are none, if so.
    indirect case actions(store: String, [ActionSignature], unlistedBecause: String?)
    /// `state [PATH]`
    indirect case value(path: ValuePath, JSONValue)
    /// `history`
    indirect case history(HistoryListing)
    /// `expect`, when it held.
    case expectationHeld
    /// `invariants`, when every one held: how many the loaded stores declare.
    indirect case invariantsHeld(count: Int)
    /// `why PATH`
    indirect case why(WhyListing)
    /// `find`: the places found, in the state's order.
    indirect case found([FoundPlace])
    /// `watch` with no paths: the watched paths as typed.
    indirect case watches([String])
    /// `effects`: the effects still running.
    indirect case effects(EffectListing)
    /// `save`: the file and how many state-changing commands it holds.
    indirect case saved(file: String, commands: Int, runningEffects: Int = 0)
    /// `commit`: how many steps the history forgot.
    indirect case committed(forgotten: Int)
    /// `sweep`: the numbers of the steps that left the history (skipped ones, and the edits).
    indirect case swept(removed: [Int])
    /// `help [COMMAND]`
    indirect case help([String])
    /// An attached `undo` or `redo`: the steps it undid or redid, which may be the app's.
    indirect case steppedOver(SteppedOver)
}

/// A place `find` found: its path (prefixed by its store's alias among several stores) and its
/// value.
package struct FoundPlace: Sendable, Equatable {
    public var path: ValuePath
    public var value: JSONValue
}

/// The steps an attached `undo` or `redo` moved over, newest first for `undo`: each says who made
/// it, since the app's own actions are steps too.
package struct SteppedOver: Sendable {
    public enum Origin: String, Sendable {
        /// An action the app dispatched by itself.
        case app
        /// The states the app was read at again (`(N changes dropped)`, or set by another shell).
        case appStates
        /// A command of this shell (`dispatch`, `reset`).
        case shell
    }

    public struct Step: Sendable {
        /// The step's number, as `history` and `why` show it.
        public var number: Int
        /// The step as `history` lists it (`add title: milk`, `reset`, `(3 changes dropped)`).
        public var text: String
        public var origin: Origin
    }

    public var isRedo: Bool
    public var steps: [Step]
}

/// The undo log as `history` lists it.
package struct HistoryListing: Sendable {
    public struct Entry: Sendable {
        /// 1-based, counting from the start of the session.
        public var number: Int
        /// The step in command syntax (`increment`, `add title: milk`, `reset`).
        public var text: String
        public var followUps: [ActionInvocation]
        /// Undone (and can be redone).
        public var isUndone: Bool
        /// Taken out of the timeline by a `skip` in force.
        public var isSkipped = false
        /// A step that dispatched actions, which `skip` can take out while it is done.
        public var isSkippable = false
        /// The step whose `replace` in force put another action in this one's place.
        public var replacedAt: Int?
    }

    public var entries: [Entry]
    /// How many earlier entries are no longer kept.
    public var forgotten: Int
    /// The numbers of the steps `sweep` took out.
    public var swept: Set<Int> = []
}

/// The diff of a state-changing command: one step per action (the dispatched one, then each
/// follow-up), or a single step for `undo`, `redo` and `reset`.
///
/// Public, not package, only so that the renderer's module inlines ``forEachLine(showing:_:)``,
/// on the path of every piped line: the body of a `package` declaration is not serialized for
/// other modules, `@inlinable` or not, and the walk would be a call on every line. Not public API.
@_documentation(visibility: internal)
public struct _CommandDiff: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        /// The follow-up action that made this step, announced by `=> ACTION`; `nil` for the
        /// command's own step.
        public var followUp: ActionInvocation?
        public var entries: [DiffEntry]

        package init(followUp: ActionInvocation?, entries: [DiffEntry]) {
            self.followUp = followUp
            self.entries = entries
        }
    }

    /// The command's own step: the dispatched action's, or that of `undo`, `redo`, `reset`.
    public var ownStep: Step
    /// The follow-ups' steps, in the order they were dispatched.
    public var followUpSteps: [Step]
    /// No loaded store's state differs after the whole command from before it.
    public var isUnchanged: Bool

    // NB: only the steps and a flag: a diff is kept by the transcript and by the runner's
    // pending block, and every member copied there is reference counting on every line (as the
    // action kept here too was). The command's own step is
    // kept apart from the follow-ups', so that the common diff, one step, allocates no list.

    package init(ownStep: Step, followUpSteps: [Step] = [], isUnchanged: Bool) {
        self.ownStep = ownStep
        self.followUpSteps = followUpSteps
        self.isUnchanged = isUnchanged
    }

    /// The diff as printed: entry lines, `=> ACTION` before follow-ups, or `(no changes)`.
    package var lines: [String] {
        var lines: [String] = []
        forEachLine { lines.append($0.text) }
        return lines
    }

    /// One line of the diff as printed.
    public enum Line {
        /// `(no changes)`
        case noChanges
        /// `=> ACTION`, before a follow-up's entries.
        case followUp(ActionInvocation)
        /// `~ PATH: OLD -> NEW`, `+ PATH: NEW` or `- PATH: OLD`.
        case entry(DiffEntry)
        /// `(N more changes)`: entries the watched paths leave out.
        case hidden(Int)

        /// Appends the line as printed (without a newline), as UTF-8.
        public func write(to output: inout _OutputBuffer) {
            switch self {
            case .noChanges: output.append("(no changes)")
            case .followUp(let action): output.append("=> " + action.description)
            case .entry(let entry): entry.write(to: &output)
            case .hidden(1): output.append("(1 more change)")
            case .hidden(let count): output.append("(\(count) more changes)")
            }
        }

        /// The line as printed.
        package var text: String {
            if case .entry(let entry) = self { return entry.line }
            var output = OutputBuffer()
            write(to: &output)
            return output.text
        }
    }

    /// Calls `body` with each line of the diff, in order, leaving out the entries `filter` does
    /// not show (then a last `(N more changes)`): the one walk every printed form is made by.
    @inlinable
    public func forEachLine(showing filter: _WatchFilter? = nil, _ body: (Line) -> Void) {
        if isUnchanged { return body(.noChanges) }
        var hidden = 0
        func walk(_ step: Step) {
            if let followUp = step.followUp { body(.followUp(followUp)) }
            for entry in step.entries {
                if let filter, !filter.shows(entry) {
                    hidden += 1
                } else {
                    body(.entry(entry))
                }
            }
        }
        walk(ownStep)
        for step in followUpSteps { walk(step) }
        if hidden > 0 { body(.hidden(hidden)) }
    }
}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias CommandDiff = _CommandDiff
