import FluxShellLanguage
import FluxShellSystem
import FluxShellValues

/// A state the store's hook reported with an action, delivered to its runtime as the follow-up's
/// payload: the library applied the action already, so the runtime only takes its state.
@usableFromInline
final class ReportedState<State>: ReportedAction {
    /// Made and taken on the session's thread (see ``AppValue``).
    ///
    /// NB: nonisolated(unsafe), as ``TypedActionBox``'s action is.
    @usableFromInline nonisolated(unsafe) let state: State

    init(_ state: State) { self.state = state }
}

/// An action a store's hook reported, delivered to its runtime: its library applied it, so no
/// other store is given it (see `Session.dispatchFollowUp`).
@usableFromInline
protocol ReportedAction: TypedAction {}

/// A store object given `observe:`: what its own hook reports (see ``StoreFeed``) is what the
/// shell shows ("Stores that change on their own" in the reference).
extension StoreObjectRuntime {
    /// The feed of a store just made, once the app's `observe:` hooked it; `nil` without one.
    static func observe(_ object: Object, _ form: StoreObjectForm<Object, State, Action>, signal: ChangeSignal)
        -> StoreFeed<Action, State>?
    {
        guard let observe = form.observe else { return nil }
        let state = form.state
        let feed = StoreFeed<Action, State>(read: { [weak object] in object.map(state) }, signal: signal)
        observe(object, feed)
        return feed
    }

    /// Sends the command's own action, and takes what the hook reports until the action came
    /// back through it: the command is complete then. What the library applied before it and
    /// with it are the command's follow-ups (`=> ACTION`), in the order the hook saw them.
    ///
    /// NB: inlinable, compiled for the store's types where it is registered, for the common case
    /// (the action applied at once, reported alone): as generic code, looking up the metadata of
    /// the reports on every line was most of what `observe:` cost (docs/performance.md).
    @inlinable
    func applyObserved(_ action: Action, _ feed: StoreFeed<Action, State>, sending send: (Object, Action) -> Void) {
        feed.sending { send(object, action) }
        MainQueue.runReady()
        pending.append(action)
        let reports = feed.take()
        if reports.count == 1, reports[0].duringSend, let reported = reports[0].action,
            ValueDiffer.sameBits(reported, action)
        {
            appliesAtOnce = true
            return trace.add(advance(to: reports[0].state), of: alias)
        }
        takeOwn(action, feed, taken: reports)
    }

    /// What the hook reported after the command's own `action` was sent (`taken` so far), made
    /// the command's steps: its own, then its follow-ups, and an error when the action did not
    /// come back.
    @usableFromInline
    func takeOwn(_ action: Action, _ feed: StoreFeed<Action, State>, taken: [StoreFeed<Action, State>.Entry] = []) {
        let (reports, own, problem) = awaitOwn(action, feed, waiting: !appliesAtOnce, taken: taken)
        if let own { appliesAtOnce = reports[own].duringSend }
        if let problem { effects.problems.append(problem) }
        var followUps: [(action: Action, state: State)] = []
        for (index, report) in reports.enumerated() {
            // NB: the command's own step is what its action did, when the library applied it first.
            if index == 0, own == 0 {
                trace.add(advance(to: report.state), of: alias)
            } else if let reported = report.action {
                followUps.append((reported, report.state))
            } else if followUps.isEmpty {
                trace.add(advance(to: report.state), of: alias)
            } else {
                // NB: a change with no action is part of the step before it.
                followUps[followUps.count - 1].state = report.state
            }
        }
        guard let onFollowUp else {
            if let last = reports.last { trace.add(advance(to: last.state), of: alias) }
            return
        }
        for followUp in followUps {
            onFollowUp(
                actionCases.announcement(of: followUp.action), ReportedState(followUp.state), ObjectIdentifier(self))
        }
    }

