import FluxShellSystem
import Foundation

/// What a store object's own hook tells the shell: each action its library applied and the
/// state after it, from whatever thread the library runs it on. Given to the `observe:` closure
/// of a store object's `StoreDefinition`, once for each store `make` returns:
///
/// ```swift
/// StoreDefinition("cart", make: { CartStore(executor: .queue(.global())) }, state: { $0.snapshot },
///                 send: { store, action in store.dispatch(action) },
///                 observe: { store, feed in
///                     store.subscribe { action, snapshot in feed.record(action, state: snapshot) }
///                 })
/// ```
///
/// The shell then knows when the command's own action was applied (it comes back through the
/// hook), shows the actions the library applied because of it as `=> ACTION`, and those it
/// applied later, on its own, as `<= ACTION` (see "Stores that change on their own" in the
/// reference). Reporting costs the hook a lock and an append; it never waits for the shell.
public final class StoreFeed<Action, State>: Sendable {
    // NB: every mutable member is in a cell, touched only with `condition` locked. The app's
    // actions and states it holds are handed from the hook's thread to the session's, which alone
    // reads them once taken (see ``AppValue``).

    /// One report of the hook's.
    @usableFromInline
    struct Entry {
        /// The action applied; `nil` for ``changed()``.
        @usableFromInline var action: Action?
        @usableFromInline var state: State
        /// Reported on the session's thread while it sent an action: the library applied it
        /// then, before `send` returned.
        @usableFromInline var duringSend: Bool
    }

    private let condition = NSCondition()
    // NB: a cell each, not one of a struct generic over the store's types, whose metadata the
    // feed's generic code would ask for on every report.
    private let reports = SingleThreadCell<[Entry]>([])
    private let senderThread = SingleThreadCell<UInt>(0)
    private let retired = SingleThreadCell(false)
    private var entries: [Entry] {
        _read { yield reports.value }
        _modify { yield &reports.value }
    }
    /// The thread that sends the store an action now (``ThreadIdentity/word``), else 0.
    private var sender: UInt {
        get { senderThread.value }
        set { senderThread.value = newValue }
    }
    /// Reports are ignored: the store was replaced (made again for `undo`) or its session ended.
    private var isRetired: Bool {
        get { retired.value }
        set { retired.value = newValue }
    }
    /// Reads the store's state, for ``changed()``: the store is held weakly (its hook holds
    /// this feed).
    private let read: AppValue<() -> State?>
    /// Told after each report, on the hook's thread: an interactive shell prints what the store
    /// did at once, above the line being typed.
    private let signal: ChangeSignal

    /// How many reports wait for the session at most: beyond, the oldest are merged into one
    /// change without an action, so that a store that reports while nobody reads (a timer, a
    /// shell idle at its prompt) holds a bounded amount of memory.
    static var limit: Int { 65_536 }

    init(read: @escaping () -> State?, signal: ChangeSignal) {
        self.read = AppValue(read)
        self.signal = signal
    }

    /// Reports that the store's library applied `action`, which left the store in `state`: call
    /// it from the library's hook (a ReSwift middleware after `next`, a `Reduce` at the end of a
    /// TCA body, a subscriber), on any thread, for every action, whether it changed the state or
    /// not.
    public func record(_ action: Action, state: State) {
        append(Entry(action: action, state: state, duringSend: false))
    }

    /// Reports that the store changed where no action is known (an `onChange` observer): the
    /// state is read at once, on the calling thread.
    public func changed() {
        guard let state = read.value() else { return }
        append(Entry(action: nil, state: state, duringSend: false))
    }

    private func append(_ entry: Entry) {
        var entry = entry
        let thread = ThreadIdentity.current.word
        let isTaken = condition.withLock { () -> Bool in
            guard !isRetired else { return false }
            entry.duringSend = sender == thread
            if entries.count >= Self.limit {
                // NB: the newest state stands for every change merged; their actions are lost.
                entries.removeFirst(entries.count - Self.limit / 2)
                entries[0].action = nil
            }
            entries.append(entry)
            condition.broadcast()
            return true
        }
        if isTaken { signal.fire() }
    }

    /// Runs `send` with the calling thread marked as the sender: what the hook reports on it
    /// meanwhile was applied before `send` returned.
    @usableFromInline
    func sending(_ send: () -> Void) {
        let thread = ThreadIdentity.current.word
        condition.withLock { sender = thread }
        send()
        condition.withLock { sender = 0 }
    }

    /// The reports so far, taken out.
    @usableFromInline
    func take() -> [Entry] {
        condition.withLock {
            guard !entries.isEmpty else { return [] }
            defer { entries.removeAll() }
            return entries
        }
    }

    /// Waits until a report comes; `false` when `deadline` passed first.
    func wait(until deadline: ContinuousClock.Instant) -> Bool {
        condition.withLock {
            while entries.isEmpty {
                guard condition.wait(until: deadline) else { return false }
            }
            return true
        }
    }

    /// Ignores every later report, and drops those not taken.
    func retire() {
        condition.withLock {
            isRetired = true
            entries.removeAll()
        }
    }
}

/// Who is told that a loaded store changed on its own (its hook reported): set by an interactive
/// shell, which then prints the change above the line being typed; nobody otherwise.
package final class ChangeSignal: Sendable {
    private let handler = LockedValue<(@Sendable () -> Void)?>(nil)

    package init() {}

    /// Calls `handler` from now on, on the thread of each report; `nil` stops.
    package func set(_ handler: (@Sendable () -> Void)?) { self.handler.withLock { $0 = handler } }

    func fire() { handler.withLock { $0 }?() }
}
