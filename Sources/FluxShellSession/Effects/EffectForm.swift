import FluxCore

/// What a store registered with a reducer does after an action: returns follow-up actions at
/// once (`effect: { action, state in … }`), or runs as a task of the session's that may sleep on
/// its clock and send actions while it runs (`effect: { action, state, context in … }`).
@usableFromInline
enum EffectForm<Action, State> {
    case immediate((Action, State) -> [Action])
    case overTime((Action, State, EffectContext<Action>) async throws -> [Action])
}
