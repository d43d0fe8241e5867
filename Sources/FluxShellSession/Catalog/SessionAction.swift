import FluxCore
import FluxShellJSON
import FluxShellValues

/// What travels on a session's one shared dispatcher: the action as typed, and the typed action
/// for each loaded store that accepts it.
@_documentation(visibility: internal)
public struct _SessionAction: Action {
    /// The action in command syntax, as announced (`=> searchResponse page: 1 ...`).
    public let invocation: ActionInvocation
    /// Set on actions that effects dispatched while handling another.
    public let isFollowUp: Bool
    let payloads: [Payload]

    struct Payload: Sendable {
        let storeID: ObjectIdentifier
        let action: any TypedAction
    }

    @usableFromInline
    package func payload(for storeID: ObjectIdentifier) -> (any TypedAction)? {
        for payload in payloads where payload.storeID == storeID { return payload.action }
        return nil
    }
}

/// A store's typed action, as its runtime decoded it.
///
/// NB: the runtime that made it gets it back as its own action type with a cast compiled for the
/// store's types: a payload is only ever delivered to the store whose runtime decoded it.
@usableFromInline
package protocol TypedAction: AnyObject, Sendable {}

@usableFromInline
package final class TypedActionBox<A>: TypedAction {
    /// The action, which need not be `Sendable` (ReSwift's are not): it is made, delivered and
    /// applied on the thread of the session that decoded it (see ``AppValue``).
    ///
    /// NB: nonisolated(unsafe), not an ``AppValue``: a stored property of a generic class is
    /// reached at its offset in the class's metadata, where an `AppValue<A>`, whose layout
    /// depends on `A`, needs its own metadata in the runtime's generic code on every line.
    @usableFromInline package nonisolated(unsafe) let action: A

    @usableFromInline package init(_ action: A) { self.action = action }
}

/// The name the package's own code uses. The type's public name is underscored: it is public
/// only so that code inlined into a user's module can use it (see docs/architecture.md).
@usableFromInline package typealias SessionAction = _SessionAction
