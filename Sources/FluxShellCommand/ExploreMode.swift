import FluxShell
import FluxShellExplore
import FluxShellLanguage
import Synchronization

/// `fluxsh explore`: explores in a child process of this executable, so that a trap in a store's
/// mutation (`fatalError`, an overflow, an index out of range) is a failure reported with the
/// actions that caused it, not the end of `fluxsh`.
///
/// - The child (the "worker") is this same command with `--journal FOLDER`: it explores as usual,
///   prints its report and writes the failing scenario; each job keeps the run under way in that
///   folder as a script (`# run N`, the `load` lines, a `dispatch` line written before each
///   action is dispatched).
/// - When the worker dies by a signal, this process runs each job's script with `run FILE` in
///   further children (`run FILE --in-child`, which does not survive the trap itself) to find the run that dies the same way, shrinks it the same way, and
///   reports it. With several jobs, it first explores again with one job up to that run, so the
///   report is one job's. A worker stopped from outside (its run does not die again) is said to be so.
/// - Runs the worker replays in another process (another hash seed) are children too:
///   `run FILE --format json`, whose objects are compared with what the worker printed.
struct ExploreMode {
    let catalog: StoreCatalog
    let options: Explore

    /// The check the parent makes of its worker, named in every report.
    static let survivalCheck = "the process survives each action"

    func run() -> Int32 {
        if let folder = options.journal { return explore(journalingTo: folder) }
        return supervise()
    }

    private func settings(seed: UInt64) -> Explorer.Options {
        var settings = Explorer.Options(stores: options.stores, seed: seed)
        settings.runs = options.runs
        settings.steps = options.steps
        settings.invariants = options.invariants
        settings.seconds = options.time
        settings.shard = options.shard
        settings.jobs = min(options.jobs, options.runs)
        return settings
    }

    private func explorer(seed: UInt64) -> Explorer? {
        do {
            return try Explorer(catalog: catalog, options: settings(seed: seed))
        } catch {
            StandardStreams.shared.err(Diagnostic(error, kind: .usage))
            return nil
        }
    }

    /// The worker's command line: the options as parsed, with `seed`, `jobs` and `runs` given.
    private func workerArguments(seed: UInt64, jobs: Int, runs: Int, journal: String) -> [String] {
        var arguments = ["explore"] + options.stores + ["--journal", journal]
        arguments += [
            "--runs", String(runs), "--steps", String(options.steps), "--seed", String(seed), "--jobs", String(jobs),
        ]
        for invariant in options.invariants { arguments += ["--invariant", invariant] }
        if let save = options.save { arguments += ["--save", save] }
        if let time = options.time { arguments += ["--time", String(time)] }
        if let shard = options.shard { arguments += ["--shard", "\(shard.index)/\(shard.count)"] }
        if options.noColor { arguments.append("--no-color") }
        arguments.append("--format=\(options.format.rawValue)")
        return arguments
    }

    // MARK: - The parent

    private func supervise() -> Int32 {
        let streams = StandardStreams.shared
        let seed = options.seed ?? Self.randomSeed()
        // NB: checked here too, so that a usage error is reported once, before any child runs.
        guard let explorer = explorer(seed: seed) else { return 2 }
        let (made, problem) = ChildProcess.makeTemporaryFolder(named: "\(catalog.programName)-explore")
        guard let folder = made else {
            streams.err(Diagnostic(.usage, problem ?? "no temporary folder", hint: "set TMPDIR to a writable folder"))
            return 2
        }
        let files = Files(folder: folder, jobs: explorer.options.jobs)
        defer { files.remove() }
        Platform.forwardStopSignals()
        streams.flush()
        return explore(explorer, seed: seed, jobs: explorer.options.jobs, runs: options.runs, files: files)
    }

    /// The worker's files, in a private folder of their own.
    private struct Files {
        let folder: String
        let jobs: Int
        var errors: String { folder + "/stderr" }
        var candidate: String { folder + "/candidate.scenario" }
        var candidateErrors: String { folder + "/candidate-stderr" }
        /// The run under way of job `job`, as a script.
        func journal(_ job: Int) -> String { Self.journal(job, in: folder) }
        static func journal(_ job: Int, in folder: String) -> String { folder + "/run.\(job).scenario" }

