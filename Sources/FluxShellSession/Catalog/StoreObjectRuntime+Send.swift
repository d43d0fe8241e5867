import FluxShellSystem
import FluxShellValues

/// An `async` `send:` being awaited: a task of the session's effects, whose jobs the session runs
/// on its own thread (see ``EffectScheduler``), so that what the store does while it awaits (a
/// hop to another queue and back, a sleep on the session's clock) is bounded and listed as an
/// effect's work is.
final class SendRecord<Object, Action>: EffectRecord, @unchecked Sendable {
    // NB: @unchecked Sendable, restated as Swift requires of a subclass: the lets are the app's
    // values, used on the session's thread only, where the task's jobs run (see ``AppValue``);
    // see `EffectRecord` for the rest.
    let send: (Object, Action) async -> Void
    let object: Object
    let sent: Action
    let store: String
    let describe: () -> String
    /// Called on the session's thread once `send` returned, unless it was cancelled (`cancel`,
    /// a command taken back, the session's end) or given up on.
    let returned: (() -> Void)?

    init(
        scheduler: EffectScheduler, send: @escaping (Object, Action) async -> Void, object: Object, action: Action,
        store: String, describe: @escaping () -> String, returned: (() -> Void)?
    ) {
        (self.send, self.object, self.sent, self.store) = (send, object, action, store)
        (self.describe, self.returned) = (describe, returned)
        super.init(scheduler: scheduler)
    }

    override func describeAction() -> String { describe() }

    override func run() async {
        await send(object, sent)
        if !isAbandoned, !isCancelled { returned?() }
        scheduler.end(self)
    }

    override func ranOver(_ seconds: String) -> ShellError {
        ShellError(
            "store '\(store)': send: did not return within \(seconds) s for '\(describe())'",
            hint:
                "an async send: is awaited until it returns; one that waits for the world forever (a continuation never resumed, a lock) is given up on"
        )
    }
}

/// A store object whose `send:` is `async`.
extension StoreObjectRuntime {
    /// Starts sending the command's own `action`; the session runs it with the command's
    /// effects, and once it returned, its diff (or what the hook reported) is the command's.
    @usableFromInline
    func applyLater(_ action: Action) {
        guard case .later(let send) = form.send else { return }
        pending.append(action)
        if feed != nil { awaited.append(action) }
        let sentTo = object
        let record = sendRecord(
            send, action, to: object,
            returned: { [weak self] in
                // NB: a store made again since (`undo` by replay) is not the one sent to.
                guard let self, self.object === sentTo else { return }
                guard let feed else { return trace.add(advance(to: form.state(object)), of: alias) }
                // NB: its report may have come while it slept on the clock, taken as a step of its own.
                guard let index = awaited.firstIndex(where: { self.isSame($0, action) }) else { return }
                awaited.remove(at: index)
                takeOwn(action, feed)
            })
        effects.start(record)
    }

    /// The effect that awaits `send` of `action` to `store`; `returned` runs once it returned.
    private func sendRecord(
        _ send: @escaping (Object, Action) async -> Void, _ action: Action, to store: Object,
        returned: (() -> Void)?
    ) -> SendRecord<Object, Action> {
        SendRecord(
            scheduler: effects, send: send, object: store, action: action, store: alias,
            describe: { [actionCases] in actionCases.announcement(of: action).description }, returned: returned)
    }

    /// Sends `action` to `store`, made again for `undo`, and waits until the store applied it:
    /// until `send:` returned, and until the hook reported it, if the store has one (as long as
    /// the command that sent it first waited: what the library did instead then, it does again).
    func replay(_ action: Action, to store: Object, _ feed: StoreFeed<Action, State>?) throws(ShellError) {
        switch form.send {
        case .now(let send):
            guard let feed else {
                send(store, action)
                // NB: as a command's send (see `apply`): a store on the main queue applies it now.
                return appliesOnMainQueue ? MainQueue.run() : ()
            }
            feed.sending { send(store, action) }
        case .later(let send):
            let record = sendRecord(send, action, to: store, returned: nil)
            effects.start(record)
            effects.run()
            guard record.hasEnded else {
                // NB: one that sleeps on the clock ends now: the store it was sent to is dropped.
                record.cancel()
                effects.run()
                _ = effects.takeProblems()
                throw ShellError(
                    "a new store sent the kept actions again did not come back from send: '\(record.describe())'",
                    hint:
                        "its send: waits on the session's clock or on the world; give restore: to set its state directly"
                )
            }
        }
        if let feed { _ = awaitOwn(action, feed, waiting: !appliesAtOnce) }
    }
}
