import FluxShellJSON
import FluxShellLanguage
import FluxShellValues

/// What a `skip`, `unskip` or `replace` step changed in the timeline: the step it names, and how.
package enum TimelineEdit: Sendable, Equatable {
    case skip(Int)
    case unskip(Int)
    case replace(Int, ActionInvocation)

    /// The step the edit names.
    var step: Int {
        switch self {
        case .skip(let step), .unskip(let step), .replace(let step, _): step
        }
    }

    /// The edit as its command: what `history` lists and `save` writes.
    var command: Command {
        switch self {
        case .skip(let step): .skip(step: step)
        case .unskip(let step): .unskip(step: step)
        case .replace(let step, let invocation): .replace(step: step, invocation)
        }
    }
}

/// The edits in force along the done part of the timeline: each done edit step applied in
/// order.
struct TimelineEdits {
    /// The numbers of the skipped steps.
    var skipped: Set<Int> = []
    /// The steps whose action another replaced, with that action and the step that replaced it.
    var replaced: [Int: (action: ActionInvocation, by: Int)] = [:]

    mutating func apply(_ edit: TimelineEdit, by number: Int) {
        switch edit {
        case .skip(let step): skipped.insert(step)
        case .unskip(let step): skipped.remove(step)
        case .replace(let step, let action): replaced[step] = (action, number)
        }
    }

    /// How a replay treats the step numbered `number` (of an entry that `tookActions`).
    func treatment(of number: Int) -> ReplayPlan.Treatment {
        if skipped.contains(number) { return .leftOut }
        if let replacement = replaced[number] { return .replaced(replacement.action) }
        return .asRecorded
    }
}