        func remove() {
            for job in 0..<jobs { Platform.removeFile(journal(job)) }
            // NB: with the replays in another process's files, in case the worker was stopped there.
            for path in [
                errors, candidate, candidateErrors, folder + "/elsewhere.scenario", folder + "/elsewhere-stdout",
            ] {
                Platform.removeFile(path)
            }
            Platform.removeFolder(folder)
        }
    }

    /// Runs a worker and reports how it ended.
    private func explore(_ explorer: Explorer, seed: UInt64, jobs: Int, runs: Int, files: Files) -> Int32 {
        let streams = StandardStreams.shared
        let ending = ChildProcess.run(
            workerArguments(seed: seed, jobs: jobs, runs: runs, journal: files.folder), standardError: files.errors)
        let errorText = ChildProcess.contents(of: files.errors)
        switch ending {
        case .exited(let status)?:
            if !errorText.isEmpty { streams.err(String(errorText.dropLast(errorText.hasSuffix("\n") ? 1 : 0))) }
            return status
        case .signaled(let signal)?:
            if Platform.isStopSignal(signal) {
                // NB: stopped before it could catch the signal (while it started): no run was
                // made, and that is the report, as an interrupted exploration's.
                var report = parentReport(explorer)
                report.coverage = explorer.coverageBeforeAnyRun
                report.wasInterrupted = true
                return conclude(report, explorer, seconds: 0)
            }
            let journals = (0..<jobs).map { Self.journalRun(ChildProcess.contents(of: files.journal($0))) }
            let cause = ChildProcess.cause(errorText, signal: signal)
            // The run that dies again the same way, the lowest first.
            guard
                let dying = journals.sorted(by: { $0.run < $1.run }).first(where: {
                    dies(explorer, $0.commands, as: cause, files)
                })
            else {
                streams.err(
                    Diagnostic(
                        .usage,
                        "the exploring process ended by signal \(signal), and its last run does not end so again: "
                            + "stopped from outside?", hint: cause))
                return 128 + signal
            }
            if jobs > 1 {
                // NB: one job up to that run reports what one job would: an earlier run may fail first.
                return explore(explorer, seed: seed, jobs: 1, runs: dying.run + 1, files: files)
            }
            return reportTrap(explorer, commands: dying.commands, run: dying.run, cause: cause, files: files)
        case nil:
            streams.err(
                Diagnostic(.usage, "cannot start \(CommandLine.arguments.first ?? "fluxsh") again to explore in"))
            return 2
        }
    }

    /// Whether `commands`, run by `run FILE` in a child, end it the way the worker ended (same
    /// fatal error message, or same signal when there was none).
    private func dies(_ explorer: Explorer, _ commands: [Command], as cause: String, _ files: Files) -> Bool {
        guard
            (try? FileSystem.writeAtomically(explorer.script(of: commands), to: files.candidate, durable: false)) != nil
        else {
            return false
        }
        let ending = ChildProcess.run(
            ["run", files.candidate, "--in-child"], standardOutput: "/dev/null", standardError: files.candidateErrors)
        guard case .signaled(let signal) = ending else { return false }
        return ChildProcess.cause(ChildProcess.contents(of: files.candidateErrors), signal: signal) == cause
    }

    /// Shrinks the steps that trap, by replaying candidates in children, and reports them.
    private func reportTrap(_ explorer: Explorer, commands: [Command], run: Int, cause: String, files: Files)
        -> Int32
    {
        var spawns = 0
        let minimal = explorer.minimize(commands) { attempt in
            guard spawns < 400 else { return false }
            spawns += 1
            return dies(explorer, attempt, as: cause, files)
        }
        var report = parentReport(explorer)
        report.actions = commands.count { !$0.isSeed }
        report.failure = Explorer.Failure(
            check: .trap, message: cause, run: run, runSeed: 0, commands: commands,
            minimal: minimal.map { Explorer.Step(command: $0, wasRefused: false) },
            scenario: explorer.trapScenario(minimal, message: cause), minimalOutputs: minimal.map { _ in .printed(nil) }
        )
        return conclude(report, explorer, seconds: 0)
    }

