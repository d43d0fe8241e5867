import FluxShellJSON
import FluxShellLanguage
import FluxShellSystem
import FluxShellValues
import Foundation
import Synchronization

/// One effect an action started: the worker that runs it, and what `effects` lists of it. A
/// store's runtime makes it as an ``EffectOf``, which holds the effect, its action and its state.
@usableFromInline
class EffectRecord: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `sleepers` is touched only with the environment's lock
    // held (see `EnvironmentCore`); every other mutable member only on the session's thread, by
    // the scheduler, which runs every job of the effect there. Unchecked because it is a base
    // class (each kind of effect is a subclass, in the same object) whose members stay plain
    // stored properties, as the note below says.

    /// NB: a strong reference: an effect keeps its scheduler while it runs, and the session
    /// ends every effect when it goes (``EffectScheduler/shutDown()``). A weak one gave the
    /// scheduler a side table, and every retain of it the slow path.
    @usableFromInline let scheduler: EffectScheduler
    // NB: the mutable members below are touched on the session's thread only (`sleepers` with
    // the environment's lock held). An effect that ends at once touches three of them (`worker`,
    // `hasEnded`, and `isCancelled` when it returns an action) once or twice each: kept in a
    // `SingleThreadCell`, whose memory is one more allocation an effect, they cost it more than
    // the run-time exclusivity checks do, so they keep the checks.
    /// 1-based, in the order the session's effects started.
    let number: Int
    /// The line of the command that started it, when it was read from one.
    let line: Int?
    /// The action it ran after, in command syntax: written only when something names the effect.
    private(set) lazy var action = describeAction()
    /// The worker that runs it.
    var worker: EffectWorker?
    /// How many of its tasks sleep on the session's clock (the environment's lock held).
    var sleepers = 0
    var isCancelled = false
    /// It ended: what it still sends (from a task it left running) is dropped.
    var hasEnded = false
    /// An action it sent was dropped and reported: it is reported once.
    var reportedDroppedSend = false
    /// Cancelled because it ran over the time limit: its jobs no longer run.
    var isAbandoned = false
    /// The ids it is cancellable by (`StoreEffect.cancellable(id:)`), and the store that started
    /// it, whose ids they are.
    @usableFromInline var cancelIDs: [AnyHashable] = []
    @usableFromInline var owner: ObjectIdentifier?

    /// A new effect of `scheduler`'s, numbered and running from now on.
    @usableFromInline
    init(scheduler: EffectScheduler) {
        self.scheduler = scheduler
        self.number = scheduler.admit()
        self.line = scheduler.line
    }

    /// The action it ran after, in command syntax.
    func describeAction() -> String { "" }

    /// Runs the effect, dispatches what it returns, and ends.
    func run() async {}

    /// Cancels the effect's task; its worker is not given another effect after it.
    func cancel() {
        isCancelled = true
        worker?.task?.cancel()
    }

    /// Whether its tasks' sleeps on the clock throw `CancellationError` at once.
    var endsSleeps: Bool { false }

    /// Reports what the effect threw (but `CancellationError`) with the command being run.
    @usableFromInline
    func reportThrown(_ error: any Error) {
        scheduler.report(ShellError("\(name) threw an error: \(error)"), from: self)
    }

    /// The error of an effect that neither ended nor slept on the session's clock within the
    /// time limit (`seconds`), and was given up on.
    func ranOver(_ seconds: String) -> ShellError {
        ShellError(
            "\(name) neither ended nor waited on the session's clock within \(seconds) s: it was cancelled",
            hint:
                "an effect that spins, or waits for the world (a real request, another thread), cannot be replayed; sleep on context.environment.clock"
        )
    }

    /// `effect 2 (line 3: search query: a)`
    var name: String {
        guard let line else { return "effect \(number) (\(action))" }
        return "effect \(number) (line \(line): \(action))"
    }
}

