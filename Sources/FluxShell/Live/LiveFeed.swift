import FluxCore

/// The feed of a running app's dispatcher, seen from one attached session: type-erased, for the
/// session, which takes what arrived on its own thread.
protocol LiveSource: AnyObject {
    /// Starts copying every action the app's dispatcher delivers (with each served store's state
    /// after it) into the bounded inbox.
    func start(_ members: [any LiveMember])
    /// Stops copying; the app's dispatcher forgets the feed.
    func stop()
    /// Moves out the app's actions queued before sequence number `limit`, each in command syntax;
    /// each member moves their states out with them (``LiveMember/takeQueued(_:latest:)``).
    /// `dropped` counts the actions left out because the inbox was full, when those came before
    /// `limit`: the members then hold the latest state too.
    func take(before limit: Int) -> (actions: [ActionInvocation], dropped: Int)
}

/// A served store's part in its feed: the states the feed copies, for the session to diff.
protocol LiveMember: AnyObject {
    /// Copies the store's state after the action being delivered. Called with the feed's lock
    /// held, on the delivering thread.
    func capture(_ slot: LiveSlot)
    /// Moves the first `count` queued states (and the latest, with `latest`) to where the session
    /// reads them. Called with the feed's lock held.
    func takeQueued(_ count: Int, latest: Bool)
    /// Forgets the states of the shell's previous action. Called with the feed's lock held.
    func beginOwn()
}

/// Where a copied state goes.
enum LiveSlot {
    /// After one of the app's actions, queued for the session.
    case queued
    /// After an action the inbox had no room for: only the latest is kept.
    case latest
    /// After the shell's own action, or one of its follow-ups, delivered on the session's thread.
    case own
}

/// Copies each action the app's dispatcher delivers into a bounded inbox, from a handler
/// registered after the app's stores (so it sees their states after the action). The app never
/// waits for the shell: a full inbox counts what it drops and keeps only the latest states.
final class LiveFeed<Action: FluxCore.Action>: LiveSource, @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `inbox` is behind its lock; `subscription` is touched by
    // the session's thread only.
    private struct Inbox {
        var queued: [(sequence: Int, action: Action)] = []
        var dropped = 0
        var lastDropped = 0
        var nextSequence = 0
        /// The session's thread while it dispatches its own action: what is delivered on it is
        /// the shell's action and its follow-ups, not the app's.
        var ownThread: ThreadIdentity?
        var own: [Action] = []
        var ownStart = 0
        /// A wake is on its way to the session and it has not taken the inbox since.
        var wakePending = false
        /// The served stores' runtimes, which copy their states; none once the feed stopped.
        var members: [any LiveMember] = []
    }

    let dispatcher: Dispatcher<Action>
    let capacity: Int
    private let inbox = LockedValue(Inbox())
    private var subscription: Subscription<Action>?
    /// Tells the session that actions arrived in an empty inbox; called on the app's thread,
    /// without the lock.
    private let wake: @Sendable () -> Void

    init(_ dispatcher: Dispatcher<Action>, capacity: Int, wake: @escaping @Sendable () -> Void) {
        self.dispatcher = dispatcher
        self.capacity = max(1, capacity)
        self.wake = wake
    }

    func start(_ members: [any LiveMember]) {
        inbox.withLock { $0.members = members }
        // NB: the handler holds the feed until `stop()`, which the session calls when it detaches
        // (and in its deinit).
        subscription = dispatcher.register { [self] action in receive(action) }
    }

    func stop() {
        guard let subscription else { return }
        self.subscription = nil
        dispatcher.unregister(subscription)
        // NB: the runtimes hold the feed: letting them go breaks the cycle. What was queued goes
        // with them (its states were theirs).
        inbox.withLock { inbox in
            inbox.members = []
            inbox.queued = []
            inbox.dropped = 0
        }
    }

    /// On the delivering thread, for each action: the cost the app pays per attached shell.
    private func receive(_ action: Action) {
        let wakes = inbox.withLock { inbox -> Bool in
            let members = inbox.members
            let sequence = inbox.nextSequence
            inbox.nextSequence += 1
            if let ownThread = inbox.ownThread, ownThread == .current {
                if inbox.own.isEmpty { inbox.ownStart = sequence }
                inbox.own.append(action)
                for member in members { member.capture(.own) }
                return false
            }
            if inbox.queued.count < capacity {
                inbox.queued.append((sequence, action))
                for member in members { member.capture(.queued) }
            } else {
                inbox.dropped += 1
                inbox.lastDropped = sequence
                for member in members { member.capture(.latest) }
            }
            guard !inbox.wakePending else { return false }
            inbox.wakePending = true
            return true
        }
        if wakes { wake() }
    }

    func take(before limit: Int) -> (actions: [ActionInvocation], dropped: Int) {
        let (actions, dropped) = inbox.withLock { inbox -> ([Action], Int) in
            let members = inbox.members
            let count = inbox.queued.firstIndex { $0.sequence >= limit } ?? inbox.queued.count
            let actions = inbox.queued.prefix(count).map(\.action)
            inbox.queued.removeFirst(count)
            var dropped = 0
            if inbox.dropped > 0, inbox.lastDropped < limit {
                dropped = inbox.dropped
                inbox.dropped = 0
            }
            for member in members { member.takeQueued(count, latest: dropped > 0) }
            if limit == .max { inbox.wakePending = false }
            return (actions, dropped)
        }
        return (actions.map { ActionText.announcement(of: $0) }, dropped)
    }

    /// Dispatches the shell's action on the app's dispatcher, from the session's thread. Returns
    /// the actions delivered for it (the action as the app's middlewares let it through, then its
    /// follow-ups), after `absorb` took the app's actions that came before it.
    func dispatchOwn(_ action: Action, absorb: (_ before: Int) -> Void) -> [Action] {
        inbox.withLock { inbox in
            inbox.own.removeAll(keepingCapacity: true)
            inbox.ownThread = .current
            for member in inbox.members { member.beginOwn() }
        }
        dispatcher.dispatch(action)
        let (own, start, end) = inbox.withLock { inbox in
            inbox.ownThread = nil
            return (inbox.own, inbox.ownStart, inbox.nextSequence)
        }
        absorb(own.isEmpty ? end : start)
        return own
    }
}
