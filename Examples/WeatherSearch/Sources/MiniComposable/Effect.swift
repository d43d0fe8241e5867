/// What a reducer returns besides the new state: the work it starts, which ends in actions sent
/// back into the store. `.none` starts nothing; `.send(action)` sends an action at once;
/// `.run { send in … }` starts asynchronous work that sends actions as it goes.
public struct Effect<Action> {
    // NB: opaque, as TCA's `Effect` is over its `Operation`.
    /// The actions sent at once, in order.
    public let actions: [Action]
    /// The asynchronous work started, each with the `Send` its actions go through.
    public let operations: [@Sendable (Send<Action>) async -> Void]

    init(actions: [Action] = [], operations: [@Sendable (Send<Action>) async -> Void] = []) {
        self.actions = actions
        self.operations = operations
    }

    /// The effect that does nothing.
    public static var none: Self { Effect() }

    /// An effect that sends `action` back into the store at once.
    public static func send(_ action: Action) -> Self {
        Effect(actions: [action])
    }

    /// Asynchronous work, as TCA's `.run`: `operation` sends actions with `await send(action)`;
    /// what it throws (a cancelled sleep) ends it.
    public static func run(_ operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void) -> Self {
        Effect(operations: [{ send in try? await operation(send) }])
    }

    /// The effect whose actions are this one's, transformed: how a child's effect becomes the
    /// parent's.
    public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
        Effect<T>(
            actions: actions.map(transform),
            operations: operations.map { operation in
                { send in await operation(Send { action in await send(transform(action)) }) }
            })
    }

    /// Both effects, this one's first.
    public func merge(with other: Self) -> Self {
        Effect(actions: actions + other.actions, operations: operations + other.operations)
    }
}

/// How an effect's work sends actions back into its store (TCA's `Send`): `await send(action)`.
public struct Send<Action>: Sendable {
    private let send: @Sendable (Action) async -> Void

    public init(_ send: @escaping @Sendable (Action) async -> Void) { self.send = send }

    public func callAsFunction(_ action: Action) async { await send(action) }
}
