import FluxCore
import FluxShellJSON
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// The feed of a running app's dispatcher, seen from one attached session: type-erased, for the
/// session, which takes what arrived on its own thread.
protocol LiveSource: AnyObject, Sendable {
    /// Starts copying every action the app's dispatcher delivers (with each served store's state
    /// after it) into the bounded inbox.
    func start(_ members: [any LiveMember])
    /// Stops copying; the app's dispatcher forgets the feed.
    func stop()
    /// Runs `body` while the app's dispatcher delivers no action.
    func betweenDeliveries(_ body: () -> Void)
    /// Moves out the app's actions queued before sequence number `limit`, each in command syntax;
    /// each member moves their states out with them (``LiveMember/takeQueued(_:latest:)``).
    /// `dropped` counts the actions left out because the inbox was full, when those came before
    /// `limit`: the members then hold the latest state too.
    ///
    /// The latest states are read from the stores then, so only `exact`, between two of the
    /// app's deliveries; otherwise `needsExact` says that they are still to be taken.
    func take(before limit: Int, exact: Bool) -> LiveBatch
    /// Whether there is nothing to take: no action queued or dropped, no states to take again.
    /// Then the wake on its way, if any, is done with, as a take before `.max` would be.
    func takeNothing() -> Bool
    /// Another shell set the app's stores (`undo`): this session takes their states again, as
    /// after dropped actions.
    func storesSetElsewhere()
}

/// What a session takes from its feed.
struct LiveBatch {
    /// The app's actions, in command syntax, each with whether it is a follow-up of the one before.
    var actions: [(ActionInvocation, isFollowUp: Bool)] = []
    /// How many of the app's actions were dropped after them.
    var dropped = 0
    /// The members took the latest states (after dropped actions, or stores set elsewhere).
    var resyncs = false
    /// The latest states are still to be taken, between two of the app's deliveries.
    var needsExact = false
}

/// A served store's part in its feed: the states the feed copies, for the session to diff.
protocol LiveMember: AnyObject {
    /// Copies the store's state after the action being delivered into the slot. Called with the
    /// feed's lock held, on the delivering thread.
    var capture: (LiveSlot) -> Void { get }
    /// Moves the first `count` queued states to where the session reads them, and the latest
    /// state kept while dropping: the one kept before the shell's own action (`.sealed`), or the
    /// newest (`.latest`). Called with the feed's lock held.
    func takeQueued(_ count: Int, latest: LiveLatest?)
    /// The shell's own action begins while actions were being dropped: the latest state so far
    /// is kept apart, for the step before the shell's. Called with the feed's lock held.
    func sealLatest()
    /// Forgets the states of the shell's previous action. Called with the feed's lock held.
    func beginOwn()
    /// Makes the last `count` queued states the shell's action's: what the app applied instead
    /// of it. Called with the feed's lock held.
    func takeQueuedAsOwn(_ count: Int)
    /// Takes the store's state now as the one the shell attached at. Called while the app's
    /// dispatcher delivers nothing, right after the feed started.
    func attachHere()
}

/// Where a copied state goes.
@usableFromInline
enum LiveSlot {
    /// After one of the app's actions, queued for the session.
    case queued
    /// After an action the inbox had no room for: only the latest is kept.
    case latest
    /// After the shell's own action, or one of its follow-ups, delivered on the session's thread.
    case own
}

/// Which latest state a session takes after dropped actions.
enum LiveLatest {
    /// The one kept when the shell's own action began.
    case sealed
    /// The newest.
    case latest
}

