import FluxCore

/// What an effect that takes time is given, besides its action and state: the session's
/// environment and a way to dispatch actions while it runs.
///
/// ```swift
/// StoreDefinition("search", state: Search.State(), reduce: Search.reduce,
///     effect: { action, state, context in
///         guard case .queryChanged(let query) = action else { return [] }
///         try await context.environment.clock.sleep(for: .milliseconds(300))
///         context.send(.searchStarted)
///         return [.response(await Search.fixture(query))]
///     })
/// ```
public struct EffectContext<Action>: Sendable {
    /// The session's environment: its time, ids, random numbers and clock.
    public let environment: ShellEnvironment
    @usableFromInline let record: EffectRecord
    @usableFromInline let sink: EffectSink<Action>

    @usableFromInline
    init(environment: ShellEnvironment, record: EffectRecord, sink: EffectSink<Action>) {
        (self.environment, self.record, self.sink) = (environment, record, sink)
    }

    /// Dispatches `action` at once, announced by `=> ACTION` with its diff. After the effect was
    /// cancelled, the action is dropped and the command that cancelled it reports an error.
    ///
    /// Synchronous: call it with or without `await` (Swift notes that nothing is awaited).
    public func send(_ action: Action) {
        let sink = self.sink
        let value = AppValue(action)
        record.scheduler.deliver(
            from: record, returned: false, describe: { sink.describe(value.value) }, perform: { sink.send(value.value) }
        )
    }

    /// Dispatches `action` at once, as ``send(_:)`` does: how a `.run` effect's operation sends,
    /// `await send(action)`, as TCA's `Send` is called.
    public func callAsFunction(_ action: Action) async { send(action) }

    /// This context for an effect whose actions are `Child`s, each sent as `transform` makes it
    /// one of these (``StoreEffect/map(_:)``).
    func mapping<Child>(_ transform: @escaping @Sendable (Child) -> Action) -> EffectContext<Child> {
        let sink = self.sink
        let childSink = EffectSink<Child>(
            send: { sink.send(transform($0)) }, describe: { sink.describe(transform($0)) })
        return EffectContext<Child>(environment: environment, record: record, sink: childSink)
    }

    /// Cancels the running effects of the store that started this one whose id is `id`.
    func cancel(id: AnyHashable) { record.scheduler.cancel(id: id, of: record.owner) }

    /// Dispatches the actions an effect returned, when it ended (dropped if it was cancelled).
    @usableFromInline
    func deliverReturned(_ actions: [Action]) {
        for action in actions {
            let sink = self.sink
            let value = AppValue(action)
            record.scheduler.deliver(
                from: record, returned: true, describe: { sink.describe(value.value) },
                perform: { sink.send(value.value) })
        }
    }
}

/// How a store's effects hand their actions to the session: as a follow-up of the store that
/// ran the effect, and in command syntax for the errors that name one.
///
/// The two closures are the runtime's, called only on the session's thread, while it runs the
/// effects (see ``EffectScheduler/deliver(from:returned:describe:perform:)`` and ``AppValue``).
@usableFromInline
final class EffectSink<Action>: Sendable {
    private let sending: AppValue<(Action) -> Void>
    private let describing: AppValue<(Action) -> String>

    @usableFromInline
    init(send: @escaping (Action) -> Void, describe: @escaping (Action) -> String) {
        sending = AppValue(send)
        describing = AppValue(describe)
    }

    func send(_ action: Action) { sending.value(action) }

    func describe(_ action: Action) -> String { describing.value(action) }
}