/// An effect of a store whose actions are `Action` and state `State`: what it runs, with what.
///
/// NB: one object per effect, handed to a worker that is idle (see ``EffectWorker``): an effect
/// that ends at once costs this object and one job, no task of its own.
@usableFromInline
final class EffectOf<Action, State>: EffectRecord, @unchecked Sendable {
    // NB: @unchecked Sendable, restated as Swift requires of a subclass: the lets are the app's
    // values, used on the session's thread only, where the effect's jobs run (see ``AppValue``);
    // see `EffectRecord` for the rest.
    @usableFromInline let effect: (Action, State, EffectContext<Action>) async throws -> [Action]
    @usableFromInline let startAction: Action
    @usableFromInline let state: State
    @usableFromInline let sink: EffectSink<Action>
    let actionCases: ActionCases

    @usableFromInline
    init(
        scheduler: EffectScheduler, effect: @escaping (Action, State, EffectContext<Action>) async throws -> [Action],
        action: Action, state: State, sink: EffectSink<Action>, actionCases: ActionCases
    ) {
        self.effect = effect
        self.startAction = action
        self.state = state
        self.sink = sink
        self.actionCases = actionCases
        super.init(scheduler: scheduler)
    }

    override func describeAction() -> String { actionCases.announcement(of: startAction).description }

    override func run() async {
        let context = EffectContext(environment: scheduler.environment, record: self, sink: sink)
        do {
            context.deliverReturned(try await effect(startAction, state, context))
        } catch is CancellationError {
            // NB: a cancelled effect ends this way: nothing to report.
        } catch {
            reportThrown(error)
        }
        scheduler.end(self)
    }
}