/// The states a feed copies for one served store, typed.
///
/// NB: every access holds the feed's lock, but the session's reads of `own` once the shell's
/// action is over: the thread that delivers the shell's action (the session's, or the app's when
/// its store applies it on a thread of its own) appends to it under the lock, and the session
/// reads it after the lock it takes to end that. One thread at a time, what each cell asks.
@usableFromInline
final class LiveStates<State>: Sendable {
    // NB: a cell each, not one of a struct of the four: a cell's layout does not depend on the
    // state's type, so the feed's generic code reaches it without asking for the metadata of a
    // struct generic over the state on every action.
    @usableFromInline let queuedSlot = SingleThreadCell<[State]>([])
    @usableFromInline let latestSlot = SingleThreadCell<State?>(nil)
    @usableFromInline let sealedSlot = SingleThreadCell<State?>(nil)
    @usableFromInline let ownSlot = SingleThreadCell<[State]>([])
    @inlinable var queued: [State] {
        _read { yield queuedSlot.value }
        _modify { yield &queuedSlot.value }
    }
    @inlinable var latest: State? {
        _read { yield latestSlot.value }
        _modify { yield &latestSlot.value }
    }
    /// The latest state when the shell's own action began, while actions were being dropped.
    @inlinable var sealed: State? {
        _read { yield sealedSlot.value }
        _modify { yield &sealedSlot.value }
    }
    @inlinable var own: [State] {
        _read { yield ownSlot.value }
        _modify { yield &ownSlot.value }
    }

    @usableFromInline init() {}

    /// What copies `store`'s state into these slots.
    ///
    /// NB: inlinable, and made where the store is served (``LiveStore``), so that the copy an app
    /// pays per action is compiled for its state's type, not generic code that looks up metadata.
    @inlinable
    func capture(from store: Store<State>) -> (LiveSlot) -> Void where State: FluxCore.State {
        { [self] slot in
            switch slot {
            case .queued: queued.append(store.state)
            case .latest: latest = store.state
            case .own: own.append(store.state)
            }
        }
    }

    /// What copies the state of a store of another form, as its hook recorded it.
    @inlinable
    func capture<Action>(from hub: LiveHub<Action, State>) -> (LiveSlot) -> Void {
        { [self] slot in
            switch slot {
            case .queued: queued.append(hub.state)
            case .latest: latest = hub.state
            case .own: own.append(hub.state)
            }
        }
    }
}

/// Copies each action the app's dispatcher delivers into a bounded inbox, from a handler
/// registered after the app's stores (so it sees their states after the action). The app never
/// waits for the shell: a full inbox counts what it drops and keeps only the latest states.
///
/// NB: the handler's path (``receive(_:)``) is inlinable, and the feed is made where the store is
/// served (``LiveStore``): it is compiled for the app's tap and action type. Generic, it looked
/// up tuple and array metadata on every action.
@usableFromInline
final class LiveFeed<Tap: LiveTap>: LiveSource {
    @usableFromInline typealias Action = Tap.Action
    // NB: `inbox` is behind its lock; `registered` and `ownStart` are cells the session's thread
    // alone touches.
    @usableFromInline
    struct Inbox {
        @usableFromInline var queued: [Action] = []
        /// The sequence number of each queued action.
        @usableFromInline var sequences: [Int] = []
        /// Whether each queued action was dispatched while another was delivered (a follow-up).
        @usableFromInline var followUps: [Bool] = []
        /// How many actions were dropped, since the shell's own action began, if one did.
        @usableFromInline var dropped = 0
        /// Actions were dropped, or another shell set the stores, since: the session takes the
        /// latest states (and nothing is queued until it does).
        @usableFromInline var resyncs = false
        /// How many actions were dropped before the shell's own action began, and whether the
        /// session must take the states kept then.
        @usableFromInline var sealedDropped = 0
        @usableFromInline var sealedResyncs = false
        @usableFromInline var nextSequence = 0
        /// The session's thread while it dispatches its own action: what is delivered on it is
        /// the shell's action and its follow-ups, not the app's.
        @usableFromInline var ownThread: ThreadIdentity?
        /// The shell's action may be applied on another thread than the one that sent it (its
        /// store's own): there, what is delivered before it is the app's, and it is known by how
        /// it prints (`ownPrinted`); what comes after it until the send returns is the shell's.
        @usableFromInline var ownOnAnyThread = false
        @usableFromInline var ownPrinted: JSONValue?
        /// The thread the shell's action was applied on, once seen there: its follow-ups are
        /// what that thread delivers next, until the send returns; another's are the app's.
        @usableFromInline var ownSeenOn: ThreadIdentity?
        @usableFromInline var own: [Action] = []
        @usableFromInline var ownStart = 0
        /// The sequence number of the first action delivered once the shell's began.
        @usableFromInline var ownBegin = 0
        /// The first action delivered for the shell's is its own (no middleware stopped it).
        @usableFromInline var ownStartsWithAction = true
        /// A wake is on its way to the session and it has not taken the inbox since.
        @usableFromInline var wakePending = false
        /// What copies each served store's state; none once the feed stopped.
        @usableFromInline var captures: [(LiveSlot) -> Void] = []
        /// The served stores' runtimes; none once the feed stopped.
        var members: [any LiveMember] = []