    /// What the hook reports after `action` was sent, until it reports `action` itself (`own`,
    /// its index), or a change with no action when the hook reports no actions. Without it, the
    /// command ends when a store that applies actions at once applied others instead or nothing;
    /// for another store, once the session's time limit for effects passed, with an error.
    ///
    /// - Parameter waiting: whether to wait for a report when none came while the action was
    ///   sent (a store that applies its actions at once and reported nothing dropped it).
    func awaitOwn(
        _ action: Action, _ feed: StoreFeed<Action, State>, waiting: Bool, taken: [StoreFeed<Action, State>.Entry] = []
    ) -> (reports: [StoreFeed<Action, State>.Entry], own: Int?, problem: ShellError?) {
        var reports: [StoreFeed<Action, State>.Entry] = []
        let deadline = ContinuousClock.now + effects.timeLimit
        var sawAction = false
        var next = taken
        while true {
            var own: Int?
            for report in next {
                if own == nil {
                    if let reported = report.action {
                        if isSame(reported, action) { own = reports.count }
                        sawAction = true
                    } else if !sawAction {
                        own = reports.count
                    }
                }
                reports.append(report)
            }
            next = []
            if let own { return (settled(reports, feed, until: deadline), own, nil) }
            // NB: a store that applies actions at once applied others instead of this one (a
            // middleware replaced it), or nothing (one dropped it): the command is complete, and
            // what was applied instead are its follow-ups, as a FluxCore middleware's are.
            if reports.contains(where: \.duringSend) || (!waiting && reports.isEmpty) { return (reports, nil, nil) }
            guard feed.wait(until: deadline) else {
                next = feed.take()
                if !next.isEmpty { continue }
                let seconds = Seconds.text(effects.timeLimit)
                return (
                    reports, nil,
                    ShellError(
                        "store '\(alias)': its observe: hook did not report '\(actionCases.announcement(of: action))' within \(seconds) s",
                        hint:
                            "the hook must call feed.record(action, state:) for every action the store applies, changed or not"
                    )
                )
            }
            next = feed.take()
        }
    }

    /// `reports`, and what the hook reports next as long as each report follows the one before
    /// within ``settling``: a library that applies actions later applies what it dispatches
    /// because of one (a subscriber's action, a middleware's after `next`) right after it, and
    /// those are the command's follow-ups, not steps of their own. A store that applied the
    /// command's action at once is not waited for.
    private func settled(
        _ reports: [StoreFeed<Action, State>.Entry], _ feed: StoreFeed<Action, State>,
        until deadline: ContinuousClock.Instant
    ) -> [StoreFeed<Action, State>.Entry] {
        var reports = reports
        guard reports.last?.duringSend == false else { return reports }
        while feed.wait(until: min(ContinuousClock.now + Self.settling, deadline)) { reports += feed.take() }
        return reports
    }

    /// How long after a report of a store that applies actions later the next one still belongs
    /// to the same command.
    static var settling: Duration { .milliseconds(2) }

    /// Whether the hook's `reported` action is `sent`: the same bits (the value the shell sent,
    /// handed back: its strings and boxes the same), else, for a value that holds references,
    /// the same command syntax (a library that rebuilt it).
    ///
    /// NB: the bits first: writing the command syntax of both on every line was most of what
    /// `observe:` cost (docs/performance.md).
    func isSame(_ reported: Action, _ sent: Action) -> Bool {
        // NB: bits that differ may still be the same value: a library that rebuilt it, an enum's
        // payload bytes that its case leaves unused.
        ValueDiffer.sameBits(reported, sent)
            || actionCases.announcement(of: reported) == actionCases.announcement(of: sent)
    }

    /// The hook's reports since the last command, each a step of its own: `<= ACTION`, or `<=
    /// (the store changed by itself)` for a change without an action.
    ///
    /// NB: such an action is not sent again to a store made again for `undo`: the library made
    /// it (a timer's tick, a subscriber's reaction), and a new store sent what caused it makes it
    /// again on its own. So a step after it is made again by `restore:` only.
    func takeReports(of feed: StoreFeed<Action, State>, _ record: (ChangeOnItsOwn) -> Void) {
        for report in feed.take() {
            let entries = advance(to: report.state)
            guard let action = report.action else {
                guard !entries.isEmpty else { continue }
                changedOnItsOwnSinceStep = true
                record(ChangeOnItsOwn(action: nil, entries: entries))
                continue
            }
            changedOnItsOwnSinceStep = true
            // NB: an async send's own action, reported while it slept on the clock: its command
            // took it already, so its return waits for nothing more.
            if let index = awaited.firstIndex(where: { isSame($0, action) }) { awaited.remove(at: index) }
            record(ChangeOnItsOwn(action: actionCases.announcement(of: action), entries: entries))
        }
    }
}