/// The effects of a session's stores (see "Effects over time" in the reference): each runs in a
/// task whose jobs the session runs itself, on its own thread, one at a time, after every
/// command, until each has ended or sleeps on the session's clock. So a command's output is
/// complete when it returns, and the same in every run.
@usableFromInline
package final class EffectScheduler: Sendable {
    // NB: every mutable member is in a cell the session's thread alone touches. What an effect's
    // task may call from another thread (`deliver`, `report`) reads only `queue`, which has a
    // lock of its own, unless it runs on the session's thread.
    @usableFromInline package let environment: ShellEnvironment
    let queue = EffectQueue()
    /// Told when a loaded store changes on its own (see ``ChangeSignal``).
    package let changeSignal = ChangeSignal()
    private struct Books {
        var running: [EffectRecord] = []
        var started = 0
        var line: Int?
        var problems: [ShellError] = []
        var idle: [EffectWorker] = []
        /// What the stores' own tasks are running as now, if they run or sleep on the clock.
        var library: LibraryTasks?
        var timeLimit: Duration = .seconds(5)
        var route: TaskRoute?
    }
    // NB: the session's thread alone touches these: one value, whose accesses skip the run-time
    // exclusivity checks (see `SingleThreadCell`).
    private let books = SingleThreadCell(Books())
    /// The effects started and not ended, in the order they started.
    private(set) var running: [EffectRecord] {
        _read { yield books.value.running }
        _modify { yield &books.value.running }
    }
    private var started: Int {
        get { books.value.started }
        set { books.value.started = newValue }
    }
    /// The line of the command being run, for the effects it starts.
    var line: Int? {
        get { books.value.line }
        set { books.value.line = newValue }
    }
    /// How long one command's effects may run without all of them ending or sleeping on the clock.
    var timeLimit: Duration {
        get { books.value.timeLimit }
        set { books.value.timeLimit = newValue }
    }
    /// What went wrong with effects during the command being run.
    var problems: [ShellError] {
        _read { yield books.value.problems }
        _modify { yield &books.value.problems }
    }

    init(environment: ShellEnvironment) {
        self.environment = environment
        environment.core.effects = queue
    }

    /// Where the session's thread sends the jobs of the tasks a store's library starts or wakes
    /// while a command runs (see ``TaskRouting``): they run with the command's effects.
    package var route: TaskRoute {
        if let route = books.value.route { return route }
        let route = TaskRoute { [unowned self] job in self.takeLibraryJob(job) }
        books.value.route = route
        return route
    }

    /// The stores' own tasks that run or sleep on the clock now, as an effect.
    private var library: LibraryTasks? {
        get { books.value.library }
        set { books.value.library = newValue }
    }

    /// Whether jobs of the stores' own tasks wait in the queue.
    ///
    /// NB: a cell of its own, not a member of the books: a job is taken whenever the session's
    /// thread enqueues one, which may be while the books are being changed (a record freed as it
    /// is taken off the running ones may start a task).
    private let libraryQueued = SingleThreadCell(false)

    /// The session has ended its effects: its route takes no more jobs.
    ///
    /// NB: a cell of its own, as `libraryQueued` is: the route reads it when it takes a job,
    /// which may be while the books are being changed.
    private let shutDownCell = SingleThreadCell(false)
    private var hasShutDown: Bool {
        get { shutDownCell.value }
        set { shutDownCell.value = newValue }
    }

    /// Takes a job of a store's own task, on the session's thread: it runs with the effects, as
    /// part of the stores' own tasks that run now (see ``perform(_:)``). A session that ended
    /// takes none: the job goes to the global executor.
    private func takeLibraryJob(_ job: UnownedJob) -> Bool {
        guard !hasShutDown else { return false }
        queue.push(.libraryJob(job))
        libraryQueued.value = true
        return true
    }

    /// Whether jobs wait to be run: those of the stores' own tasks that a command without
    /// effects of its own (a `load`, an `undo`) started.
    package var hasQueuedJobs: Bool { libraryQueued.value }

    /// The stores' own tasks that run now, as an effect: a new one when none do.
    private func libraryRecord() -> LibraryTasks {
        if let active = library, !active.isAbandoned { return active }
        let record = LibraryTasks(scheduler: self)
        assign(record, to: EffectWorker(queue: queue))
        running.append(record)
        library = record
        return record
    }

    /// `worker` runs `record`.
    private func assign(_ record: EffectRecord, to worker: EffectWorker) {
        worker.current = record
        record.worker = worker
    }

    /// Starts another burst of the stores' own tasks: what they start from now on is an effect of
    /// its own (a store made again for `undo`, whose tasks are taken back if it is not kept).
    func separateLibraryTasks() { library = nil }

    /// Ends the stores' own tasks started since ``separateLibraryTasks()`` (by a store made again
    /// and not kept): their sleeps on the clock throw `CancellationError`, and they run until
    /// they end.
    func discardLibraryTasks() {
        guard libraryQueued.value || library != nil else { return }
        libraryRecord().cancel()
        run()
    }

    /// Runs what waits on the main queue once, as the stores' own tasks (a task on the main actor
    /// does their work there); `false` when nothing waited.
    private func runMainQueue(for record: LibraryTasks) -> Bool {
        let running = queue.runningEffect
        queue.runningEffect = record
        defer { queue.runningEffect = running }
        return MainQueue.runWaiting()
    }

    /// Ends the stores' own tasks as an effect once none of them sleeps on the clock: they ended,
    /// or wait for something else (the world), which is not the session's to wait for.
    private func settleLibrary() {
        let settled = running.filter { $0 is LibraryTasks && !environment.core.isAsleep($0) }
        guard !settled.isEmpty else { return }
        for record in settled { record.hasEnded = true }
        running.removeAll { record in settled.contains { $0 === record } }
        if let active = library, active.hasEnded { library = nil }
    }

    /// The workers waiting for an effect to run.
    private var idle: [EffectWorker] {
        _read { yield books.value.idle }
        _modify { yield &books.value.idle }
    }

    /// Whether no effect may have work to do: none runs, and no job of the stores' own tasks
    /// waits. (The queue may hold jobs of effects given up on, which are dropped when they are
    /// taken.) What a store without effects checks.
    var isIdle: Bool { running.isEmpty && !libraryQueued.value }

    /// The number of an effect that starts now.
    func admit() -> Int {
        started += 1
        return started
    }

    /// Starts an effect made now (see ``EffectRecord/init(scheduler:)``) on an idle worker, or a
    /// new one: it runs when the session next runs its effects.
    @usableFromInline
    func start(_ record: EffectRecord) {
        running.append(record)
        if let worker = idle.popLast(), let parked = worker.takeParked() {
            assign(record, to: worker)
            parked.resume(returning: record)
        } else {
            let worker = EffectWorker(queue: queue)
            assign(record, to: worker)
            worker.task = Task(executorPreference: worker) { await Self.work(worker, first: record) }
        }
    }

    /// A worker's task: runs its effects one after the other, waiting idle between them, until
    /// its task is cancelled (an effect of its was) or the session ends.
    private static func work(_ worker: EffectWorker, first: EffectRecord) async {
        var next: EffectRecord? = first
        while let record = next {
            await record.run()
            worker.current = nil
            if Task.isCancelled { return }
            // NB: resumed by `start` (an effect) or `shutDown` (nil), on the session's thread.
            next = await Waiter.wait { parked in record.scheduler.park(worker, parked) }
        }
    }

    /// Takes `worker` as idle, on the session's thread where its job runs.
    private func park(_ worker: EffectWorker, _ parked: consuming Waiter<EffectRecord?, Never>) {
        worker.park(parked)
        idle.append(worker)
    }

    /// Takes `record` off the running effects: at once on the session's thread, where its last
    /// job runs, else when the session next runs its effects.
    @usableFromInline
    func end(_ record: EffectRecord) {
        if queue.isDrainingOnCurrentThread {
            record.hasEnded = true
            if running.last === record { running.removeLast() } else { running.removeAll { $0 === record } }
        } else {
            queue.push(.ended(record))
        }
    }

    /// Runs the effects' jobs until each effect has ended or sleeps on the clock; one that does
    /// neither within ``timeLimit`` (a busy loop, a wait on the world) is cancelled and reported.
    ///
    /// NB: never inlined into the dispatch that calls it: the piped line's path stays as small
    /// in the instruction cache as it was without effects (inlined, a repeated `dispatch
    /// increment` missed the cache more often).
    @inline(never)
    func run() {
        guard !isIdle else { return }
        // NB: the clock is read only once the effects take a while (64 jobs) or wait: an effect
        // that ends at once does neither, and need not pay for a system call.
        let clock = ContinuousClock()
        var deadline: ContinuousClock.Instant?
        queue.beginDraining()
        defer {
            queue.endDraining()
            // NB: the stores' own tasks given up on stay so until the run ends: their jobs taken
            // meanwhile go to the global executor (see `perform`).
            if library?.isAbandoned == true { library = nil }
        }
        var steps = 0
        while true {
            var ran = false
            if let item = queue.pop() {
                perform(item)
                ran = true
            } else {
                libraryQueued.value = false
                // NB: the stores' own tasks do their work on the main actor there.
                if let library, runMainQueue(for: library) { ran = true }
            }
            if ran {
                // NB: with every effect ended, what may be left are the jobs of effects given up
                // on, which are dropped when taken: no need to take them now.
                if running.isEmpty && !libraryQueued.value { return }
                steps &+= 1
                if steps & 63 == 0 {
                    let now = clock.now
                    if let deadline, now > deadline { return abandonBusyEffects() }
                    if deadline == nil { deadline = now + timeLimit }
                }
                continue
            }
            if let library, running.allSatisfy({ $0 === library || environment.core.isAsleep($0) }) {
                return settleLibrary()
            }
            if running.allSatisfy({ environment.core.isAsleep($0) }) { return }
            let until = deadline ?? clock.now + timeLimit
            deadline = until
            guard queue.wait(until: until) else { return abandonBusyEffects() }
        }
    }

    private func perform(_ item: EffectQueue.Item) {
        switch item {
        case .job(let job, let worker):
            // NB: a job of an effect given up on is never run again: it spun or waited on the world.
            guard !worker.isAbandoned else { return }
            queue.runningEffect = worker.current
            job.runSynchronously(on: worker.asUnownedTaskExecutor())
            queue.runningEffect = nil
        case .libraryJob(let job):
            // NB: a job of the stores' own tasks given up on in this run goes to the global
            // executor, as it would have gone without the session: it spins there, not here.
            if library?.isAbandoned == true { return TaskRouting.passOn(job) }
            let record = libraryRecord()
            queue.runningEffect = record
            // NB: the worker only names the effect: the job has no executor preference, and what
            // it hands on goes to the global executor, and so here again.
            job.runSynchronously(on: record.worker!.asUnownedTaskExecutor())
            queue.runningEffect = nil
        case .delivery(let record, let returned, let describe, let perform):
            handle(from: record, returned: returned, describe: describe, perform: perform)
        case .ended(let record):
            record.hasEnded = true
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
        guard record.isCancelled || record.isAbandoned || record.hasEnded else { return perform() }
        // NB: what a cancelled effect returns is its way of ending, not an error; what it sends is,
        // once: an effect that sends in a loop would fill the report.
        guard !returned, !record.reportedDroppedSend else { return }
        record.reportedDroppedSend = true
        problems.append(
            record.hasEnded && !record.isCancelled
                ? ShellError(
                    "\(record.name) sent '\(describe())' after it ended: the action was dropped",
                    hint: "await the tasks an effect starts before it returns")
                : ShellError(
                    "\(record.name) sent '\(describe())' after it was cancelled: the action was dropped",
                    hint: "check Task.isCancelled, or let the CancellationError its sleep throws end the effect"))
    }

    /// Reports an effect's error with the command being run, or the next one.
    func report(_ error: ShellError, from record: EffectRecord) {
        deliver(
            from: record, returned: true, describe: { "" },
            perform: { [weak self] in self?.problems.append(error) })
    }

    /// Ends every effect, for a session that goes: each is cancelled and run until it ends (for
    /// at most ``timeLimit``); those that do not end are given up on, and the jobs still queued
    /// are dropped, so that what the effects hold is freed with the session.
    func shutDown() {
        if !isIdle { cancelAll() }
        for record in running { abandon(record) }
        running.removeAll()
        library = nil
        hasShutDown = true
        environment.core.cancelEverySleeper()
        // NB: the idle workers' tasks end, and with them what they hold.
        for worker in idle { worker.takeParked()?.resume(returning: nil) }
        idle.removeAll()
        // NB: only jobs: an action sent from another thread is no longer the session's to take.
        queue.beginDraining()
        while let item = queue.pop() {
            switch item {
            case .job: perform(item)
            case .libraryJob(let job): TaskRouting.passOn(job)
            case .delivery, .ended: break
            }
        }
        queue.endDraining()
        environment.core.effects = nil
    }

    /// How many effects the session has started.
    var startedCount: Int { started }

    /// Takes back the effects started after the first `count` (those of a command taken back):
    /// cancels those still running and runs them until they end (what they send then is dropped),
    /// and numbers the next effect as if they had never started.
    func retract(startedAfter count: Int) {
        guard started > count else { return }
        let retracted = running.filter { $0.number > count }
        for record in retracted where !record.isCancelled { record.cancel() }
        if !retracted.isEmpty { run() }
        // NB: one that did not end in time keeps its number, which `effects` lists.
        if !running.contains(where: { $0.number > count }) { started = count }
    }

    /// Cancels the running effects of store `owner` whose id is `id` (`.cancel(id:)`, or
    /// `.cancellable(id:cancelInFlight: true)` as another starts): each ends when the session
    /// next runs its effects, and what it sends from then on is dropped.
    func cancel(id: AnyHashable, of owner: ObjectIdentifier?) {
        for record in running where record.owner == owner && record.cancelIDs.contains(id) && !record.isCancelled {
            record.cancel()
        }
    }

    /// The ids of the running effects as `effects` shows them, and `cancel ID` takes them: a
    /// string as it is, another value as it prints.
    static func text(ofID id: AnyHashable) -> String {
        if let text = id.base as? String { return text }
        return JSONText.compact(ValueReader.read(id.base))
    }

    /// `cancel ID`: cancels the running effects of id `id` (of any store), and runs them until
    /// they end; throws, cancelling nothing, when no running effect has it.
    func cancel(idText id: String) throws(ShellError) {
        let matching = running.filter { record in record.cancelIDs.contains { Self.text(ofID: $0) == id } }
        guard !matching.isEmpty else {
            let ids = Set(running.flatMap { $0.cancelIDs.map(Self.text(ofID:)) }).sorted()
            throw ShellError(
                "no running effect has the id '\(id)'",
                hint: ids.isEmpty
                    ? "no effect with an id is running; effects lists what runs"
                    : "running: \(ids.joined(separator: ", "))")
        }
        for record in matching where !record.isCancelled { record.cancel() }
        run()
    }

    /// Cancels every running effect, and runs them until they end.
    func cancelAll() {
        for record in running where !record.isCancelled { record.cancel() }
        run()
    }

    /// Moves the clock by `duration` (to the earliest deadline when `nil`), running the effects
    /// that wake at each deadline on the way, in order.
    ///
    /// Stops early, the clock at the last deadline reached, once `isOverLimit` says the command's
    /// follow-ups went over their limit (a timer that sends, advanced for years), or after
    /// ``maximumWakes`` deadlines (one that does not send), and reports where it stopped.
    func advance(by duration: Duration?, isOverLimit: () -> Bool) {
        let core = environment.core
        let target = duration.map { core.elapsed + $0 } ?? core.nextDeadline ?? core.elapsed
        var wakes = 0
        while let next = core.nextDeadline, next <= target {
            guard wakes < Self.maximumWakes, !isOverLimit() else {
                problems.append(
                    ShellError(
                        "advance stopped at \(Seconds.text(core.elapsed)) s of the session's clock, short of \(Seconds.text(target)) s: "
                            + (isOverLimit()
                                ? "the effects sent more actions than one command takes"
                                : "the effects woke \(Self.maximumWakes) times"),
                        hint: "advance in shorter steps, or cancel the effects that repeat"))
                return
            }
            wakes += 1
            core.move(to: next)
            run()
        }
        core.move(to: target)
        run()
    }

    /// How many deadlines one `advance` wakes effects at, at most.
    static let maximumWakes = 1_000_000

    /// Gives up on the effects that neither ended nor sleep on the clock: cancelled, their jobs
    /// never run again, each reported.
    private func abandonBusyEffects() {
        let seconds = Seconds.text(timeLimit)
        for record in running where !environment.core.isAsleep(record) {
            abandon(record)
            problems.append(record.ranOver(seconds))
        }
        running.removeAll { $0.isAbandoned }
    }

    /// Gives up on `record`: cancelled, and no job of its worker runs again.
    private func abandon(_ record: EffectRecord) {
        record.isAbandoned = true
        record.worker?.isAbandoned = true
        record.cancel()
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
                ids: record.cancelIDs.map(Self.text(ofID:)),
                waitsFor: deadline.map { Seconds.text($0 - now) }, isCancelled: record.isCancelled)
        }
    }
}

