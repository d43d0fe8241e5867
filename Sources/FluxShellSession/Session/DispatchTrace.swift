import FluxShellSystem
import FluxShellValues

/// What one command's actions change, step by step, filled while the command is dispatched.
///
/// The session lends it to each store runtime it loads. A handler that the session registers
/// before any store's begins a step for each action the dispatcher delivers (the command's own,
/// then each follow-up); each store the action reaches adds its diff to that step, its paths as
/// printed (``AliasPrefix``). Once the command is delivered, the session takes the steps out.
@usableFromInline
package final class DispatchTrace {
    private struct Steps {
        var storeCount = 0
        var isTracing = false
        var own: CommandDiff.Step?
        var followUps: [CommandDiff.Step] = []
        /// How many follow-ups the command queued, and whether one went over the limit.
        var followUpCount = 0
        var followUpLimitReached = false
    }

    // NB: a trace belongs to one session, used from one thread at a time: what every action
    // touches is one value, whose accesses skip the run-time exclusivity checks (see
    // `SingleThreadCell`).
    private let steps = SingleThreadCell(Steps())

    /// How many stores are loaded: whether their paths begin with their alias.
    var storeCount: Int {
        get { steps.value.storeCount }
        set { steps.value.storeCount = newValue }
    }

    /// Starts tracing a command; `withOwnStep` for one that dispatches no action of its own
    /// (`advance`), whose every step is a follow-up.
    func start(withOwnStep: Bool = false) {
        if withOwnStep { steps.value.own = CommandDiff.Step(followUp: nil, entries: []) }
        steps.value.isTracing = true
        steps.value.followUpCount = 0
        steps.value.followUpLimitReached = false
    }

    /// Counts a follow-up the command queues: `false` once there are more than `limit`, and the
    /// command's result says so (``followUpLimitReached``).
    func admitsFollowUp(limit: Int) -> Bool {
        steps.value.followUpCount += 1
        guard steps.value.followUpCount <= limit else {
            steps.value.followUpLimitReached = true
            return false
        }
        return true
    }

    /// Whether the command queued more follow-ups than its limit (and the rest were dropped).
    var followUpLimitReached: Bool { steps.value.followUpLimitReached }

    /// Begins the step of an action being delivered.
    func begin(_ action: SessionAction) {
        guard steps.value.isTracing else { return }
        let step = CommandDiff.Step(followUp: action.isFollowUp ? action.invocation : nil, entries: [])
        if steps.value.own == nil { steps.value.own = step } else { steps.value.followUps.append(step) }
    }

    /// Adds what the action being delivered changed in store `alias`.
    @usableFromInline
    package func add(_ changes: [DiffEntry], of alias: String) {
        guard steps.value.isTracing, !changes.isEmpty else { return }
        let entries = AliasPrefix.entries(changes, of: alias, amongStores: steps.value.storeCount)
        if steps.value.followUps.isEmpty {
            // NB: the first store's entries are taken as they are, not copied into an empty array.
            if steps.value.own!.entries.isEmpty {
                steps.value.own!.entries = entries
            } else {
                steps.value.own!.entries += entries
            }
        } else {
            steps.value.followUps[steps.value.followUps.count - 1].entries += entries
        }
    }

    /// Ends tracing: the command's own step and its follow-ups' steps, moved out.
    func finish() -> (own: CommandDiff.Step, followUps: [CommandDiff.Step]) {
        steps.value.isTracing = false
        var followUps: [CommandDiff.Step] = []
        swap(&followUps, &steps.value.followUps)
        return (steps.value.own.take() ?? CommandDiff.Step(followUp: nil, entries: []), followUps)
    }
}
