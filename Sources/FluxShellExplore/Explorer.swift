import Dispatch
import FluxShellJSON
import FluxShellLanguage
import FluxShellRunner
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// `fluxsh explore` (“fluxsh explore” in the reference): random actions against the loaded stores,
/// each checked, and the first failure shrunk to a minimal sequence written as a scenario that
/// fails the same way.
///
/// ```swift
/// var options = Explorer.Options(stores: ["todos"], seed: 42)
/// options.invariants = ["todos[*].id < $nextID"]
/// let report = try Explorer(catalog: .builtIn, options: options).explore()
/// ```
package final class Explorer: Sendable {
    // NB: every stored property is a constant; the two hooks are set before `explore()` and
    // read while it runs, under a lock. Each run makes its own sessions.
    public struct Options: Sendable {
        /// The stores loaded in each run, in order; the last is active (invariants speak of it).
        public var stores: [String]
        public var runs = 100
        public var steps = 50
        public var seed: UInt64
        /// Each the rest of an `expect` line: `todos[*].id < $nextID`.
        public var invariants: [String] = []
        /// Stop starting runs after this many seconds.
        public var seconds: Double?
        /// Only the runs of this slice (run `i` is in slice `i % N`).
        public var shard: Shard?
        /// Runs explored at once, each job in a thread of its own; the failure reported is the
        /// one of the lowest run, as with one job.
        public var jobs = 1

        public init(stores: [String], seed: UInt64) {
            self.stores = stores
            self.seed = seed
        }
    }

    /// What failed.
    public enum Check: Sendable, Equatable, CustomStringConvertible {
        /// An `--invariant`, as typed.
        case invariant(String)
        /// An invariant a store definition declares.
        case storeInvariant(store: String, name: String)
        /// An action its store refused (validation threw) changed a state.
        case refusedActionChangedState(store: String)
        /// Replaying the run in a fresh session printed other diff lines.
        case replayDiffers
        /// Undoing every step did not give back the initial state.
        case undoDoesNotRestore(store: String)
        /// Redoing every step did not give back the final state.
        case redoDoesNotRestore(store: String)
        /// The process died in an action (a trap: `fatalError`, an overflow, an index out of
        /// range); seen by a parent process.
        case trap

        public var description: String {
            switch self {
            case .invariant(let text): "invariant '\(text)'"
            case .storeInvariant(let store, let name): "invariant '\(name)' of store '\(store)'"
            case .refusedActionChangedState(let store): "a refused action changed the state of '\(store)'"
            case .replayDiffers: "replaying the same actions gave other states or diff lines"
            case .undoDoesNotRestore(let store): "undo to the start did not restore the initial state of '\(store)'"
            case .redoDoesNotRestore(let store): "redo to the end did not restore the final state of '\(store)'"
            case .trap: "the last action trapped"
            }
        }
    }

    /// One step of a run: an action dispatched (and whether its store refused it), or
    /// `advance` while effects sleep on the clock.
    public struct Step: Sendable, Equatable {
        /// `dispatch ACTION` or `advance`.
        public var command: Command
        public var wasRefused: Bool

        public init(command: Command, wasRefused: Bool) {
            self.command = command
            self.wasRefused = wasRefused
        }
    }

    /// What a step printed: its diff (`nil`: nothing, as when it trapped), or why its store
    /// refused it.
    public enum StepOutput: Sendable {
        case printed(CommandDiff?)
        /// Why the command failed (without a location).
        case refused(Diagnostic)

        /// The lines the shell printed for it: its diff lines, or its `error: …` line.
        public var lines: [String] {
            switch self {
            case .printed(let diff): diff?.lines ?? []
            case .refused(let diagnostic): Renderer().lines(of: diagnostic)
            }
        }

        /// What `--format json` prints for it besides `line`, `command` and `action`: its
        /// `changes` and `followUps`, or its `error`.
        public var json: JSONValue {
            switch self {
            case .printed(let diff): .object(JSONObject(diff.map { Renderer.jsonMembers(of: $0) } ?? []))
            case .refused(let diagnostic): Renderer().json(of: diagnostic)
            }
        }
    }

    public struct Failure: Sendable {
        public init(
            check: Check, message: String, run: Int, runSeed: UInt64, commands: [Command], minimal: [Step],
            scenario: String, minimalOutputs: [StepOutput]
        ) {
            self.check = check
            self.message = message
            self.run = run
            self.runSeed = runSeed
            self.commands = commands
            self.minimal = minimal
            self.scenario = scenario
            self.minimalOutputs = minimalOutputs
        }

        public var check: Check
        /// What the check found, as an error says it.
        public var message: String
        /// The run and its seed.
        public var run: Int
        public var runSeed: UInt64
        /// The steps of the run up to the failure, and the minimal ones after shrinking.
        public var commands: [Command]
        public var minimal: [Step]
        /// The scenario that fails the same way (`fluxsh test`).
        public var scenario: String
        /// What each minimal step printed.
        public var minimalOutputs: [StepOutput]

        /// How many steps the run had up to the failure, as the report counts actions: the step
        /// that seeds the run's random numbers is none of them.
        public var originalSteps: Int { commands.count { !$0.isSeed } }
    }

    /// How often each action case was generated, refused and changed a state.
    public struct CaseCoverage: Sendable, Equatable {
        public var store: String
        public var name: String
        public var dispatched = 0
        public var refused = 0
        public var changed = 0
        /// Why it is never generated (a parameter without a text form), if so.
        public var notGenerated: String?
    }

    public struct Report: Sendable {
        public init(seed: UInt64) { self.seed = seed }

        public var programName = "fluxsh"
        public var seed: UInt64
        public var runs = 0
        public var actions = 0
        public var failure: Failure?
        /// Why no action could be made, when none was: nothing was checked.
        public var nothingToExplore: String?
        /// Ctrl-C stopped it before the runs asked for were made.
        public var wasInterrupted = false
        /// The first runs (number, actions, each step's printed lines), for a replay in another
        /// process (see ``Explorer/runsReplayedElsewhere``).
        public var runsToReplayElsewhere: [(run: Int, commands: [Command], outputs: [StepOutput])] = []
        public var coverage: [CaseCoverage] = []
        public var checks: [String] = []
    }

    let catalog: StoreCatalog
    public let options: Options
    let expectations: [Expectation]
    /// Each explored store's name and the action cases that can be made from text, read once.
    /// (The cases as indices into the store's `ActionCases`, which is `Sendable` as its cases are
    /// not.)
    private let generatable: [(store: String, actions: ActionCases, cases: [Int])]

    /// What the explorer is about to do, for a log that outlives a trap: each sequence of actions
    /// starts with `.start`, and each action is announced before it is dispatched. A parent
    /// process reads the last sequence of a child that died (see `fluxsh explore`).
    public enum Event {
        /// A run begins (`run` is its number; -1 for a replay of given actions).
        case start(run: Int)
        /// A step: `dispatch ACTION` or `advance`.
        case step(Command)
    }

    /// Called with each ``Event`` and the job (0 with one job), on that job's thread.
    public var journal: (@Sendable (_ job: Int, Event) -> Void)? {
        get { hooks.withLock { $0.journal } }
        set { hooks.withLock { $0.journal = newValue } }
    }
    /// Asked before each run: when it says so, no further run starts (Ctrl-C), and the report is
    /// of the runs made, marked as interrupted.
    public var isInterrupted: (@Sendable () -> Bool)? {
        get { hooks.withLock { $0.isInterrupted } }
        set { hooks.withLock { $0.isInterrupted = newValue } }
    }
    private struct Hooks {
        var journal: (@Sendable (_ job: Int, Event) -> Void)?
        var isInterrupted: (@Sendable () -> Bool)?
    }
    private let hooks = LockedValue(Hooks())

    /// - Throws: a `ShellError` for an unknown store or an invariant that does not parse.
    public init(catalog: StoreCatalog, options: Options) throws(ShellError) {
        self.catalog = catalog
        self.options = options
        guard !options.stores.isEmpty else {
            throw ShellError("explore needs at least one store", hint: "e.g. explore todos")
        }
        if let twice = options.stores.first(where: { name in options.stores.filter { $0 == name }.count > 1 }) {
            throw ShellError("the store '\(twice)' is named twice", hint: "each store is loaded once per run")
        }
        guard (1...Self.maximumRuns).contains(options.runs), (1...Self.maximumSteps).contains(options.steps) else {
            throw ShellError(
                "--runs must be 1...\(Self.maximumRuns) and --steps 1...\(Self.maximumSteps)",
                hint: "more runs explore more; --time bounds how long")
        }
        if let seconds = options.seconds, !(seconds > 0 && seconds <= 31_536_000) {
            throw ShellError("--time must be a number of seconds above 0 (at most a year)", hint: "e.g. --time 30")
        }
        for name in options.stores where catalog[name] == nil {
            throw ShellError(
                "unknown store '\(name)'",
                hint: Suggestion.didYouMean(name, among: catalog.names)
                    ?? "available: \(catalog.names.joined(separator: ", "))")
        }
        var expectations: [Expectation] = []
        for text in options.invariants {
            let parsed: ParsedLine
            do {
                parsed = try CommandParser.parse("expect " + text)
            } catch {
                throw ShellError(
                    "--invariant '\(text)': \(error.message)",
                    hint: error.hint ?? "write it as the rest of an expect line")
            }
            guard case .expect(let expectation)? = parsed.command else {
                throw ShellError("--invariant '\(text)' is not an expectation", hint: "e.g. --invariant 'count >= 0'")
            }
            expectations.append(expectation)
        }
        self.expectations = expectations
        self.generatable = options.stores.compactMap { catalog[$0] }.map { definition in
            let actions = definition.actionCases
            return (
                definition.name, actions,
                actions.cases.indices.filter { actions.cases[$0].signature.notDispatchableBecause == nil }
            )
        }
        // NB: each invariant must be checkable where every run starts: a path that is not in the
        // state is a mistake in the command line, not a failure of the store.
        let run = freshRun()
        for (expectation, text) in zip(expectations, options.invariants) {
            if case .refused(let diagnostic) = run.run(.expect(expectation)), diagnostic.kind != .unmetExpectation {
                throw ShellError(
                    "--invariant '\(text)' cannot be checked in the initial state: \(diagnostic.message)",
                    hint: diagnostic.hint)
            }
        }
    }

    /// Bounds that keep an exploration's memory and arithmetic in range.
    public static let maximumRuns = 1_000_000_000
    public static let maximumSteps = 100_000

    // MARK: - Exploring

    /// What one run explored, kept apart so that a report counts the runs one job would have
    /// explored, whatever the number of jobs.
    private struct RunResult {
        var run: Int
        var actions: Int
        var coverage: Coverage
        var failure: (runSeed: UInt64, outcome: Outcome)?
        /// The actions and printed lines of one of the first runs, for a replay in another process.
        var kept: (commands: [Command], outputs: [StepOutput])?
    }

    /// How many of the first runs a report keeps, to be replayed in another process: Swift's
    /// hash seed differs between processes, not within one, so only there does a mutation that
    /// depends on a `Set`'s or a `Dictionary`'s order print other lines.
    public static let runsReplayedElsewhere = 8

    /// Runs the exploration; stops at the first failure, which is shrunk.
    public func explore() -> Report {
        var report = Report(seed: options.seed)
        report.programName = catalog.programName
        report.checks = checkNames
        // NB: an invariant that fails before any action fails in the initial state.
        if let failure = checkInvariants(freshRun()) {
            report.failure = Failure(
                check: failure.0, message: failure.1 + " (in the initial state)", run: 0, runSeed: 0, commands: [],
                minimal: [],
                scenario: scenarioText(Outcome(), check: failure.0), minimalOutputs: [])
            report.coverage = Coverage().table(for: loadedDefinitions)
            return report
        }
        let runs =
            options.shard.map { shard in stride(from: shard.index - 1, to: options.runs, by: shard.count) }
            ?? stride(from: 0, to: options.runs, by: 1)
        // NB: counted, not walked: a stride's `underestimatedCount` walks it (seconds for 10^8 runs).
        let runCount = options.shard.map { (options.runs - $0.index + $0.count) / $0.count } ?? options.runs
        // NB: a store object's library may bind it to the main actor (a TCA `Store`): its sessions
        // run on the main thread, one at a time.
        let jobs = catalog.needsMainThread(loading: options.stores) ? 1 : max(1, min(options.jobs, runCount))
        let deadline = options.seconds.map { ContinuousClock.now + .milliseconds(Int64($0 * 1000)) }
        // NB: a job stops at a run past the lowest failing run any job found; then only the runs
        // up to that one are counted: the report is one job's, whatever the number of jobs.
        let lowestFailure = LockedValue(Int.max)
        let results = LockedValue([RunResult]())
        let explore = { @Sendable (job: Int) in
            var position = 0
            for run in runs {
                defer { position += 1 }
                guard position % jobs == job else { continue }
                if run > lowestFailure.withLock({ $0 }) { break }
                if let deadline, ContinuousClock.now > deadline { break }
                if let isInterrupted = self.isInterrupted, isInterrupted() { break }
                let runSeed = SeededRandom.seed(ofRun: run, of: self.options.seed)
                var source = ActionSource.generated(
                    ArgumentGenerator(random: SeededRandom(seed: runSeed)), steps: self.options.steps, seed: runSeed)
                var coverage = Coverage()
                let outcome = self.execute(&source, coverage: &coverage, job: job, run: run)
                var result = RunResult(
                    run: run, actions: outcome.steps.count { !$0.command.isSeed }, coverage: coverage)
                if run < Self.runsReplayedElsewhere { result.kept = (outcome.steps.map(\.command), outcome.outputs) }
                if outcome.failure != nil {
                    result.failure = (runSeed, outcome)
                    lowestFailure.withLock { $0 = min($0, run) }
                }
                results.withLock { $0.append(result) }
                if result.failure != nil { break }
            }
        }
        if jobs == 1 {
            explore(0)
        } else {
            MainQueue.concurrentPerform(iterations: jobs, explore)
        }
        let cutoff = lowestFailure.withLock { $0 }
        var coverage = Coverage()
        for result in results.withLock({ $0 }).sorted(by: { $0.run < $1.run }) where result.run <= cutoff {
            report.runs += 1
            report.actions += result.actions
            coverage.add(result.coverage)
            if let failure = result.failure, let found = failure.outcome.failure {
                report.failure = shrink(found, steps: failure.outcome.steps, run: result.run, runSeed: failure.runSeed)
            }
            if let kept = result.kept { report.runsToReplayElsewhere.append((result.run, kept.commands, kept.outputs)) }
        }
        report.wasInterrupted = isInterrupted?() == true
        report.coverage = coverage.table(for: loadedDefinitions)
        if report.actions == 0, report.failure == nil, report.runs > 0 {
            report.nothingToExplore = nothingToExploreReason
        }
        return report
    }

    /// What each run checks, for the report.
    public var checkNames: [String] {
        var names = options.invariants.map { "invariant '\($0)'" }
        for definition in loadedDefinitions where definition.invariantNames.count > 0 {
            names.append(
                "\(definition.invariantNames.count) invariant\(definition.invariantNames.count == 1 ? "" : "s") of '\(definition.name)'"
            )
        }
        return names + [
            "refused actions change nothing", "replay gives the same states and diff", "undo and redo restore",
        ]
    }

    /// The command that explores the same runs: what a saved scenario's header repeats, so that
    /// running it again finds the same failure.
    public var commandLine: String {
        var words = [catalog.programName, "explore"] + options.stores + ["--seed", String(options.seed)]
        if options.runs != Options(stores: [], seed: 0).runs { words += ["--runs", String(options.runs)] }
        if options.steps != Options(stores: [], seed: 0).steps { words += ["--steps", String(options.steps)] }
        for invariant in options.invariants { words += ["--invariant", Self.shellQuoted(invariant)] }
        return words.joined(separator: " ")
    }

    /// `text` as one word for a POSIX shell: as it is when it is safe so, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./:=@".unicodeScalars.contains($0)
            }
        return safe ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }

    private var loadedDefinitions: [StoreDefinition] { options.stores.compactMap { catalog[$0] } }

    /// Each explored action case, none of them dispatched yet: the coverage of an exploration
    /// stopped before its first run.
    package var coverageBeforeAnyRun: [CaseCoverage] { Coverage().table(for: loadedDefinitions) }

    /// Why no action can be made for the stores: every case's reason, or its action type's.
    private var nothingToExploreReason: String {
        let reasons = loadedDefinitions.map { definition in
            if let reason = definition.actionsUnlistedBecause { return "'\(definition.name)': \(reason)" }
            let cases = definition.actions.map {
                "\($0.name) (\($0.notDispatchableBecause ?? "no value could be made"))"
            }
            return "'\(definition.name)': " + (cases.isEmpty ? "no action cases" : cases.joined(separator: ", "))
        }
        return "no action could be made: " + reasons.joined(separator: "; ")
    }

    /// Each step's printed lines (its diff lines, or `error: …` when refused) when `actions` are
    /// dispatched in a fresh session.
    public func printedLines(of commands: [Command]) -> [[String]] { outputs(of: commands).map(\.lines) }

    /// What each step printed when `actions` are dispatched in a fresh session.
    public func outputs(of commands: [Command]) -> [StepOutput] {
        let run = freshRun()
        return commands.map { run.run($0) }
    }

    /// The failure of a replay in another process that printed `elsewhere` where this one
    /// printed what `actions` print here: shrunk with `differs`, which tells whether a sequence
    /// still prints other lines there.
    public func replayElsewhereFailure(
        run: Int, commands: [Command], differs: ([Command]) -> Bool
    ) -> Failure {
        let message =
            "replayed in another process (another hash seed), the same actions printed other lines: "
            + "a mutation depends on the order of a Set or a Dictionary, or on something else outside the state"
        return failure(
            .replayDiffers, message: message, fixed: true, run: run,
            runSeed: SeededRandom.seed(ofRun: run, of: options.seed),
            original: commands, minimal: minimize(commands, fails: differs))
    }

    /// A fresh run with `actions` dispatched (refused ones change nothing).
    func replayed(_ commands: [Command]) -> ExploreRun {
        let run = freshRun()
        for command in commands { run.run(command) }
        return run
    }

    /// Where a run's actions come from: made as it goes, or a fixed list (replays, shrinking).
    enum ActionSource {
        case generated(ArgumentGenerator, steps: Int, seed: UInt64)
        case fixed([Command])
    }

    struct Outcome {
        var steps: [Step] = []
        /// The failed check, its message, and the step it failed at (`nil`: at the end of the run).
        var failure: (check: Check, message: String, step: Int?)?
        /// What each step printed.
        var outputs: [StepOutput] = []
        /// Each step's printed lines (diff, or `error: …` when refused).
        var lines: [[String]] { outputs.map(\.lines) }
    }

    /// Runs the actions of `source` in a fresh session, checking after each and at the end.
    func execute(_ source: inout ActionSource, coverage: inout Coverage, job: Int = 0, run number: Int = -1) -> Outcome
    {
        var outcome = Outcome()
        // NB: read once a run: the hooks are set before `explore()` and behind a lock.
        let journal = self.journal
        journal?(job, .start(run: number))
        let run = freshRun()
        let initial = run.session.states(afresh: true)
        var index = 0
        while let step = next(&source, in: run, index: index) {
            index += 1
            // NB: only a store's validation can refuse an action after seeing it; the states of
            // those stores are read afresh before each action (also what a class instance in them
            // holds now), the others' not at all.
            let before = run.session.states(afresh: true, validatingOnly: true)
            journal?(job, .step(step.command))
            let output = run.run(step.command)
            outcome.outputs.append(output)
            let name = step.command.dispatched?.name
            switch output {
            case .printed(let diff):
                let changed = diff.map { !$0.isUnchanged } ?? false
                if let name { coverage.count(step.store, name, refused: false, changed: changed) }
                outcome.steps.append(Step(command: step.command, wasRefused: false))
            case .refused(let diagnostic):
                if let name { coverage.count(step.store, name, refused: true, changed: false) }
                outcome.steps.append(Step(command: step.command, wasRefused: true))
                let after = run.session.states(afresh: true, validatingOnly: true)
                if let changed = zip(before, after).first(where: { $0.state != $1.state }) {
                    outcome.failure = (
                        .refusedActionChangedState(store: changed.0.alias),
                        "\(step.command.stepText) was refused (\(diagnostic.text)) but changed '\(changed.0.alias)'",
                        outcome.steps.count - 1
                    )
                    return outcome
                }
            }
            if let failure = checkInvariants(run) {
                outcome.failure = (failure.0, failure.1, outcome.steps.count - 1)
                return outcome
            }
        }
        if let failure = checkEnd(run, steps: outcome.steps, lines: outcome.lines, initial: initial) {
            outcome.failure = (failure.0, failure.1, nil)
        }
        return outcome
    }

    /// A fresh session with the explored stores loaded, and its runner.
    func freshRun() -> ExploreRun { ExploreRun(catalog: catalog, stores: options.stores, steps: options.steps) }

    private func next(_ source: inout ActionSource, in run: ExploreRun, index: Int) -> (
        command: Command, store: String
    )? {
        switch source {
        case .fixed(let commands):
            guard index < commands.count else { return nil }
            return (commands[index], "")
        case .generated(var generator, let steps, let seed):
            // NB: a run begins by seeding the environment's random numbers with the run's seed,
            // a step as the others: replays, the shrunk steps and the scenario keep it when it
            // matters, and shrinking drops it when it does not.
            if index == 0 { return (.seed(seed), "") }
            guard index <= steps else { return nil }
            defer { source = .generated(generator, steps: steps, seed: seed) }
            // NB: while an effect sleeps on the clock, one step in four moves the clock to it.
            if run.session.effects.environment.core.nextDeadline != nil, generator.random.chance(25) {
                return (.advance(nil), "")
            }
            return generate(&generator, in: run).map { (.dispatch($0.invocation), $0.store) }
        }
    }

    /// A random action of a random loaded store, its arguments made for its parameters' types.
    private func generate(_ generator: inout ArgumentGenerator, in run: ExploreRun) -> (
        invocation: ActionInvocation, store: String
    )? {
        generator.state = ArgumentGenerator.StateValues(run.session.states().map(\.state))
        for _ in 0..<20 {
            guard let (store, actions, cases) = generatable.randomElement(using: &generator.random) else { return nil }
            guard let index = cases.randomElement(using: &generator.random) else { continue }
            let chosen = actions.cases[index]
            var invocation = ActionInvocation(name: chosen.signature.name)
            var complete = true
            for (parameter, typed) in zip(chosen.signature.parameters, chosen.parameters) {
                guard
                    let value = generator.value(for: typed.shape.type, label: parameter.label)
                        ?? (parameter.isOptional ? .null : nil)
                else {
                    complete = false
                    break
                }
                invocation.arguments.append(.init(label: parameter.label, value: value))
            }
            if complete { return (invocation, store) }
        }
        return nil
    }

    /// Runs `actions` in a fresh session with every check, as a shrinking candidate is run.
    public func run(_ commands: [Command]) -> Check? {
        var source = ActionSource.fixed(commands)
        var ignored = Coverage()
        return execute(&source, coverage: &ignored).failure?.check
    }

    /// The invariants after an action: `--invariant`s (of the active store) and the stores' own.
    private func checkInvariants(_ run: ExploreRun) -> (Check, String)? {
        for (expectation, text) in zip(expectations, options.invariants) {
            if case .refused(let diagnostic) = run.run(.expect(expectation)) {
                return (.invariant(text), diagnostic.text)
            }
        }
        if let broken = run.session.brokenInvariant() {
            return (
                .storeInvariant(store: broken.alias, name: broken.name),
                "invariant '\(broken.name)' of store '\(broken.alias)' does not hold"
            )
        }
        return nil
    }

    /// At the end of a run: a fresh replay prints the same lines; undo to the start restores the
    /// initial states, redo the final ones.
    private func checkEnd(
        _ run: ExploreRun, steps: [Step], lines: [[String]], initial: [(alias: String, state: JSONValue)]
    ) -> (Check, String)? {
        let replay = freshRun()
        let replayed = steps.map { replay.run($0.command).lines }
        for (index, step) in steps.enumerated() {
            let printed = replayed[index]
            if printed != lines[index] {
                let differing = zip(lines[index], printed).first { $0 != $1 }
                let difference = differing.flatMap { ReplayDifference.between(lines: $0, $1) }
                return (
                    .replayDiffers,
                    "step \(index + 1), \(step.command.stepText): first printed \(lines[index].joined(separator: " | ")), then \(printed.joined(separator: " | "))"
                        + (difference.map { "; at \($0.clause(where: "it showed"))" } ?? "")
                        + "; if a mutation reads a date, an id or a random number, pin it: \(ReplayDifference.pinning)"
                )
            }
        }
        // NB: as values too: a mutation that reads the clock prints alike within a millisecond.
        if let store = run.session.storesWithOtherStates(than: replay.session).first {
            let path = run.session.firstDifference(ofStore: store, from: replay.session)
            return (
                .replayDiffers,
                "replayed, the same actions left '\(store)' in another state, though it prints the same"
                    + (path.map { " (at \($0))" } ?? "") + ": "
                    + "a mutation reads the clock, or something else outside the state; to pin it, \(ReplayDifference.pinning)"
            )
        }
        let final = run.session.states(afresh: true)
        let done = run.session.undoableSteps
        guard done > 0 else { return nil }
        run.run(.undo(steps: done))
        for (now, state) in zip(run.session.states(afresh: true), initial) where now.state != state.state {
            return (
                .undoDoesNotRestore(store: now.alias),
                "after undo \(done): \(JSONText.compact(now.state)), initially \(JSONText.compact(state.state))"
            )
        }
        run.run(.redo(steps: done))
        for (now, state) in zip(run.session.states(afresh: true), final) where now.state != state.state {
            return (
                .redoDoesNotRestore(store: now.alias),
                "after redo \(done): \(JSONText.compact(now.state)), before the undo \(JSONText.compact(state.state))"
            )
        }
        return nil
    }
}