/// A task that runs a session's effects, one after the other, and is the executor of their
/// jobs: the session runs them itself, on its own thread (see ``EffectScheduler/run()``).
///
/// NB: a worker waits idle between effects, so that an effect that ends at once needs no task
/// of its own: made for each, a task cost an effect more than all the rest of its line.
final class EffectWorker: TaskExecutor {
    // NB: the mutable members are in a cell the session's thread alone touches, where the
    // worker's jobs run; `enqueue` reads only `queue`, which has its own lock.
    private let queue: EffectQueue
    private struct Status: ~Copyable {
        var current: EffectRecord?
        var parked: Waiter<EffectRecord?, Never>?
        var isAbandoned = false
        var task: Task<Void, Never>?
    }
    // NB: one value, whose accesses skip the run-time exclusivity checks (see `SingleThreadCell`).
    private let status = SingleThreadCell(Status())
    /// The effect it runs now.
    var current: EffectRecord? {
        get { status.value.current }
        set { status.value.current = newValue }
    }
    var task: Task<Void, Never>? {
        get { status.value.task }
        set { status.value.task = newValue }
    }
    /// Waits for its next effect, idle, with `waiter`.
    func park(_ waiter: consuming Waiter<EffectRecord?, Never>) { status.value.parked = consume waiter }

