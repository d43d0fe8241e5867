import FluxCore
import FluxShellJSON
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// The running app's stores of an attached session, and the feed of their dispatcher.
final class LiveLink: AttachedApp {
    let feed: any LiveSource
    let runtimes: [any LiveRuntime]
    /// The app's steps recorded and not yet printed.
    var pending: [AppStep] = []
    /// How many of the app's actions this session never saw (its shell read too slowly).
    var droppedActions = 0
    /// Another shell set the app's stores (`undo`, `redo`, `reset`) while this one was attached.
    var setElsewhere = false
    /// The feeds of the other sessions on the same app, told when this one sets its stores.
    let peers: LivePeers

    init(feed: any LiveSource, runtimes: [any LiveRuntime], peers: LivePeers) {
        self.feed = feed
        self.runtimes = runtimes
        self.peers = peers
    }

    var attachedStates: [String: JSONValue] {
        var states: [String: JSONValue] = [:]
        for runtime in runtimes { states[runtime.alias] = runtime.attachedJSON }
        return states
    }

    func settingStores(of session: Session, _ body: () -> Bool) {
        feed.betweenDeliveries {
            session.absorbAppActions(before: .max)
            if body() { peers.storesSet(by: feed) }
        }
    }

    func stop() { feed.stop() }
}

extension Session {
    /// A session attached to a running app: its stores are the app's, its actions go to the
    /// app's dispatcher, and the actions the app dispatches by itself become steps of their own
    /// (``takeAppSteps()``).
    ///
    /// - Parameters:
    ///   - stores: the app's stores, sharing one dispatcher; the first is active.
    ///   - programName: the shell's name in what it prints.
    ///   - queueLimit: how many of the app's actions wait for the session at most; the app drops
    ///     the rest (the session then says how many, and takes the latest state).
    ///   - historyLimit: how many steps `undo` can go back. Each step keeps the app's states after
    ///     it (their collections shared with the app's as long as neither changes them), in the
    ///     app's memory: fewer than a shell of its own keeps.
    ///   - wake: called on the app's thread when its actions arrive and the session has taken
    ///     all the earlier ones: the session's owner then calls ``takeAppSteps()`` on its own
    ///     thread.
    public convenience init(
        attachingTo stores: [LiveStore], programName: String = "fluxsh", queueLimit: Int = 4_096,
        historyLimit: Int = 200, wake: @escaping @Sendable () -> Void
    ) throws(ShellError) {
        try LiveStore.check(stores)
        var catalog = StoreCatalog(stores.map(\.definition))
        catalog.programName = programName
        self.init(catalog: catalog, historyLimit: historyLimit)
        // NB: what `save` can write, kept in the app's memory too.
        transcriptLimit = 10_000
        // NB: what `LiveStore` makes, for these protocols, which it cannot name (see there).
        let feed = stores[0].makeFeed(queueLimit, wake) as! any LiveSource
        let context = LiveContext(
            feed: feed, dispatcher: dispatcher, trace: trace,
            absorbAppActions: { [unowned self] limit in self.absorbAppActions(before: limit) })
        var runtimes: [any LiveRuntime] = []
        for store in stores {
            let runtime = store.makeRuntime(context) as! any LiveRuntime
            runtimes.append(runtime)
            add(runtime, store.definition)
        }
        runtimes[0].dispatchesOwnActions = true
        activeIndex = 0
        let peers = stores[0].peers
        live = LiveLink(feed: feed, runtimes: runtimes, peers: peers)
        feed.start(runtimes)
        peers.add(feed)
    }

    /// The link to the app, when attached: the session holds it as an ``AttachedApp``, and only
    /// this module makes one.
    var link: LiveLink? { live as? LiveLink }

    /// The app's actions since the last call, each recorded as a step (`history`, `undo`, `why`
    /// and `save` see them), for the caller to print before the next command's output.
    package func takeAppSteps() -> [AppStep] {
        guard let live = link else { return [] }
        // NB: between two of the app's deliveries, so that an action is taken with all of its
        // follow-ups: each shell's session runs on a thread of its own, and another shell's
        // dispatch (or the app's) may be under way. Only the taking waits; the diffs do not.
        // When nothing arrived, nothing waits for the app's dispatcher: this runs before and
        // after each line a shell sends, and an action whose delivery is under way then is taken
        // with the next: before the shell's own action, if the line dispatches one (see
        // `absorbAppActions`); after it, if the line only reads (`state`, `expect`), which sees
        // the states from before that action, as the steps it was shown say.
        if !live.feed.takeNothing() {
            var batch = LiveBatch()
            live.feed.betweenDeliveries { batch = live.feed.take(before: .max, exact: true) }
            record(batch, live)
        }
        let steps = live.pending
        live.pending.removeAll()
        return steps
    }