        @usableFromInline init() {}
    }

    @usableFromInline let dispatcher: Tap
    @usableFromInline let capacity: Int
    @usableFromInline let inbox = LockedValue(Inbox())
    /// The app's actions in command syntax (a listed type's name and properties, an enum's case).
    @usableFromInline let announcing: AppValue<(Action) -> ActionInvocation>
    @usableFromInline struct Registered {
        var subscription: Tap.Registration?
        /// What the feed registers on the app's dispatcher: made in `init`, so that it is
        /// compiled where the feed is made (see above).
        var handler: Tap.Handler?
        @usableFromInline init() {}
    }
    @usableFromInline let registered = SingleThreadCell(Registered())
    private var subscription: Tap.Registration? {
        get { registered.value.subscription }
        set { registered.value.subscription = newValue }
    }
    private var handler: Tap.Handler? {
        get { registered.value.handler }
        set { registered.value.handler = newValue }
    }
    /// Tells the session that actions arrived in an empty inbox; called on the app's thread,
    /// without the lock.
    @usableFromInline let wake: @Sendable () -> Void

    @inlinable
    init(
        _ dispatcher: Tap, capacity: Int, announce: @escaping (Action) -> ActionInvocation,
        wake: @escaping @Sendable () -> Void
    ) {
        self.dispatcher = dispatcher
        self.announcing = AppValue(announce)
        self.capacity = max(1, capacity)
        self.wake = wake
        // NB: the handler holds the feed while it is registered; `stop()` unregisters it and lets
        // it go, which the session does when it detaches and in its deinit. (Holding it
        // unowned(unsafe) instead was slower, measured with a stalled shell: see "Attach" in
        // docs/performance.md.)
        setHandler(dispatcher.handler({ [self] action in self.receive(action) }, missed: { [self] in self.missed() }))
    }

    @usableFromInline
    func setHandler(_ handler: Tap.Handler) { registered.value.handler = handler }

    func start(_ members: [any LiveMember]) {
        inbox.withLock { inbox in
            inbox.members = members
            inbox.captures = members.map(\.capture)
        }
        // NB: between two deliveries, so that every store's first state is the one before the
        // first action the feed copies: none is missed, and none is counted twice.
        dispatcher.whileNoDelivery {
            if let handler { subscription = dispatcher.register(handler) }
            for member in members { member.attachHere() }
        }
    }

    func betweenDeliveries(_ body: () -> Void) { dispatcher.whileNoDelivery(body) }

    func stop() {
        handler = nil
        guard let subscription else { return }
        self.subscription = nil
        dispatcher.unregister(subscription)
        // NB: the runtimes hold the feed: letting them go breaks the cycle. What was queued goes
        // with them (its states were theirs).
        inbox.withLock { inbox in
            inbox.members = []
            inbox.captures = []
            inbox.queued = []
            inbox.sequences = []
            inbox.followUps = []
            inbox.dropped = 0
            inbox.sealedDropped = 0
            inbox.resyncs = false
            inbox.sealedResyncs = false
        }
    }

