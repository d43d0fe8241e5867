import FluxCore

/// What travels on a session's one shared dispatcher: the action as typed, and the typed action
/// for each loaded store that accepts it.
public struct SessionAction: Action {
    /// The action in command syntax, as announced (`=> searchResponse page: 1 ...`).
    public let invocation: ActionInvocation
    /// Set on actions that effects dispatched while handling another.
    public let isFollowUp: Bool
    let payloads: [Payload]

    struct Payload: Sendable {
        let storeID: ObjectIdentifier
        let action: any Action
    }

    @usableFromInline
    func payload(for storeID: ObjectIdentifier) -> (any Action)? {
        for payload in payloads where payload.storeID == storeID { return payload.action }
        return nil
    }
}