    /// A report the parent makes itself, when the worker could not: the program and the checks,
    /// the survival of each action among them.
    private func parentReport(_ explorer: Explorer) -> Explorer.Report {
        var report = Explorer.Report(seed: explorer.options.seed)
        report.programName = catalog.programName
        report.checks = explorer.checkNames + [Self.survivalCheck]
        return report
    }

    /// Saves a failure's scenario and prints the report; the exit status: 1 after a failure, 2
    /// when nothing could be explored, else 0.
    private func conclude(_ report: Explorer.Report, _ explorer: Explorer, seconds: Double) -> Int32 {
        let streams = StandardStreams.shared
        var saved: String?
        // NB: interrupted with no failure found: 130, as a shell reports Ctrl-C.
        var status: Int32 = report.failure != nil ? 1 : report.wasInterrupted ? 130 : 0
        if let failure = report.failure {
            let file = options.save ?? Self.freeName(stores: options.stores, seed: explorer.options.seed)
            let replaces = FileSystem.kind(of: file) == .file
            do {
                try FileSystem.writeAtomically(failure.scenario, to: file)
                saved = file
                if replaces { streams.err(Diagnostic(.warning, "replaced '\(file)', which was there before")) }
            } catch {
                streams.err(Diagnostic(error, kind: .usage))
            }
        }
        if let reason = report.nothingToExplore {
            streams.err(Diagnostic(.usage, "nothing to explore: \(reason)"))
            status = 2
        }
        switch options.format {
        case .json:
            streams.out(
                Renderer(format: .json).jsonReport(report, options: explorer.options, seconds: seconds, savedTo: saved))
        case .text:
            let renderer = Renderer(colors: Platform.colorsOnStandardOutput(noColor: options.noColor))
            for line in renderer.report(report, options: explorer.options, seconds: seconds, savedTo: saved) {
                streams.out(line)
            }
        }
        return status
    }

    /// Where a failure is saved without `--save`: `explore-STORES-SEED.scenario` in the current
    /// folder (`explore-todos-7.scenario`), with `-2`, `-3`, … before the suffix when that file is
    /// there already, so that no exploration overwrites another's scenario.
    static func freeName(stores: [String], seed: UInt64) -> String {
        let safe = stores.joined(separator: "-").map { $0.isLetter || $0.isNumber || "_.-".contains($0) ? $0 : "_" }
        let stem = "explore-\(String(safe))-\(seed)"
        var file = stem + ".scenario"
        var number = 2
        while FileSystem.kind(of: file) != .missing {
            file = "\(stem)-\(number).scenario"
            number += 1
        }
        return file
    }

    /// A journal's run: its number (from its `# run N` line) and its steps.
    private static func journalRun(_ journal: String) -> (run: Int, commands: [Command]) {
        var run = -1
        var commands: [Command] = []
        for line in journal.split(separator: "\n") {
            if line.hasPrefix(Self.runComment) {
                run = Int(line.dropFirst(Self.runComment.count)) ?? -1
            } else if let command = try? CommandParser.parse(line).command {
                switch command {
                case .dispatch, .advance, .seed: commands.append(command)
                default: continue
                }
            }
        }
        return (run, commands)
    }

    /// The first line of a job's journal: `# run N`.
    private static let runComment = "# run "

    // MARK: - The children