    /// On the delivering thread, for each action: the cost the app pays per attached shell.
    @inlinable
    func receive(_ action: Action) {
        let wakes = inbox.withLock { inbox -> Bool in
            let sequence = inbox.nextSequence
            inbox.nextSequence += 1
            if let ownThread = inbox.ownThread,
                ownThread == .current || (inbox.ownOnAnyThread && Self.isOwn(action, &inbox))
            {
                if inbox.own.isEmpty {
                    inbox.ownStart = sequence
                    inbox.ownStartsWithAction = !dispatcher.isDeliveringFollowUp
                }
                inbox.own.append(action)
                for capture in inbox.captures { capture(.own) }
                return false
            }
            // NB: once one action is dropped, every later one is, until the session takes them:
            // the state it is then sent is the newest, never one older than an action it saw.
            if inbox.queued.count < capacity, !inbox.resyncs, !inbox.sealedResyncs {
                inbox.queued.append(action)
                inbox.sequences.append(sequence)
                inbox.followUps.append(dispatcher.isDeliveringFollowUp)
                for index in inbox.captures.indices { inbox.captures[index](.queued) }
            } else {
                // NB: only counted: the session reads the newest states itself, between two
                // deliveries, when it takes them (see `take(before:exact:)`).
                inbox.dropped += 1
                inbox.resyncs = true
            }
            return Self.wakes(&inbox)
        }
        if wakes { wake() }
    }

    /// The shell's action never came back while it was sent (a middleware of the app's dropped
    /// it): what the app applied meanwhile, on any thread, is what it did instead, the shell's
    /// action's follow-ups (`=> ACTION` after the command's echo), not actions of its own.
    @usableFromInline
    static func takeReplacements(_ inbox: inout Inbox) {
        guard !inbox.resyncs, let first = inbox.sequences.firstIndex(where: { $0 >= inbox.ownBegin }) else { return }
        let count = inbox.queued.count - first
        inbox.own = Array(inbox.queued[first...])
        inbox.ownStart = inbox.sequences[first]
        inbox.ownStartsWithAction = false
        inbox.queued.removeLast(count)
        inbox.sequences.removeLast(count)
        inbox.followUps.removeLast(count)
        for member in inbox.members { member.takeQueuedAsOwn(count) }
    }

    /// Whether `action`, delivered on another thread while the shell's is sent, is the shell's
    /// or one of its follow-ups: the first that prints as the shell's action, and what the same
    /// thread delivers after it.
    @usableFromInline
    static func isOwn(_ action: Action, _ inbox: inout Inbox) -> Bool {
        let thread = ThreadIdentity.current
        if let seenOn = inbox.ownSeenOn { return seenOn == thread }
        guard ValueReader.read(action) == inbox.ownPrinted else { return false }
        inbox.ownSeenOn = thread
        return true
    }

    /// An action of the app's the tap cannot place in order: counted as dropped, and the session
    /// takes the newest states.
    @usableFromInline
    func missed() {
        let wakes = inbox.withLock { inbox -> Bool in
            inbox.dropped += 1
            inbox.resyncs = true
            return Self.wakes(&inbox)
        }
        if wakes { wake() }
    }

    /// Whether the session is to be woken: not when a wake is on its way already.
    @inlinable
    static func wakes(_ inbox: inout Inbox) -> Bool {
        guard !inbox.wakePending else { return false }
        inbox.wakePending = true
        return true
    }

    /// Keeps what was dropped so far apart, with the states now, for the step before the
    /// shell's own action. Called between two of the app's deliveries.
    private static func sealDrops(_ inbox: inout Inbox) {
        inbox.sealedDropped += inbox.dropped
        inbox.dropped = 0
        inbox.sealedResyncs = true
        inbox.resyncs = false
        for capture in inbox.captures { capture(.latest) }
        for member in inbox.members { member.sealLatest() }
    }

    func storesSetElsewhere() {
        let wakes = inbox.withLock { inbox -> Bool in
            inbox.resyncs = true
            return Self.wakes(&inbox)
        }
        if wakes { wake() }
    }

    func takeNothing() -> Bool { inbox.withLock { Self.takesNothing(before: .max, &$0) } }

    /// Whether `inbox` holds nothing to take before `limit`: no action queued before it, and no
    /// states to take again (after dropped actions, or stores set elsewhere). Then a take before
    /// `.max` is done with the wake on its way, as any take before `.max` is.
    private static func takesNothing(before limit: Int, _ inbox: inout Inbox) -> Bool {
        guard inbox.sequences.first.map({ $0 >= limit }) ?? true, !inbox.sealedResyncs,
            limit != .max || !inbox.resyncs
        else { return false }
        if limit == .max { inbox.wakePending = false }
        return true
    }