/// Counts per action case.
struct Coverage {
    private var counts: [String: Explorer.CaseCoverage] = [:]

    /// Adds another job's counts.
    mutating func add(_ other: Coverage) {
        for (key, entry) in other.counts {
            var merged = counts[key] ?? Explorer.CaseCoverage(store: entry.store, name: entry.name)
            merged.dispatched += entry.dispatched
            merged.refused += entry.refused
            merged.changed += entry.changed
            counts[key] = merged
        }
    }

    mutating func count(_ store: String, _ name: String, refused: Bool, changed: Bool) {
        guard !store.isEmpty else { return }
        let key = store + "\u{0}" + name
        var entry = counts[key] ?? Explorer.CaseCoverage(store: store, name: name)
        entry.dispatched += 1
        if refused { entry.refused += 1 }
        if changed { entry.changed += 1 }
        counts[key] = entry
    }

    /// One row per action case of each store, in declaration order.
    func table(for definitions: [StoreDefinition]) -> [Explorer.CaseCoverage] {
        var rows: [Explorer.CaseCoverage] = []
        for definition in definitions {
            for signature in definition.actions {
                var row =
                    counts[definition.name + "\u{0}" + signature.name]
                    ?? Explorer.CaseCoverage(store: definition.name, name: signature.name)
                row.notGenerated = signature.notDispatchableBecause
                rows.append(row)
            }
        }
        return rows
    }
}