    /// The worker: explores, writing each job's run under way as a script before its actions run.
    private func explore(journalingTo folder: String) -> Int32 {
        ChildProcess.rememberParent()
        // NB: before the journals exist: once they do, the parent may be stopped (Ctrl-C), and it
        // passes the signal on, which must end this worker with its report, not kill it unreported.
        Interruption.catchStopSignals()
        let streams = StandardStreams.shared
        guard let explorer = explorer(seed: options.seed ?? 0) else { return 2 }
        let jobs = explorer.options.jobs
        let journals = (0..<jobs).compactMap { Platform.RecordFile(path: Files.journal($0, in: folder), emptied: true) }
        defer { for journal in journals { journal.close() } }
        guard journals.count == jobs else {
            streams.err(Diagnostic(.usage, "cannot write the exploration journal in \(folder)"))
            return 2
        }
        // NB: one record per line: what is written before a trap is in the file. Each job's file
        // is emptied at each run: it holds the run under way, whole.
        explorer.isInterrupted = { Interruption.wasRequested }
        explorer.journal = { job, event in
            let journal = journals[job]
            let text: String
            switch event {
            case .start(let run):
                ChildProcess.endIfOrphaned()
                journal.empty()
                text = Self.runComment + "\(run)\n" + explorer.script(of: [])
            case .step(let command):
                text = command.description + "\n"
            }
            journal.append(text)
        }
        let start = ContinuousClock.now
        var report = explorer.explore()
        // NB: the same checks whatever the outcome: this process's survival is checked by its parent.
        report.checks.append(Self.survivalCheck)
        if report.failure == nil, report.nothingToExplore == nil, !report.wasInterrupted {
            report.failure = replayElsewhere(explorer, report.runsToReplayElsewhere, folder: folder)
        }
        let elapsed = start.duration(to: .now)
        return conclude(
            report, explorer,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The first runs replayed in another process, whose hash seed differs: a failure when one
    /// prints other lines there, shrunk by replaying candidates there too.
    private func replayElsewhere(
        _ explorer: Explorer, _ runs: [(run: Int, commands: [Command], outputs: [Explorer.StepOutput])],
        folder: String
    ) -> Explorer.Failure? {
        let script = folder + "/elsewhere.scenario"
        let output = folder + "/elsewhere-stdout"
        defer {
            Platform.removeFile(script)
            Platform.removeFile(output)
        }
        /// Each step's object as `run FILE --format json` printed it in a child (`line`,
        /// `command` and `action` left out), or `nil` when the child did not end normally.
        func printedElsewhere(_ commands: [Command]) -> [String]? {
            guard (try? FileSystem.writeAtomically(explorer.script(of: commands), to: script, durable: false)) != nil,
                case .exited = ChildProcess.run(
                    ["run", script, "--format", "json", "--in-child"], standardOutput: output,
                    standardError: "/dev/null")
            else { return nil }
            return ChildProcess.contents(of: output).split(separator: "\n").compactMap { line in
                guard case .object(let object)? = try? JSONParser.parse(line), object["command"] != .string("load")
                else { return nil }
                let members = object.members.filter { ["changes", "followUps", "error"].contains($0.key) }
                return JSONText.compact(.object(JSONObject(members.map { ($0.key, $0.value) })))
            }
        }
        func printedHere(_ outputs: [Explorer.StepOutput]) -> [String] { outputs.map { JSONText.compact($0.json) } }
        for run in runs {
            guard let elsewhere = printedElsewhere(run.commands), elsewhere != printedHere(run.outputs) else {
                continue
            }
            return explorer.replayElsewhereFailure(run: run.run, commands: run.commands) { candidate in
                guard let there = printedElsewhere(candidate) else { return false }
                return there != printedHere(explorer.outputs(of: candidate))
            }
        }
        return nil
    }

    /// A seed from the clock, printed so that the run can be repeated.
    private static func randomSeed() -> UInt64 {
        var random = SeededRandom(seed: Platform.wallClockNanoseconds())
        return random.next() % 1_000_000
    }
}

/// Ctrl-C (or SIGTERM) in the exploring process: no further run starts, and the report of the
/// runs made is printed, marked as interrupted.
enum Interruption {
    /// NB: an atomic, so that the signal handler may set it (a lock-free store is
    /// async-signal-safe) and every job's thread may read it.
    private static let requested = Atomic<Bool>(false)

    static var wasRequested: Bool { requested.load(ordering: .relaxed) }

    static func catchStopSignals() {
        let handler: SignalHandler = { _ in Interruption.requested.store(true, ordering: .relaxed) }
        Platform.onStopSignals(handler)
        Platform.receiveStopSignals()
    }
}
