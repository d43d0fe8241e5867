/// What a reducer returns besides the new state, the way TCA's `Effect` is written: nothing,
/// an action to send at once, work that runs as a task of the session's (on its clock), or
/// several of those, each cancellable by an id of the session's. A feature written
/// `reduce(into:action:) -> Effect<Action>` registers with one line of mapping,
/// `typealias Effect = StoreEffect`, in the module that registers it:
///
/// ```swift
/// StoreDefinition("search", state: Search.State(), reduce: { state, action in
///     switch action {
///     case .queryChanged(let query):
///         state.query = query
///         return .run { send in
///             try await send.environment.clock.sleep(for: .milliseconds(300))
///             await send(.response(Search.fixture(query)))
///         }
///         .cancellable(id: "search", cancelInFlight: true)
///     case .response(let results):
///         state.results = results
///         return .none
///     }
/// })
/// ```
///
/// See "Effects that reducers return" in the reference.
public struct StoreEffect<Action> {
    @usableFromInline
    indirect enum Operation {
        case none
        case send(Action)
        case run(@Sendable (EffectContext<Action>) async throws -> Void)
        case merge([StoreEffect])
        case concatenate([StoreEffect])
        case cancellable(StoreEffect, id: AnyHashable, cancelInFlight: Bool)
        case cancel(id: AnyHashable)
    }

    @usableFromInline let operation: Operation

    @inlinable init(_ operation: Operation) { self.operation = operation }

    /// No effect.
    @inlinable public static var none: Self { Self(.none) }

    /// Sends `action` at once, after the action that returned it: announced by `=> ACTION`.
    @inlinable public static func send(_ action: Action) -> Self { Self(.send(action)) }

    /// Runs `operation` as a task of the session's, which may sleep on the session's clock
    /// (`advance` wakes it) and send actions (`await send(action)`), each announced by
    /// `=> ACTION`. What it throws, but `CancellationError`, is an error at the command that ran.
    ///
    /// - Parameters:
    ///   - priority: taken for TCA's signature; the session runs its effects one at a time, in
    ///     order, whatever their priority.
    ///   - operation: the work, given the ``EffectContext`` to send with (`await send(action)`)
    ///     and read the session's environment from (`send.environment`).
    @inlinable
    public static func run(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable (_ send: EffectContext<Action>) async throws -> Void
    ) -> Self {
        Self(.run(operation))
    }

    /// Runs every effect of `effects` at once.
    @inlinable public static func merge(_ effects: Self...) -> Self { merge(effects) }

    /// Runs every effect of `effects` at once.
    @inlinable
    public static func merge(_ effects: some Sequence<Self>) -> Self {
        let effects = effects.filter { if case .none = $0.operation { false } else { true } }
        return effects.isEmpty ? .none : Self(.merge(effects))
    }

    /// Runs the effects of `effects` one after the other, each once the one before ended.
    @inlinable public static func concatenate(_ effects: Self...) -> Self { concatenate(effects) }

    /// Runs the effects of `effects` one after the other, each once the one before ended.
    @inlinable
    public static func concatenate(_ effects: some Sequence<Self>) -> Self {
        let effects = effects.filter { if case .none = $0.operation { false } else { true } }
        return effects.isEmpty ? .none : Self(.concatenate(effects))
    }

    /// This effect, cancelled by `.cancel(id:)` or the `cancel ID` command; with
    /// `cancelInFlight`, the effects of the same id still running are cancelled first. Ids
    /// belong to the session: scenarios run in parallel never cancel each other's effects.
    @inlinable
    public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
        if case .none = operation { return self }
        return Self(.cancellable(self, id: AnyHashable(id), cancelInFlight: cancelInFlight))
    }

    /// Cancels the store's effects of `id` that are running.
    @inlinable
    public static func cancel(id: some Hashable & Sendable) -> Self { Self(.cancel(id: AnyHashable(id))) }

    /// This effect with each action it sends transformed: a child feature's effect in its
    /// parent's actions.
    public func map<Other>(_ transform: @escaping @Sendable (Action) -> Other) -> StoreEffect<Other> {
        switch operation {
        case .none: .none
        case .send(let action): .send(transform(action))
        case .run(let operation):
            .run { send in try await operation(send.mapping(transform)) }
        case .merge(let effects): .merge(effects.map { $0.map(transform) })
        case .concatenate(let effects): .concatenate(effects.map { $0.map(transform) })
        case .cancellable(let effect, let id, let cancelInFlight):
            StoreEffect<Other>(.cancellable(effect.map(transform), id: id, cancelInFlight: cancelInFlight))
        case .cancel(let id): StoreEffect<Other>(.cancel(id: id))
        }
    }

    /// Whether it is `.none`: what a reducer returns most of the time, checked first.
    @inlinable var isNone: Bool {
        if case .none = operation { return true }
        return false
    }
}
