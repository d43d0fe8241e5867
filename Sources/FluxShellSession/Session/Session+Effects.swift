import FluxShellSystem

/// The commands of effects that take time: `advance`, `effects`, `cancel` (see "Effects over
/// time" in the reference).
extension Session {
    /// `advance [SECONDS]`: moves the clock, running the effects that wake on the way; what they
    /// send are the command's steps, as a dispatch's follow-ups are.
    func advance(by duration: Duration?) throws(ShellError) -> CommandResult {
        if live != nil { throw appClock("advance") }
        guard !stores.isEmpty else { throw noStoreLoaded }
        if duration == nil, environment.core.nextDeadline == nil {
            throw ShellError(
                "nothing waits on the clock, so advance has no deadline to move it to",
                hint: "advance SECONDS moves it anyway; effects lists what runs")
        }
        trace.start(withOwnStep: true)
        effects.advance(by: duration) { trace.followUpLimitReached }
        if hasStoresChangingOnTheirOwn { takeChangesWithinCommand() }
        let (ownStep, followUps) = trace.finish()
        let diff = CommandDiff(
            ownStep: ownStep, followUpSteps: followUps, isUnchanged: isUnchanged(ownStep, followUps))
        let loaded = stores
        timeline.record(
            .advance(duration), followUps: followUps.compactMap { $0.followUp }, diff: diff, in: loaded)
        var result = CommandResult(diff, followUpLimitReached: trace.followUpLimitReached ? followUpLimit : nil)
        result.step = hot.value.timeline.history.newestNumber
        return result
    }

    /// What the stores that change on their own did while the command's effects ran (their
    /// tasks that woke): the command's, as `=> ACTION` steps when their hooks name the action.
    func takeChangesWithinCommand() {
        for store in stores where store.runtime.changesOnItsOwn {
            store.runtime.takeChangesOnItsOwn { change in
                if let action = change.action {
                    trace.begin(SessionAction(invocation: action, isFollowUp: true, payloads: []))
                }
                trace.add(change.entries, of: store.alias)
            }
        }
    }

    /// `effects`: each running effect, the line that started it and what it waits for.
    func listEffects() throws(ShellError) -> CommandResult {
        CommandResult(.effects(EffectListing(entries: live == nil ? effects.listing : [], isAttached: live != nil)))
    }

    /// `cancel`: cancels every running effect and lets each end; with none running it does
    /// nothing, so that a scenario can end with it whatever ran. `cancel ID`: those of
    /// cancellation id `ID` (`StoreEffect.cancellable(id:)`), an error when none runs.
    func cancelEffects(id: String?) throws(ShellError) -> CommandResult {
        if live != nil { throw appClock("cancel") }
        if let id {
            try effects.cancel(idText: id)
        } else if !effects.running.isEmpty {
            effects.cancelAll()
        }
        timeline.note(.cancel(id: id))
        return CommandResult()
    }

    /// `seed N`: the environment's random numbers start again from `seed`; `save` keeps the line.
    func seedRandom(_ seed: UInt64) -> CommandResult {
        environment.core.reseed(seed)
        timeline.note(.seed(seed))
        return CommandResult()
    }

    /// Whether no loaded store's state differs after a command whose steps are these.
    @inline(__always)
    func isUnchanged(_ ownStep: CommandDiff.Step, _ followUps: [CommandDiff.Step]) -> Bool {
        if ownStep.entries.isEmpty, followUps.allSatisfy({ $0.entries.isEmpty }) { return true }
        if followUps.isEmpty { return false }
        // NB: steps can cancel out (a search repeated): compare the ends of the command.
        return stores.allSatisfy { $0.runtime.isUnchanged(since: history.cursor) }
    }

    /// What a shell attached to an app says of the clock commands.
    private func appClock(_ command: String) -> ShellError {
        ShellError(
            "\(command) is for effects the shell runs: the attached app's effects run on its own clock",
            hint: "the app's actions still show here as they happen")
    }
}
