import FluxShellSystem
import FluxShellValues
import Foundation
import Synchronization

/// The world a session's stores read, the same in every process and every run (see "Effects
/// over time" in the reference): `now` starts at 2026-01-01T00:00:00Z and moves only with
/// `advance`, `uuid()` counts up from `00000000-0000-0000-0000-000000000001`, `random` is a
/// generator seeded with 0 (in `explore`, with the run's seed), and `clock` is a `Clock` whose
/// time moves only with `advance`.
///
/// Copies share the session's generators, so `env.uuid()` works on a `let`:
///
/// ```swift
/// StoreDefinition("todos", make: { env in TodoStore(now: { env.now }, uuid: { env.uuid() }) }, …)
/// ```
public struct ShellEnvironment: Sendable {
    @usableFromInline package let core: EnvironmentCore

    init(core: EnvironmentCore) { self.core = core }

    /// An environment of its own, seeded with `seed`, at the start of time.
    public init(seed: UInt64 = 0) { self.init(core: EnvironmentCore(seed: seed)) }

    /// What `random` was seeded with.
    var seed: UInt64 { core.seed }

    /// When every session's time starts: 2026-01-01T00:00:00Z.
    public static let start = Date(timeIntervalSince1970: 1_767_225_600)

    /// The session's current date: ``start`` plus the time `advance` moved.
    public var now: Date {
        let elapsed = core.elapsed.components
        return Self.start.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
    }

    /// The next id: `00000000-0000-0000-0000-000000000001`, then `…0002`, in order.
    public func uuid() -> UUID {
        let count = core.nextUUIDCount()
        func byte(_ index: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: count >> (8 * (7 - index))) }
        return UUID(
            uuid: (0, 0, 0, 0, 0, 0, 0, 0, byte(0), byte(1), byte(2), byte(3), byte(4), byte(5), byte(6), byte(7)))
    }

    /// The session's random number generator: `Int.random(in: 1...6, using: &env.random)`.
    public var random: ShellRandom {
        get { ShellRandom(core: core) }
        // NB: a generator is a view of the session's: nothing to store back.
        nonmutating set {}
    }

    /// The session's clock: sleeping on it waits until `advance` moves it past the deadline.
    public var clock: ShellClock { ShellClock(core: core) }
}

/// The session's random number generator (``ShellEnvironment/random``): SplitMix64, seeded with
/// 0, or with the run's seed in `explore`. Every copy draws from the same sequence.
public struct ShellRandom: RandomNumberGenerator, Sendable {
    let core: EnvironmentCore

    public mutating func next() -> UInt64 { core.nextRandom() }
}

/// A clock whose time moves only when the session's `advance` moves it (TCA's `TestClock`, made
/// the session's): an effect that sleeps on it waits, listed by `effects`, until then.
public struct ShellClock: Clock, Sendable {
    /// A point in the session's time: how long after its start.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// The time since the session started.
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    let core: EnvironmentCore

    public var now: Instant { Instant(offset: core.elapsed) }
    public var minimumResolution: Duration { .zero }

    /// Waits until the session's time reaches `deadline`, or throws `CancellationError` when the
    /// task is cancelled (`cancel`, or an effect that ran over its time).
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let core = self.core
        let sleeper = Sleeper(deadline: deadline.offset, effect: core.effects?.effectOnCurrentThread)
        // NB: resumed by whichever of `move`, `cancel` and `cancelEverySleeper` takes it out of
        // the sleeper under the environment's lock first (or by `park` at once).
        try await withTaskCancellationHandler {
            try await Waiter<Void, any Error>.wait { waiter in core.park(sleeper, waiter) }
        } onCancel: {
            core.cancel(sleeper)
        }
    }
}

/// One task waiting on the session's clock.
final class Sleeper: Sendable {
    let deadline: Duration
    let effect: EffectRecord?
    private struct Status: ~Copyable {
        var waiter: Waiter<Void, any Error>?
        var isCancelled = false
        var order = 0
    }
    // NB: touched only with the environment's lock held (see `EnvironmentCore`).
    private let status = SingleThreadCell(Status())
    // NB: touched only by the thread that takes the waiter out (under the lock) and resumes it
    // once the lock is let go.
    private let taken = SingleThreadCell<Waiter<Void, any Error>?>(nil)
    var waiter: Waiter<Void, any Error>? {
        _read { yield status.value.waiter }
        _modify { yield &status.value.waiter }
    }
    /// The waiter taken out to be resumed, once the lock is let go: touched only by the thread
    /// that took it out.
    var woken: Waiter<Void, any Error>? {
        _read { yield taken.value }
        _modify { yield &taken.value }
    }
    var isCancelled: Bool {
        get { status.value.isCancelled }
        set { status.value.isCancelled = newValue }
    }
    /// The order it began to sleep in: sleepers with one deadline wake in that order.
    var order: Int {
        get { status.value.order }
        set { status.value.order = newValue }
    }

