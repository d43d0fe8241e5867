import Foundation
import Synchronization

/// One effect an action started: the task it runs in, where its jobs run (it is their executor),
/// and what `effects` lists of it.
@usableFromInline
final class EffectRecord: TaskExecutor, @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `sleepers` is touched only with the environment's lock
    // held (see `EnvironmentCore`); every other mutable member only on the session's thread, by
    // the scheduler, which runs every job of the effect there. `enqueue` reads only lets.

    weak var scheduler: EffectScheduler?
    private let queue: EffectQueue
    // NB: the mutable members below are touched on the session's thread only (`sleepers` with
    // the environment's lock held): no run-time exclusivity checks, which cost an effect that
    // ends at once 415 instructions (callgrind).
    /// 1-based, in the order the session's effects started.
    let number: Int
    /// The line of the command that started it, when it was read from one.
    let line: Int?
    /// The action it ran after, in command syntax: written only when something names the effect.
    private let describeAction: @Sendable () -> String
    private(set) lazy var action = describeAction()
    @exclusivity(unchecked) var task: Task<Void, Never>?
    /// How many of its tasks sleep on the session's clock (the environment's lock held).
    @exclusivity(unchecked) var sleepers = 0
    @exclusivity(unchecked) var isCancelled = false
    /// Cancelled because it ran over the time limit: its jobs no longer run.
    @exclusivity(unchecked) var isAbandoned = false

    init(scheduler: EffectScheduler, number: Int, line: Int?, action: @escaping @Sendable () -> String) {
        self.scheduler = scheduler
        self.queue = scheduler.queue
        self.number = number
        self.line = line
        self.describeAction = action
    }

    @usableFromInline
    func enqueue(_ job: consuming ExecutorJob) {
        queue.push(.job(UnownedJob(job), self))
    }

    /// Reports what the effect threw (but `CancellationError`) with the command being run.
    @usableFromInline
    func reportThrown(_ error: any Error) {
        scheduler?.report(ShellError("\(name) threw an error: \(error)"), from: self)
    }

    /// `effect 2 (line 3: search query: a)`
    var name: String {
        guard let line else { return "effect \(number) (\(action))" }
        return "effect \(number) (line \(line): \(action))"
    }
}

