import FluxShellJSON
import FluxShellValues

/// What a running app did by itself, as an attached session saw it: one of its actions and the
/// diff it made (`<= ACTION`), or the actions it dropped because the shell read too slowly.
package enum AppStep: Sendable {
    /// One of the app's actions, in command syntax, what it changed, and its number in `history`.
    case action(ActionInvocation, CommandDiff, step: Int)
    /// `(N changes dropped)`: the app's actions the shell did not see, then every store's state;
    /// with none dropped, another shell set the stores (`undo`).
    case dropped(count: Int, states: [(alias: String, state: JSONValue)])

    /// What the step says of itself, in `history` and before the states.
    package static func resyncNote(dropped: Int) -> String {
        dropped == 0
            ? "(the app's stores were set from another shell)"
            : "(\(dropped) change\(dropped == 1 ? "" : "s") dropped)"
    }
}