    /// Stops following the app: its dispatcher forgets this session.
    public func detach() {
        // NB: the shell that took the saves is gone.
        handsSavedScenario = nil
        guard let live = link else { return }
        live.peers.remove(live.feed)
        live.feed.stop()
    }

    /// Records the app's actions that arrived before sequence number `limit` as steps.
    func absorbAppActions(before limit: Int) {
        guard let live = link else { return }
        let batch = live.feed.take(before: limit, exact: false)
        record(batch, live)
        // NB: the newest states after dropped actions are read between two deliveries (this
        // waits for the one under way, if any).
        if batch.needsExact {
            live.feed.betweenDeliveries { record(live.feed.take(before: .max, exact: true), live) }
        }
    }

    private func record(_ batch: LiveBatch, _ live: LiveLink) {
        let actions = batch.actions
        guard !actions.isEmpty || batch.resyncs else { return }
        let loaded = stores
        func entries(_ change: (any LiveRuntime) -> [DiffEntry]) -> [DiffEntry] {
            var entries: [DiffEntry] = []
            for (store, runtime) in zip(loaded, live.runtimes) {
                entries += AliasPrefix.entries(change(runtime), of: store.alias, amongStores: loaded.count)
            }
            return entries
        }
        // NB: the actions an action's delivery led to (the app's middlewares dispatched them) are
        // its follow-ups, as a dispatch's are: `=> ACTION` lines of its step.
        var index = 0
        while index < actions.count {
            let (action, _) = actions[index]
            let own = CommandDiff.Step(followUp: nil, entries: entries { $0.step(toTaken: index) })
            index += 1
            var followUps: [CommandDiff.Step] = []
            while index < actions.count, actions[index].isFollowUp {
                let followUp = actions[index].0
                followUps.append(CommandDiff.Step(followUp: followUp, entries: entries { $0.step(toTaken: index) }))
                index += 1
            }
            let diff = CommandDiff(
                ownStep: own, followUpSteps: followUps,
                isUnchanged: own.entries.isEmpty && followUps.allSatisfy { $0.entries.isEmpty })
            timeline.record(
                action, followUps: followUps.compactMap(\.followUp), diff: diff, in: loaded, isTheApps: true)
            live.pending.append(.action(action, diff, step: history.newestNumber))
        }
        if batch.resyncs {
            let dropped = batch.dropped
            live.droppedActions += dropped
            if dropped == 0 { live.setElsewhere = true }
            _ = entries { $0.stepToLatestTaken() }
            timeline.recordUnseenSteps(AppStep.resyncNote(dropped: dropped), in: loaded)
            live.pending.append(.dropped(count: dropped, states: states()))
        }
        for runtime in live.runtimes { runtime.forgetTaken() }
    }
}

/// The sessions attached to one app (through the same ``LiveStore``s): when one sets the app's
/// stores (`undo`), the others take their states again.
@usableFromInline
final class LivePeers: Sendable {
    private let feeds = LockedValue<[ObjectIdentifier: Weak]>([:])

    private struct Weak: Sendable {
        weak var feed: (any LiveSource)?
    }

    @usableFromInline init() {}

    func add(_ feed: any LiveSource) { feeds.withLock { $0[ObjectIdentifier(feed)] = Weak(feed: feed) } }

    func remove(_ feed: any LiveSource) { feeds.withLock { $0[ObjectIdentifier(feed)] = nil } }

    /// Tells every session but the one of `feed` that the stores were set.
    func storesSet(by feed: any LiveSource) {
        let others = feeds.withLock { feeds in
            feeds.filter { $0.key != ObjectIdentifier(feed) }.compactMap(\.value.feed)
        }
        for other in others { other.storesSetElsewhere() }
    }
}
