import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// Taking back a command that was expected to fail and succeeded (a `! ` line): a failed line
/// changes nothing (see "The command language" in the reference).
extension Session {
    /// The session as it was before a command: what ``retract(to:after:)`` puts back.
    ///
    /// NB: taken only before a `! ` line. Its parts are values (the timeline, each store's states
    /// along it), so keeping them costs a copy of what the command goes on to change.
    package struct Checkpoint {
        fileprivate let timeline: Timeline
        fileprivate let activeIndex: Int?
        fileprivate let watches: [(alias: String, path: ValuePath)]
        fileprivate let isExhaustive: Bool
        fileprivate let stores: [any StoreCheckpoint]
        fileprivate let draws: EnvironmentCore.Draws
        fileprivate let effectsStarted: Int
    }

    package func checkpoint() -> Checkpoint {
        let cursor = history.cursor
        return Checkpoint(
            timeline: timeline, activeIndex: activeIndex, watches: watches, isExhaustive: isExhaustive,
            stores: stores.map { $0.runtime.checkpoint(cursor: cursor) }, draws: environment.core.draws,
            effectsStarted: effects.startedCount)
    }

    /// Takes back what `command` did since `checkpoint`, as if it had not run: each store's state
    /// (set as `undo` sets it) and its states along the timeline, the history and what `save`
    /// writes, the active store, the watches, `exhaustive`, the ids and random numbers drawn, and
    /// the effects it started (cancelled).
    ///
    /// - Returns: `nil` when it was taken back; else why what it did stands (then nothing was
    ///   taken back).
    package func retract(to checkpoint: Checkpoint, after command: Command) -> String? {
        switch command {
        case .load: return "the store it loaded stays loaded"
        case .save(let file): return "it wrote '\(file)'"
        case .advance: return "the clock it moved and the effects that woke cannot go back"
        case .cancel: return "the effects it cancelled have ended"
        default: break
        }
        if history.hasMoved(since: checkpoint.timeline.history) {
            // NB: every store is asked first: one that cannot go back (an attached app's, a store
            // object whose replay reaches another state) leaves every store as it is.
            var setters: [() -> Void] = []
            for (store, kept) in zip(stores, checkpoint.stores) {
                do throws(ShellError) {
                    setters.append(try store.runtime.retractor(to: kept))
                } catch {
                    return error.message
                }
            }
            effects.retract(startedAfter: checkpoint.effectsStarted)
            for set in setters { set() }
        } else {
            effects.retract(startedAfter: checkpoint.effectsStarted)
        }
        timeline = checkpoint.timeline
        activeIndex = checkpoint.activeIndex
        watches = checkpoint.watches
        isExhaustive = checkpoint.isExhaustive
        environment.core.draws = checkpoint.draws
        return nil
    }
}
