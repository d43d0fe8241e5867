/// What a ``Middleware`` decides about an action before the stores see it.
public enum MiddlewareDecision<Action: FluxCore.Action>: Sendable {
    /// The action goes on unchanged.
    case pass
    /// This action goes on instead.
    case replace(Action)
    /// Nothing after this middleware sees the action: no later middleware, no store, no handler.
    case stop
}

/// Sees every action of a ``Dispatcher`` before its handlers (stores, subscribers) do.
///
/// A middleware can pass, replace or stop an action, and dispatch follow-up actions through the
/// dispatcher it is given — at once or later, from a `Task`. Follow-ups dispatched while an action
/// is being delivered are queued and delivered after it, in order.
///
/// ```swift
/// struct Logger: Middleware {
///     func willDispatch(_ action: CounterAction, on dispatcher: Dispatcher<CounterAction>)
///         -> MiddlewareDecision<CounterAction> {
///         print("will", action)
///         return .pass
///     }
/// }
/// dispatcher.use(Logger())
/// ```
public protocol Middleware<Action> {
    associatedtype Action: FluxCore.Action

    /// Called for each action before any handler; middlewares run in the order they were added.
    func willDispatch(_ action: Action, on dispatcher: Dispatcher<Action>) -> MiddlewareDecision<
        Action
    >

    /// Called after every handler has seen `action` (the action as delivered, after replacements).
    func didDispatch(_ action: Action, on dispatcher: Dispatcher<Action>)
}

extension Middleware {
    public func didDispatch(_ action: Action, on dispatcher: Dispatcher<Action>) {}
}

/// A middleware made of closures.
public struct AnyMiddleware<Action: FluxCore.Action>: Middleware {
    private let will: (Action, Dispatcher<Action>) -> MiddlewareDecision<Action>
    private let did: (Action, Dispatcher<Action>) -> Void

    /// - Parameters:
    ///   - willDispatch: decides about each action before the handlers see it.
    ///   - didDispatch: runs after the handlers saw the action.
    public init(
        willDispatch: @escaping (Action, Dispatcher<Action>) -> MiddlewareDecision<Action> = {
            _, _ in .pass
        },
        didDispatch: @escaping (Action, Dispatcher<Action>) -> Void = { _, _ in }
    ) {
        self.will = willDispatch
        self.did = didDispatch
    }

    public func willDispatch(_ action: Action, on dispatcher: Dispatcher<Action>)
        -> MiddlewareDecision<Action>
    {
        will(action, dispatcher)
    }

    public func didDispatch(_ action: Action, on dispatcher: Dispatcher<Action>) {
        did(action, dispatcher)
    }
}
