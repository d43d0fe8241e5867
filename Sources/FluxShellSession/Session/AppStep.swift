import FluxShellJSON
import FluxShellValues

/// What a store did with no command of the shell's: a running app's action as an attached
/// session saw it (`<= ACTION`), the actions it dropped because the shell read too slowly, or a
/// loaded store that changed on its own (its library's queue, timer or task).
package enum AppStep: Sendable {
    /// One of the app's actions, in command syntax, what it changed, and its number in `history`.
    case action(ActionInvocation, CommandDiff, step: Int)
    /// `(N changes dropped)`: the app's actions the shell did not see, then every store's state;
    /// with none dropped, another shell set the stores (`undo`).
    case dropped(count: Int, states: [(alias: String, state: JSONValue)])
    /// A loaded store changed with no command: the action its hook reported (`<= ACTION`), or
    /// `nil` (`<= (the store changed by itself)`), what it changed, and its number in `history`.
    case onItsOwn(ActionInvocation?, CommandDiff, step: Int)

    /// What a change with no action says of itself, after `<= `.
    package static let changedByItself = "(the store changed by itself)"

    /// A step of an action (the app's, or a store's own), as it prints: what follows `<= `, its
    /// diff and its number in `history`; `nil` for the states sent again after dropped actions.
    package var announced: (action: String, diff: CommandDiff, step: Int)? {
        switch self {
        case .action(let action, let diff, let step): (action.description, diff, step)
        case .onItsOwn(let action, let diff, let step): (action?.description ?? Self.changedByItself, diff, step)
        case .dropped: nil
        }
    }

    /// The step as a scenario writes it and the runner compares it: `<= ACTION` (or `<= (the
    /// store changed by itself)`), then its diff lines; `nil` for a step a scenario cannot expect.
    package var scenarioLines: [String]? {
        guard case .onItsOwn(let action, let diff, _) = self else { return nil }
        return Self.scenarioLines(of: action, diff)
    }

    /// The lines of a store's step of its own, `action` (`nil`: none known) with `diff`.
    static func scenarioLines(of action: ActionInvocation?, _ diff: CommandDiff?) -> [String] {
        ["<= " + (action?.description ?? changedByItself)] + (diff?.lines ?? []).filter { $0 != "(no changes)" }
    }

    /// What the step says of itself, in `history` and before the states.
    package static func resyncNote(dropped: Int) -> String {
        dropped == 0
            ? "(the app's stores were set from another shell)"
            : "(\(dropped) change\(dropped == 1 ? "" : "s") dropped)"
    }
}
