/// What one command's actions change, step by step, filled while the command is dispatched.
///
/// The session lends it to each store runtime it loads. A handler that the session registers
/// before any store's begins a step for each action the dispatcher delivers (the command's own,
/// then each follow-up); each store the action reaches adds its diff to that step, its paths as
/// printed (``AliasPrefix``). Once the command is delivered, the session takes the steps out.
@usableFromInline
final class DispatchTrace {
    // NB: a trace belongs to one session, used from one thread at a time: the properties touched
    // on every action skip the run-time exclusivity checks.
    /// How many stores are loaded: whether their paths begin with their alias.
    @exclusivity(unchecked) var storeCount = 0
    /// Whether a command is being dispatched (steps are kept only then).
    @exclusivity(unchecked) private var isTracing = false
    @exclusivity(unchecked) private var ownStep: CommandDiff.Step?
    @exclusivity(unchecked) private var followUps: [CommandDiff.Step] = []

    /// Starts tracing a command.
    func start() {
        isTracing = true
    }

    /// Begins the step of an action being delivered.
    func begin(_ action: SessionAction) {
        guard isTracing else { return }
        let step = CommandDiff.Step(followUp: action.isFollowUp ? action.invocation : nil, entries: [])
        if ownStep == nil { ownStep = step } else { followUps.append(step) }
    }

    /// Adds what the action being delivered changed in store `alias`.
    @usableFromInline
    func add(_ changes: [DiffEntry], of alias: String) {
        guard isTracing, !changes.isEmpty else { return }
        let entries = AliasPrefix.entries(changes, of: alias, amongStores: storeCount)
        if followUps.isEmpty {
            // NB: the first store's entries are taken as they are, not copied into an empty array.
            if ownStep!.entries.isEmpty { ownStep!.entries = entries } else { ownStep!.entries += entries }
        } else {
            followUps[followUps.count - 1].entries += entries
        }
    }

    /// Ends tracing: the command's own step and its follow-ups' steps, moved out.
    func finish() -> (own: CommandDiff.Step, followUps: [CommandDiff.Step]) {
        isTracing = false
        var steps: [CommandDiff.Step] = []
        swap(&steps, &followUps)
        return (ownStep.take() ?? CommandDiff.Step(followUp: nil, entries: []), steps)
    }
}