    func take(before limit: Int, exact: Bool) -> LiveBatch {
        var batch = LiveBatch()
        let (actions, followUps) = inbox.withLock { inbox -> ([Action], [Bool]) in
            // NB: what is taken before the shell's own action is usually nothing: then no array is
            // made and no member is called, which this generic code would otherwise do for every
            // attached line (the budget's `attached app` path counts it).
            if Self.takesNothing(before: limit, &inbox) { return ([], []) }
            let count = inbox.sequences.firstIndex { $0 >= limit } ?? inbox.sequences.count
            let actions = Array(inbox.queued.prefix(count))
            let followUps = Array(inbox.followUps.prefix(count))
            inbox.queued.removeFirst(count)
            inbox.sequences.removeFirst(count)
            inbox.followUps.removeFirst(count)
            // NB: before the shell's own action (`limit`), only what was dropped before it began.
            batch.dropped = inbox.sealedDropped
            var latest: LiveLatest? = inbox.sealedResyncs ? .sealed : nil
            inbox.sealedDropped = 0
            inbox.sealedResyncs = false
            if limit == .max, inbox.resyncs {
                if exact {
                    // NB: between two deliveries: the states now are those after the last action.
                    for capture in inbox.captures { capture(.latest) }
                    batch.dropped += inbox.dropped
                    latest = .latest
                    inbox.dropped = 0
                    inbox.resyncs = false
                } else {
                    batch.needsExact = true
                }
            }
            for member in inbox.members { member.takeQueued(count, latest: latest) }
            if limit == .max, !batch.needsExact { inbox.wakePending = false }
            batch.resyncs = latest != nil
            return (actions, followUps)
        }
        if !actions.isEmpty { batch.actions = zip(actions, followUps).map { (announcing.value($0), $1) } }
        return batch
    }

    /// Whether the first action delivered for the shell's last one was that action (as the
    /// app's middlewares let it through), not a follow-up of it that a middleware dispatched
    /// instead. Read on the session's thread, after ``dispatchOwn(_:absorb:)``.
    private(set) var ownStartsWithAction: Bool {
        get { ownStart.value }
        set { ownStart.value = newValue }
    }
    // NB: a cell of its own, of a type that is not generic: read on every line.
    private let ownStart = SingleThreadCell(true)

    /// Dispatches the shell's action on the app's dispatcher, from the session's thread. Returns
    /// the actions delivered for it (the action as the app's middlewares let it through, if they
    /// did, then its follow-ups), after `absorb` took the app's actions that came before it.
    func dispatchOwn(_ action: Action, absorb: (_ before: Int) -> Void) -> [Action] {
        // NB: begun between two deliveries, so that what was dropped before the shell's action is
        // sealed with the states right before it.
        dispatcher.sendOwn(action) { onAnyThread in
            let printed = onAnyThread ? ValueReader.read(action) : nil
            inbox.withLock { inbox in
                inbox.own.removeAll(keepingCapacity: true)
                inbox.ownThread = .current
                inbox.ownOnAnyThread = onAnyThread
                inbox.ownPrinted = printed
                inbox.ownSeenOn = nil
                inbox.ownBegin = inbox.nextSequence
                for member in inbox.members { member.beginOwn() }
                if inbox.resyncs { Self.sealDrops(&inbox) }
            }
        }
        let (own, start, end, startsWithAction) = inbox.withLock { inbox in
            if inbox.ownOnAnyThread {
                if inbox.own.isEmpty {
                    Self.takeReplacements(&inbox)
                } else if inbox.ownSeenOn == nil, ValueReader.read(inbox.own[0]) != inbox.ownPrinted {
                    // NB: applied on this thread, the first action is not the shell's: a middleware
                    // dispatched it first, or instead: each is a follow-up.
                    inbox.ownStartsWithAction = false
                }
            }
            inbox.ownThread = nil
            inbox.ownOnAnyThread = false
            inbox.ownPrinted = nil
            return (inbox.own, inbox.ownStart, inbox.nextSequence, inbox.ownStartsWithAction || inbox.own.isEmpty)
        }
        ownStartsWithAction = startsWithAction
        absorb(own.isEmpty ? end : start)
        return own
    }
}