/// The effects of a session's stores (see "Effects over time" in the reference): each runs in a
/// task whose jobs the session runs itself, on its own thread, one at a time, after every
/// command, until each has ended or sleeps on the session's clock. So a command's output is
/// complete when it returns, and the same in every run.
@usableFromInline
final class EffectScheduler: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: every mutable member is touched on the session's thread
    // only. What an effect's task may call from another thread (`deliver`, `report`) reads only
    // `queue`, which has a lock of its own, unless it runs on the session's thread.
    @usableFromInline let environment: ShellEnvironment
    let queue = EffectQueue()
    // NB: the session's thread alone touches these: no run-time exclusivity checks (see
    // `EffectRecord`).
    /// The effects started and not ended, in the order they started.
    @exclusivity(unchecked) private(set) var running: [EffectRecord] = []
    @exclusivity(unchecked) private var started = 0
    /// The line of the command being run, for the effects it starts.
    @exclusivity(unchecked) var line: Int?
    /// How long one command's effects may run without all of them ending or sleeping on the clock.
    var timeLimit: Duration = .seconds(5)
    /// What went wrong with effects during the command being run.
    @exclusivity(unchecked) var problems: [ShellError] = []

    init(environment: ShellEnvironment) {
        self.environment = environment
        environment.core.effects = queue
    }

    /// Whether an effect may have work to do: the common store, with none, checks only this.
    var isIdle: Bool { running.isEmpty && queue.isEmpty }

    /// Starts `body` as an effect that ran after `action`; it runs when the session next runs its
    /// effects.
    @usableFromInline
    func start(
        after action: @escaping @Sendable () -> String, running body: @escaping @Sendable (EffectRecord) async -> Void
    ) {
        started += 1
        let record = EffectRecord(scheduler: self, number: started, line: line, action: action)
        running.append(record)
        record.task = Task(executorPreference: record) {
            await body(record)
            record.scheduler?.end(record)
        }
    }

    /// Takes `record` off the running effects: at once on the session's thread, where its last
    /// job runs, else when the session next runs its effects.
    private func end(_ record: EffectRecord) {
        if queue.isDrainingOnCurrentThread {
            if running.last === record { running.removeLast() } else { running.removeAll { $0 === record } }
        } else {
            queue.push(.ended(record))
        }
    }

    /// Runs the effects' jobs until each effect has ended or sleeps on the clock; one that does
    /// neither within ``timeLimit`` (a busy loop, a wait on the world) is cancelled and reported.
    func run() {
        guard !isIdle else { return }
        let clock = ContinuousClock()
        let deadline = clock.now + timeLimit
        queue.beginDraining()
        defer { queue.endDraining() }
        var steps = 0
        while true {
            if let item = queue.pop() {
                perform(item)
                steps &+= 1
                if steps & 63 == 0, clock.now > deadline { return abandonBusyEffects() }
                continue
            }
            if running.allSatisfy({ environment.core.isAsleep($0) }) { return }
            guard queue.wait(until: deadline) else { return abandonBusyEffects() }
        }
    }

    private func perform(_ item: EffectQueue.Item) {
        switch item {
        case .job(let job, let record):
            // NB: a job of an effect given up on is never run again: it spun or waited on the world.
            guard !record.isAbandoned else { return }
            queue.runningEffect = record
            job.runSynchronously(on: record.asUnownedTaskExecutor())
            queue.runningEffect = nil
        case .delivery(let record, let returned, let describe, let perform):
            handle(from: record, returned: returned, describe: describe, perform: perform)
        case .ended(let record):
            running.removeAll { $0 === record }
        }
    }

    /// Dispatches an action an effect sent or returned: at once when the effect runs on the
    /// session's thread (as its jobs do), else when the session next runs its effects.
    func deliver(
        from record: EffectRecord, returned: Bool, describe: @escaping @Sendable () -> String,
        perform: @escaping @Sendable () -> Void
    ) {
        if queue.isDrainingOnCurrentThread {
            handle(from: record, returned: returned, describe: describe, perform: perform)
        } else {
            queue.push(.delivery(record, returned: returned, describe: describe, perform: perform))
        }
    }

    private func handle(
        from record: EffectRecord, returned: Bool, describe: () -> String, perform: () -> Void
    ) {
        guard record.isCancelled || record.isAbandoned else { return perform() }
        // NB: what a cancelled effect returns is its way of ending, not an error; what it sends is.
        guard !returned else { return }
        problems.append(
            ShellError(
                "\(record.name) sent '\(describe())' after it was cancelled: the action was dropped",
                hint: "check Task.isCancelled, or let the CancellationError its sleep throws end the effect"))
    }

    /// Reports an effect's error with the command being run, or the next one.
    func report(_ error: ShellError, from record: EffectRecord) {
        deliver(
            from: record, returned: true, describe: { "" },
            perform: { [weak self] in self?.problems.append(error) })
    }

    /// Cancels every running effect, and runs them until they end.
    func cancelAll() {
        for record in running where !record.isCancelled {
            record.isCancelled = true
            record.task?.cancel()
        }
        run()
    }

    /// Moves the clock by `duration` (to the earliest deadline when `nil`), running the effects
    /// that wake at each deadline on the way, in order.
    func advance(by duration: Duration?) {
        let core = environment.core
        let target = duration.map { core.elapsed + $0 } ?? core.nextDeadline ?? core.elapsed
        while let next = core.nextDeadline, next <= target {
            core.move(to: next)
            run()
        }
        core.move(to: target)
        run()
    }

    /// Gives up on the effects that neither ended nor sleep on the clock: cancelled, their jobs
    /// never run again, each reported.
    private func abandonBusyEffects() {
        let seconds = ShellClock.seconds(timeLimit)
        for record in running where !environment.core.isAsleep(record) {
            record.isAbandoned = true
            record.isCancelled = true
            record.task?.cancel()
            problems.append(
                ShellError(
                    "\(record.name) neither ended nor waited on the session's clock within \(seconds) s: it was cancelled",
                    hint:
                        "an effect that spins, or waits for the world (a real request, another thread), cannot be replayed; sleep on context.environment.clock"
                ))
        }
        running.removeAll { $0.isAbandoned }
    }

    /// Takes the problems of the command being run.
    func takeProblems() -> [ShellError]? {
        guard !problems.isEmpty else { return nil }
        defer { problems = [] }
        return problems
    }

    /// What `effects` lists: each running effect and what it waits for.
    var listing: [EffectListing.Entry] {
        let now = environment.core.elapsed
        return running.map { record in
            let deadline = environment.core.deadline(of: record)
            return EffectListing.Entry(
                number: record.number, line: record.line, action: record.action,
                waitsFor: deadline.map { ShellClock.seconds($0 - now) }, isCancelled: record.isCancelled)
        }
    }
}

