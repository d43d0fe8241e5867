import FluxShellJSON
import FluxShellValues

/// What a session attached to a running app asks of its link to the app. `FluxShellLive` makes
/// the link (`Session(attachingTo:)`); the session only holds it, so that it knows it is attached
/// and can say what its commands cannot do there.
package protocol AttachedApp: AnyObject {
    /// How many of the app's actions this session never saw (its shell read too slowly).
    var droppedActions: Int { get }
    /// Another shell set the app's stores (`undo`, `redo`, `reset`) while this one was attached.
    var setElsewhere: Bool { get }
    /// Each store's state, by alias, when the shell attached: where a saved scenario begins.
    var attachedStates: [String: JSONValue] { get }
    /// Runs `body`, which sets `session`'s stores, between two of the app's deliveries, once the
    /// app's actions so far are steps of `session`; then, if `body` says it set them, tells the
    /// app's other shells (still between deliveries: they take the states set, not later ones).
    func settingStores(of session: Session, _ body: () -> Bool)
    /// Stops following the app: its dispatcher forgets the session.
    func stop()
}