    init(deadline: Duration, effect: EffectRecord?) {
        self.deadline = deadline
        self.effect = effect
    }
}

/// What every copy of a session's ``ShellEnvironment`` shares: the time, the id and random
/// generators, and the tasks asleep on the clock.
@usableFromInline
package final class EnvironmentCore: Sendable {
    // NB: every mutable member is in `guarded`, touched only with `lock` held. Effects run on the
    // session's thread, but the app's own tasks may read the time or sleep on the clock from any
    // thread.
    private let lock = NSLock()
    private struct Guarded {
        var time: Duration = .zero
        var uuids: UInt64 = 0
        var generator: SeededRandom
        /// Sorted by deadline, then by the order they began to sleep.
        var sleepers: [Sleeper] = []
        var sleeps = 0
        var effectQueue: EffectQueue?
        var journal = [Recorded?](repeating: nil, count: EnvironmentCore.journalLength)
        var replayedTime: Duration?
    }
    private let guarded: SingleThreadCell<Guarded>
    private var time: Duration {
        get { guarded.value.time }
        set { guarded.value.time = newValue }
    }
    private var uuids: UInt64 {
        get { guarded.value.uuids }
        set { guarded.value.uuids = newValue }
    }
    private var generator: SeededRandom {
        _read { yield guarded.value.generator }
        _modify { yield &guarded.value.generator }
    }
    private var sleepers: [Sleeper] {
        _read { yield guarded.value.sleepers }
        _modify { yield &guarded.value.sleepers }
    }
    private var sleeps: Int {
        get { guarded.value.sleeps }
        set { guarded.value.sleeps = newValue }
    }

    /// What the random generator was seeded with.
    let seed: UInt64
    /// The session's effects, whose running one a sleep from the session's thread belongs to.
    ///
    /// NB: strong: cleared when the session ends its effects (``EffectScheduler/shutDown()``).
    /// Under the lock: a sleep may come from any thread.
    var effects: EffectQueue? {
        get { lock.withLock { effectQueue } }
        set { lock.withLock { effectQueue = newValue } }
    }
    private var effectQueue: EffectQueue? {
        get { guarded.value.effectQueue }
        set { guarded.value.effectQueue = newValue }
    }

    init(seed: UInt64) {
        self.seed = seed
        guarded = SingleThreadCell(Guarded(generator: SeededRandom(seed: seed)))
    }

    /// How many times the time, an id or a random number was read, but for the reads of a
    /// replay given the draws its action had (``replaying(_:_:)``): a replay that reads any
    /// other gives its steps values they did not have (see "Editing the past" in the reference).
    ///
    /// NB: an atomic, written under `lock`: a store reads it before and after each action it
    /// applies, to learn whether the action drew, without taking the lock.
    private let readCount = Atomic<UInt64>(0)
    @usableFromInline var reads: UInt64 { readCount.load(ordering: .relaxed) }

    /// What the generators and the time were before each of the last reads, for the store whose
    /// reducer read them to keep with its action (``recorded(beforeRead:)``).
    private var journal: [Recorded?] {
        _read { yield guarded.value.journal }
        _modify { yield &guarded.value.journal }
    }
    fileprivate static let journalLength = 64
    /// Set while an action is replayed with the draws it had: the time it read then.
    private var replayedTime: Duration? {
        get { guarded.value.replayedTime }
        set { guarded.value.replayedTime = newValue }
    }

    /// Counts a read, and keeps what came before it. Called with `lock` held.
    private func noteRead() {
        guard replayedTime == nil else { return }
        let count = readCount.load(ordering: .relaxed)
        journal[Int(count % UInt64(Self.journalLength))] = Recorded(
            read: count &+ 1, draws: Draws(uuids: uuids, generator: generator), time: time)
        readCount.store(count &+ 1, ordering: .relaxed)
    }

    var elapsed: Duration {
        lock.withLock {
            noteRead()
            return replayedTime ?? time
        }
    }

    func nextUUIDCount() -> UInt64 {
        lock.withLock {
            noteRead()
            uuids &+= 1
            return uuids
        }
    }

    func nextRandom() -> UInt64 {
        lock.withLock {
            noteRead()
            return generator.next()
        }
    }

    /// What an action's reducer drew from: the generators and the time before its first read.
    /// Replayed with ``replaying(_:_:)``, the action reads the same ids, numbers and time again.
    @usableFromInline
    package struct Recorded {
        /// The number of the read it came before (counted from 1).
        fileprivate var read: UInt64
        fileprivate var draws: Draws
        fileprivate var time: Duration
    }

    /// The generators and the time before read number `read` (``reads`` + 1 before an action
    /// that then read), while it is among the last reads kept; `nil` once it is not.
    @usableFromInline func recorded(beforeRead read: UInt64) -> Recorded? {
        lock.withLock {
            guard let recorded = journal[Int((read &- 1) % UInt64(Self.journalLength))], recorded.read == read
            else { return nil }
            return recorded
        }
    }

    /// Runs `body`, which applies again an action that drew from `recorded`: it reads the ids,
    /// random numbers and time it read then, and they are not counted in ``reads``. Nothing of
    /// it shows in the session after.
    func replaying<R, E: Error>(_ recorded: Recorded, _ body: () throws(E) -> R) throws(E) -> R {
        let (drawn, before) = lock.withLock { (Draws(uuids: uuids, generator: generator), replayedTime) }
        lock.withLock {
            uuids = recorded.draws.uuids
            generator = recorded.draws.generator
            replayedTime = recorded.time
        }
        defer {
            lock.withLock {
                uuids = drawn.uuids
                generator = drawn.generator
                replayedTime = before
            }
        }
        return try body()
    }

    /// Starts the random numbers again from `seed`.
    func reseed(_ seed: UInt64) { lock.withLock { generator = SeededRandom(seed: seed) } }

    /// Runs `body`, which applies again actions the session took already (the history checking
    /// its states, or making one again): the ids and random numbers it draws are drawn again by
    /// the next action, so that a replay, however often it runs, never shows in the session.
    func replaying<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        let drawn = draws
        defer { draws = drawn }
        return try body()
    }

    /// Where the ids and random numbers are: set back, the next ones drawn are these again.
    struct Draws {
        fileprivate var uuids: UInt64
        fileprivate var generator: SeededRandom
    }

    var draws: Draws {
        get { lock.withLock { Draws(uuids: uuids, generator: generator) } }
        set {
            lock.withLock {
                uuids = newValue.uuids
                generator = newValue.generator
            }
        }
    }

    /// Parks `sleeper` until the time reaches its deadline; at once when it is there already or
    /// the sleep was cancelled before it parked.
    func park(_ sleeper: Sleeper, _ waiter: consuming Waiter<Void, any Error>) {
        // NB: every waiter is resumed after `lock` is let go: a task's cancellation handler
        // (`cancel`) takes this lock while the runtime may hold the task's own, and resuming a
        // task takes that one (to read its executor preference).
        lock.lock()
        // NB: `effect` is set on the session's thread only, where its members are read.
        if sleeper.effect?.endsSleeps == true { sleeper.isCancelled = true }
        if sleeper.isCancelled || sleeper.deadline <= time {
            let isCancelled = sleeper.isCancelled
            lock.unlock()
            return isCancelled ? waiter.resume(throwing: CancellationError()) : waiter.resume()
        }
        sleeps += 1
        sleeper.order = sleeps
        sleeper.waiter = consume waiter
        let index = sleepers.firstIndex { $0.deadline > sleeper.deadline } ?? sleepers.endIndex
        sleepers.insert(sleeper, at: index)
        sleeper.effect?.sleepers += 1
        lock.unlock()
    }

    /// Wakes `sleeper` with `CancellationError`, or marks it so that it does not park.
    func cancel(_ sleeper: Sleeper) {
        lock.lock()
        sleeper.isCancelled = true
        guard let waiter = sleeper.waiter.take() else { return lock.unlock() }
        sleepers.removeAll { $0 === sleeper }
        sleeper.effect?.sleepers -= 1
        lock.unlock()
        waiter.resume(throwing: CancellationError())
    }

    /// Wakes every sleeper with `CancellationError` (a session that goes), or those of `effect`.
    func cancelEverySleeper(of effect: EffectRecord? = nil) {
        let woken = lock.withLock {
            let woken = effect.map { effect in sleepers.filter { $0.effect === effect } } ?? sleepers
            defer {
                if effect == nil { sleepers.removeAll() } else { sleepers.removeAll { $0.effect === effect } }
            }
            for sleeper in woken {
                sleeper.isCancelled = true
                sleeper.effect?.sleepers -= 1
                sleeper.woken = sleeper.waiter.take()
            }
            return woken
        }
        for sleeper in woken { sleeper.woken.take()?.resume(throwing: CancellationError()) }
    }

    /// The earliest deadline of a task asleep on the clock, if any.
    package var nextDeadline: Duration? { lock.withLock { sleepers.first?.deadline } }

    /// Moves the time to `deadline` (never back) and wakes every sleeper due by then, in order.
    func move(to deadline: Duration) {
        let woken = lock.withLock {
            if deadline > time { time = deadline }
            let count = sleepers.firstIndex { $0.deadline > time } ?? sleepers.endIndex
            let woken = sleepers[..<count]
            sleepers.removeFirst(count)
            for sleeper in woken {
                sleeper.effect?.sleepers -= 1
                sleeper.woken = sleeper.waiter.take()
            }
            return woken
        }
        for sleeper in woken { sleeper.woken.take()?.resume() }
    }

    /// Whether a task of `effect` sleeps on the clock.
    func isAsleep(_ effect: EffectRecord) -> Bool { lock.withLock { effect.sleepers > 0 } }

    /// The earliest deadline among `effect`'s sleepers.
    func deadline(of effect: EffectRecord) -> Duration? {
        lock.withLock { sleepers.first { $0.effect === effect }?.deadline }
    }
}
