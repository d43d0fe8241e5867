import FluxCore
import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// A loaded store, seen through the types the session knows: text in, JSON out. Three jobs:
/// making and checking its actions (`decode`, `validate`, `onFollowUp`), reading its state
/// (`json`, `read`, `readStateAfresh`, `hasSameState`, `brokenInvariant`), and its states along
/// the session's ``Timeline`` (`recordHistory`, `restorer`, `initialRestorer`, `isUnchanged`,
/// `historyDiff`; `replayer`, `sweeper` and `forgetHistory` for editing the past; `checkpoint` and
/// `retractor` for a command taken back). Each action's diff goes
/// to the session's ``DispatchTrace``, lent at load.
@usableFromInline
package protocol StoreRuntime: AnyObject {
    var alias: String { get }
    /// Called with each follow-up action an effect produced, in order: in command syntax (for the
    /// `=> ` line and the other stores), typed for this store, and this store's identity.
    var onFollowUp: ((ActionInvocation, any TypedAction, ObjectIdentifier) -> Void)? { get set }

    /// The typed action for `invocation`, or why this store does not take it.
    func decode(_ invocation: ActionInvocation) -> DecodeOutcome
    /// Throws when the store refuses `action` in its current state.
    func validate(_ action: any TypedAction) throws
    /// Whether the store checks actions before they are dispatched.
    var validates: Bool { get }
    /// The current state as printed (read once per change, when asked).
    var json: JSONValue { get }
    /// The value at `path` in the current state, reading only what the path goes through.
    func read(_ path: ValuePath) throws(ShellError) -> JSONValue
    /// Whether the state is what it was with the first `cursor` history entries done.
    func isUnchanged(since cursor: Int) -> Bool
    /// Mirrors ``SessionHistory/record(action:followUps:storeCount:transcriptIndex:)`` with the current state.
    func recordHistory(cursor: Int, forgetting dropped: Int)
    /// What puts back the state with the first `cursor` history entries done and returns the
    /// diff, or why that state cannot be made again; nothing changes until it is called.
    func restorer(at cursor: Int) throws(ShellError) -> () -> [DiffEntry]
    /// The current state read afresh, not from the cache a diff keeps valid: a state changed in
    /// place through a class instance it holds shows here, not in diffs.
    func readStateAfresh() -> JSONValue
    /// Whether `other`, a runtime of the same store, holds the same state as values: `==` (or
    /// equal bits) for an `Equatable` state, else no difference in what prints.
    func hasSameState(as other: any StoreRuntime) -> Bool
    /// Where the state of `other`, a runtime of the same store, first differs from this one's, at
    /// its deepest, even where both print alike; `nil` when that is not known.
    func firstDifference(from other: any StoreRuntime) -> ValuePath?
    /// The name of the first declared invariant the current state breaks, if one does.
    func brokenInvariant() -> String?
    /// The diff that history entry `index` made to this store, from the states kept for undo
    /// (one step for the whole command, follow-ups included).
    func historyDiff(ofEntry index: Int) -> [DiffEntry]
    /// The diff from the state with the first `from` history entries done to the one with the
    /// first `to` done, from the states kept for undo; `nil` when one of them cannot be made again.
    func historyDiff(from: Int, to: Int) -> [DiffEntry]?
    /// The state with the first `cursor` history entries done, as printed, from the states kept
    /// for undo; `nil` when it cannot be made again.
    func historyState(at cursor: Int) -> JSONValue?
    /// `skip`, `unskip`, `replace`: what sets the state to the one `plan` replays to and returns
    /// the diff, or why this store cannot replay its steps; nothing changes until it is called.
    func replayer(_ plan: ReplayPlan) throws(ShellError) -> () -> [DiffEntry]
    /// `sweep`: what makes the store's states along the timeline again as `plan` replays them
    /// (the steps it leaves out gone), or why it cannot; nothing changes until it is called.
    func sweeper(_ plan: ReplayPlan) throws(ShellError) -> () -> Void
    /// `commit`: forgets the states along the timeline; the state with the first `cursor`
    /// entries done, the current one, is where it starts.
    func forgetHistory(keeping cursor: Int)
    /// What puts back the initial state and returns the diff, or why that state cannot be made
    /// again; nothing changes until it is called.
    func initialRestorer() throws(ShellError) -> () -> [DiffEntry]
    /// The store's state and its states along the timeline now, with the first `cursor` history
    /// entries done: what ``retractor(to:)`` puts back.
    func checkpoint(cursor: Int) -> any StoreCheckpoint
    /// What puts back the store as it was at `checkpoint` (one of its own), setting the state as
    /// `undo` does, or why it cannot; nothing changes until it is called.
    func retractor(to checkpoint: any StoreCheckpoint) throws(ShellError) -> () -> Void
    /// The session ends: the runtime lets go of the hooks that hold it, so that it goes with
    /// the session.
    func end()
    /// Whether the store may change with no command of the session's (a store object: its
    /// library's threads, timers and tasks): the session then asks ``takeChangesOnItsOwn()``
    /// before every command.
    var changesOnItsOwn: Bool { get }
    /// Takes what the store changed since its last step that no command caused, in order: each
    /// change becomes the state shown, and then `record` is called with it (which makes it a
    /// step of the history).
    func takeChangesOnItsOwn(_ record: (ChangeOnItsOwn) -> Void)
}

/// A change a store made with no command: its action when the store's hook reported one
/// (`<= ACTION`), else `nil` (`<= (the store changed by itself)`), and its diff.
@usableFromInline
package struct ChangeOnItsOwn {
    package var action: ActionInvocation?
    package var entries: [DiffEntry]

    package init(action: ActionInvocation?, entries: [DiffEntry]) {
        self.action = action
        self.entries = entries
    }
}

/// What a kind of store runtime keeps of itself to take a command back: see
/// ``StoreRuntime/checkpoint(cursor:)``.
@usableFromInline
package protocol StoreCheckpoint {}

@usableFromInline
package enum DecodeOutcome {
    /// The action, and the invocation in printed form when it was not typed in it.
    case accepted(any TypedAction, printed: ActionInvocation?)
    /// The store has no action of that name.
    case unknownCase
    /// The store has that action, but not with these arguments.
    case rejected(ShellError)
}

extension ActionCases {
    /// The action of type `Action` (this enum) that `invocation` names, as a store takes it.
    @inlinable
    package func decode<Action>(_ invocation: ActionInvocation, as _: Action.Type) -> DecodeOutcome {
        guard let index = index(for: invocation) else { return .unknownCase }
        do throws(ShellError) {
            let made = try make(index, invocation, as: Action.self)
            return .accepted(TypedActionBox(made.action), printed: made.printed)
        } catch {
            return .rejected(error)
        }
    }
}