/// What `effects` shows.
@_spi(Engine) public struct EffectListing: Sendable {
    public struct Entry: Sendable {
        /// 1-based, in the order the session's effects started.
        public var number: Int
        /// The line of the command that started it, when it was read from one.
        public var line: Int?
        /// The action it ran after, in command syntax.
        public var action: String
        /// How many seconds of the clock it waits for (as `advance` takes them), or `nil` when it
        /// waits for something else.
        public var waitsFor: String?
        public var isCancelled: Bool

        /// `effect 1 (line 3: search query: a): waits 0.3 s on the clock`
        public var text: String {
            let head = line.map { "effect \(number) (line \($0): \(action))" } ?? "effect \(number) (\(action))"
            let status =
                waitsFor.map { "waits \($0) s on the clock" + (isCancelled ? ", cancelled" : "") }
                ?? (isCancelled ? "cancelled, still ending" : "running")
            return head + ": " + status
        }
    }

    public var entries: [Entry]
    /// Set on a shell attached to an app: its effects run on the app's own clock.
    public var isAttached: Bool
}

/// The jobs and deliveries of a session's effects, in the order they came: pushed from any
/// thread, run by the session on its own.
final class EffectQueue: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: every mutable member is touched only with `condition` locked.
    enum Item {
        case job(UnownedJob, EffectRecord)
        case delivery(
            EffectRecord, returned: Bool, describe: @Sendable () -> String, perform: @Sendable () -> Void)
        case ended(EffectRecord)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var head = 0
    /// The session's thread while it runs the effects (``ThreadIdentity/word``), else 0.
    ///
    /// NB: an atomic, not under `condition`: asked on every job and every end of an effect, a
    /// lock each time cost an effect that ends at once 800 instructions (callgrind).
    private let drainer = Atomic<UInt>(0)
    /// The effect whose job the session runs now: what a sleep on the clock from the session's
    /// thread belongs to. Touched on that thread only.
    @exclusivity(unchecked) var runningEffect: EffectRecord?

    var isEmpty: Bool { condition.withLock { head == items.count } }

    func push(_ item: Item) {
        condition.withLock {
            items.append(item)
            condition.signal()
        }
    }

    func pop() -> Item? {
        condition.withLock {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return item
        }
    }

    /// Waits until an item is pushed; `false` when `deadline` passed first.
    func wait(until deadline: ContinuousClock.Instant) -> Bool {
        condition.withLock {
            while head == items.count {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return false }
                let (seconds, attoseconds) = left.components
                _ = condition.wait(
                    until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) * 1e-18))
            }
            return true
        }
    }

    func beginDraining() { drainer.store(ThreadIdentity.current.word, ordering: .releasing) }
    func endDraining() { drainer.store(0, ordering: .releasing) }

    /// Whether the calling thread is the session's, running the effects now.
    var isDrainingOnCurrentThread: Bool {
        drainer.load(ordering: .acquiring) == ThreadIdentity.current.word
    }

    /// The effect whose job the calling thread runs, when it is the session's.
    var effectOnCurrentThread: EffectRecord? { isDrainingOnCurrentThread ? runningEffect : nil }
}