    /// Where it waits for its next effect, while idle; taken out, so that one caller resumes it.
    func takeParked() -> Waiter<EffectRecord?, Never>? { status.value.parked.take() }
    /// Given up on with its effect: its jobs are dropped.
    var isAbandoned: Bool {
        get { status.value.isAbandoned }
        set { status.value.isAbandoned = newValue }
    }

    init(queue: EffectQueue) { self.queue = queue }

    func enqueue(_ job: consuming ExecutorJob) {
        queue.push(.job(UnownedJob(job), self))
    }
}

/// What `effects` shows.
package struct EffectListing: Sendable {
    public struct Entry: Sendable {
        /// 1-based, in the order the session's effects started.
        public var number: Int
        /// The line of the command that started it, when it was read from one.
        public var line: Int?
        /// The action it ran after, in command syntax.
        public var action: String
        /// The ids it is cancellable by (`cancel ID`).
        public var ids: [String]
        /// How many seconds of the clock it waits for (as `advance` takes them), or `nil` when it
        /// waits for something else.
        public var waitsFor: String?
        public var isCancelled: Bool

        /// `effect 1 (line 3: search query: a): waits 0.3 s on the clock`
        public var text: String {
            var head = line.map { "effect \(number) (line \($0): \(action))" } ?? "effect \(number) (\(action))"
            if !ids.isEmpty { head += ids.count == 1 ? ", id \(ids[0])" : ", ids \(ids.joined(separator: ", "))" }
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
final class EffectQueue: Sendable {
    enum Item {
        case job(UnownedJob, EffectWorker)
        /// A job of a task a store's library started or woke (see ``TaskRouting``).
        case libraryJob(UnownedJob)
        case delivery(
            EffectRecord, returned: Bool, describe: @Sendable () -> String, perform: @Sendable () -> Void)
        case ended(EffectRecord)
    }

    private let condition = NSCondition()
    private struct Queued {
        var items: [Item] = []
        var head = 0
    }
    // NB: touched only with `condition` locked: one value, whose accesses skip the run-time
    // exclusivity checks (see `SingleThreadCell`).
    private let queued = SingleThreadCell(Queued())
    private var items: [Item] {
        _read { yield queued.value.items }
        _modify { yield &queued.value.items }
    }
    private var head: Int {
        get { queued.value.head }
        set { queued.value.head = newValue }
    }
    /// The session's thread while it runs the effects (``ThreadIdentity/word``), else 0.
    ///
    /// NB: an atomic, not under `condition`: it is asked on every job and every end of an
    /// effect, where a lock each time would be a tenth of an effect that ends at once.
    private let drainer = Atomic<UInt>(0)
    /// The effect whose job the session runs now: what a sleep on the clock from the session's
    /// thread belongs to. Touched on that thread only: its accesses skip the run-time
    /// exclusivity checks (see `SingleThreadCell`).
    private let running = SingleThreadCell<EffectRecord?>(nil)
    var runningEffect: EffectRecord? {
        get { running.value }
        set { running.value = newValue }
    }

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
        // NB: on the main thread the main queue runs meanwhile (see `MainQueue`): what it runs is
        // no effect's job, so what it sends is queued as from another thread, not handled inside.
        let drainer = self.drainer.load(ordering: .acquiring)
        let isMain = drainer != 0 && MainQueue.isCurrent
        if isMain { self.drainer.store(0, ordering: .releasing) }
        defer { if isMain { self.drainer.store(drainer, ordering: .releasing) } }
        return condition.withLock {
            while head == items.count {
                guard condition.wait(until: deadline) else { return false }
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
