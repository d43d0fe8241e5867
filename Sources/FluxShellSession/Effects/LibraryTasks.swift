/// The tasks the loaded stores' libraries start or wake while the session runs a command (a TCA
/// `Store`'s effects, a model's `Task {}`), as one effect: the session runs their jobs on its own
/// thread with the command's effects (see ``TaskRouting``), `effects` lists it while one of them
/// sleeps on the session's clock, and `cancel` wakes those with `CancellationError`.
final class LibraryTasks: EffectRecord, @unchecked Sendable {
    // NB: @unchecked Sendable, restated as Swift requires of a subclass: it adds no stored
    // property; see `EffectRecord`.
    override func describeAction() -> String { "the stores' own tasks" }

    /// NB: the tasks are the library's, not the session's to cancel: their sleeps on the clock
    /// throw `CancellationError`, now and until the effect ends, as a cancelled task's do.
    override func cancel() {
        isCancelled = true
        scheduler.environment.core.cancelEverySleeper(of: self)
    }

    override var endsSleeps: Bool { isCancelled }
}
