import FluxCore

/// The running app's stores of an attached session, and the feed of their dispatcher.
final class LiveLink {
    let feed: any LiveSource
    let runtimes: [any LiveRuntime]
    /// The app's steps recorded and not yet printed.
    var pending: [AppStep] = []

    init(feed: any LiveSource, runtimes: [any LiveRuntime]) {
        self.feed = feed
        self.runtimes = runtimes
    }
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
    ///   - historyLimit: how many steps `undo` can go back.
    ///   - wake: called on the app's thread when its actions arrive and the session has taken
    ///     all the earlier ones: the session's owner then calls ``takeAppSteps()`` on its own
    ///     thread.
    public convenience init(
        attachingTo stores: [LiveStore], programName: String = "fluxsh", queueLimit: Int = 4_096,
        historyLimit: Int = 1_000, wake: @escaping @Sendable () -> Void
    ) throws(ShellError) {
        try LiveStore.check(stores)
        var catalog = StoreCatalog(stores.map(\.definition))
        catalog.programName = programName
        self.init(catalog: catalog, historyLimit: historyLimit)
        // NB: what `LiveStore` makes, for these protocols, which it cannot name (see there).
        let feed = stores[0].makeFeed(queueLimit, wake) as! any LiveSource
        let context = LiveContext(
            feed: feed, dispatcher: dispatcher, trace: trace, historyEntries: 0,
            absorbAppActions: { [unowned self] limit in self.absorbAppActions(before: limit) })
        var runtimes: [any LiveRuntime] = []
        for store in stores {
            let runtime = store.makeRuntime(context) as! any LiveRuntime
            runtimes.append(runtime)
            add(runtime, store.definition)
        }
        runtimes[0].dispatchesOwnActions = true
        activeIndex = 0
        live = LiveLink(feed: feed, runtimes: runtimes)
        feed.start(runtimes)
    }

    /// Whether the session is attached to a running app.
    public var isAttached: Bool { live != nil }

    /// The app's actions since the last call, each recorded as a step (`history`, `undo`, `why`
    /// and `save` see them), for the caller to print before the next command's output.
    public func takeAppSteps() -> [AppStep] {
        guard let live else { return [] }
        absorbAppActions(before: .max)
        let steps = live.pending
        live.pending.removeAll()
        return steps
    }

    /// Stops following the app: its dispatcher forgets this session.
    public func detach() { live?.feed.stop() }

    /// Records the app's actions that arrived before sequence number `limit` as steps.
    func absorbAppActions(before limit: Int) {
        guard let live else { return }
        let (actions, dropped) = live.feed.take(before: limit)
        guard !actions.isEmpty || dropped > 0 else { return }
        let loaded = stores
        func step(_ change: (any LiveRuntime) -> [DiffEntry]) -> CommandDiff {
            var entries: [DiffEntry] = []
            for (store, runtime) in zip(loaded, live.runtimes) {
                entries += AliasPrefix.entries(change(runtime), of: store.alias, amongStores: loaded.count)
            }
            return CommandDiff(ownStep: .init(followUp: nil, entries: entries), isUnchanged: entries.isEmpty)
        }
        for (index, action) in actions.enumerated() {
            let diff = step { $0.step(toTaken: index) }
            timeline.record(action, followUps: [], diff: diff, in: loaded)
            live.pending.append(.action(action, diff))
        }
        if dropped > 0 {
            _ = step { $0.stepToLatestTaken() }
            timeline.recordUnseenSteps("(\(dropped) change\(dropped == 1 ? "" : "s") dropped)", in: loaded)
            live.pending.append(.dropped(count: dropped, states: states()))
        }
        for runtime in live.runtimes { runtime.forgetTaken() }
    }
}
