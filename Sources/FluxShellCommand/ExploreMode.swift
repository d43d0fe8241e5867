import FluxShell

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `fluxsh explore`: explores in a child process of this executable, so that a trap in a store's
/// mutation (`fatalError`, an overflow, an index out of range) is a failure reported with the
/// actions that caused it, not the end of `fluxsh`.
///
/// - The child (the "worker") explores as usual, prints its report and writes the failing
///   scenario; before each action it appends it to a journal file.
/// - When the worker dies by a signal, this process reads the journal's last sequence, shrinks it
///   by running candidates in further children ("replays"), and reports the trap.
struct ExploreMode {
    let catalog: StoreCatalog
    let options: Explore

    static let journalVariable = "FLUXSH_EXPLORE_JOURNAL"
    static let replayVariable = "FLUXSH_EXPLORE_REPLAY"

    func run() -> Int32 {
        if let journal = Platform.environment(Self.journalVariable) { return explore(journalingTo: journal) }
        if let replay = Platform.environment(Self.replayVariable) { return self.replay(replay) }
        return supervise()
    }

    private func settings(seed: UInt64) -> Explorer.Options {
        var settings = Explorer.Options(stores: options.stores, seed: seed)
        settings.runs = options.runs
        settings.steps = options.steps
        settings.invariants = options.invariants
        settings.seconds = options.time
        settings.shard = options.shard
        settings.jobs = options.jobs
        return settings
    }

    private func explorer(seed: UInt64) -> Explorer? {
        do {
            return try Explorer(catalog: catalog, options: settings(seed: seed))
        } catch {
            StandardStreams.shared.err(ErrorText.render(error))
            return nil
        }
    }

    // MARK: - The parent

    private func supervise() -> Int32 {
        let streams = StandardStreams.shared
        let seed = options.seed ?? Self.randomSeed()
        // NB: checked here too, so that a usage error is reported once, before any child runs.
        guard let explorer = explorer(seed: seed) else { return 2 }
        let directory = Platform.environment("TMPDIR") ?? "/tmp"
        let stem = "\(directory)/\(catalog.programName)-explore-\(getpid())"
        let journal = stem + ".journal"
        let errors = stem + ".stderr"
        defer {
            for job in 0..<options.jobs { unlink(journal + ".\(job)") }
            unlink(errors)
        }
        var arguments = Array(CommandLine.arguments.dropFirst())
        if options.seed == nil { arguments += ["--seed", String(seed)] }
        streams.flush()
        let ending = ChildProcess.run(
            arguments, environment: [Self.journalVariable: journal, "SWIFT_BACKTRACE": "enable=no"], standardError: errors)
        let errorText = Self.contents(of: errors)
        switch ending {
        case .exited(let status)?:
            if !errorText.isEmpty { streams.err(String(errorText.dropLast(errorText.hasSuffix("\n") ? 1 : 0))) }
            return status
        case .signaled(let signal)?:
            let journals = (0..<options.jobs).map { Self.contents(of: journal + ".\($0)") }
            return reportTrap(explorer, signal: signal, journals: journals, errors: errorText, stem: stem)
        case nil:
            streams.err("error: cannot run \(ChildProcess.executablePath) to explore in")
            return 2
        }
    }

    /// Shrinks the sequence the worker died in, by replaying candidates in children, and reports it.
    private func reportTrap(_ explorer: Explorer, signal: Int32, journals: [String], errors: String, stem: String) -> Int32 {
        let streams = StandardStreams.shared
        // Each job's last sequence; with several jobs, the one that traps again is the culprit.
        let sequences = journals.map { journal in
            var actions: [ActionInvocation] = []
            for line in journal.split(separator: "\n", omittingEmptySubsequences: false) {
                if line == "start" {
                    actions = []
                } else if case .dispatch(let action)? = try? CommandParser.parse(line).command {
                    actions.append(action)
                }
            }
            return actions
        }
        let cause =
            errors.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("fatal error") }.map(String.init)
            ?? (signal == SIGILL || signal == SIGTRAP
                ? "signal \(signal): a Swift runtime trap (an overflow, nil force-unwrapped, an index out of range, …)"
                : "signal \(signal)")
        let candidate = stem + ".replay"
        defer { unlink(candidate) }
        var spawns = 0
        func traps(_ attempt: [ActionInvocation]) -> Bool {
            guard spawns < 400 else { return false }
            spawns += 1
            let text = attempt.map { "dispatch " + $0.description + "\n" }.joined()
            guard (try? FileSystem.writeAtomically(text, to: candidate)) != nil else { return false }
            let ending = ChildProcess.run(
                Array(CommandLine.arguments.dropFirst()),
                environment: [Self.replayVariable: candidate, "SWIFT_BACKTRACE": "enable=no"],
                standardOutput: "/dev/null", standardError: "/dev/null")
            if case .signaled = ending { return true }
            return false
        }
        let actions = sequences.count == 1 ? sequences[0] : sequences.first(where: traps) ?? sequences[0]
        let minimal = explorer.minimize(actions, fails: traps)
        let seed = explorer.options.seed
        let scenario = explorer.trapScenario(minimal, message: cause)
        let file = options.save ?? "explore-\(seed).scenario"
        var saved: String? = file
        do {
            try FileSystem.writeAtomically(scenario, to: file)
        } catch {
            streams.err(ErrorText.render(error))
            saved = nil
        }
        var report = Explorer.Report(seed: seed)
        report.programName = catalog.programName
        report.checks = explorer.checkNames + ["the process survives each action"]
        report.actions = actions.count
        report.failure = Explorer.Failure(
            check: .trap, message: cause, run: 0, runSeed: 0, actions: actions,
            minimal: minimal.map { Explorer.Step(action: $0, wasRefused: false) }, scenario: scenario,
            minimalLines: minimal.map { _ in [] })
        let renderer = Renderer(colors: Platform.colorsOnStandardOutput(noColor: options.common.noColor))
        for line in renderer.report(report, options: explorer.options, seconds: 0, savedTo: saved) { streams.out(line) }
        return 1
    }

    private static func contents(of path: String) -> String {
        guard let bytes = try? FileSystem.read(path) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - The children

    /// The worker: explores, announcing each action in the journal before dispatching it.
    private func explore(journalingTo path: String) -> Int32 {
        let streams = StandardStreams.shared
        guard let explorer = explorer(seed: options.seed ?? 0) else { return 2 }
        // NB: a journal per job, so that each job's last sequence is whole.
        let descriptors = (0..<options.jobs).map { open(path + ".\($0)", O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600) }
        defer { for descriptor in descriptors where descriptor >= 0 { close(descriptor) } }
        guard descriptors.allSatisfy({ $0 >= 0 }) else {
            streams.err("error: cannot write the exploration journal \(path)")
            return 2
        }
        // NB: one write(2) per line, unbuffered: what is written before a trap is in the file.
        explorer.journal = { job, event in
            let line: String
            switch event {
            case .start: line = "start\n"
            case .action(let action): line = "dispatch " + action.description + "\n"
            }
            var text = line
            let descriptor = descriptors[job]
            text.withUTF8 { bytes in _ = write(descriptor, bytes.baseAddress, bytes.count) }
        }
        let start = ContinuousClock.now
        let report = explorer.explore()
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var saved: String?
        var status: Int32 = report.failure == nil ? 0 : 1
        if let failure = report.failure {
            let file = options.save ?? "explore-\(explorer.options.seed).scenario"
            do {
                try FileSystem.writeAtomically(failure.scenario, to: file)
                saved = file
            } catch {
                streams.err(ErrorText.render(error))
                status = 1
            }
        }
        let renderer = Renderer(colors: Platform.colorsOnStandardOutput(noColor: options.common.noColor))
        for line in renderer.report(report, options: explorer.options, seconds: seconds, savedTo: saved) { streams.out(line) }
        return status
    }

    /// A replay of the actions in a file, one per line: it ends normally unless an action traps.
    private func replay(_ path: String) -> Int32 {
        guard let explorer = explorer(seed: 0) else { return 2 }
        var actions: [ActionInvocation] = []
        for line in Self.contents(of: path).split(separator: "\n") {
            if case .dispatch(let action)? = try? CommandParser.parse(line).command { actions.append(action) }
        }
        _ = explorer.run(actions)
        return 0
    }

    /// A seed from the clock, printed so that the run can be repeated.
    private static func randomSeed() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var random = SeededRandom(seed: UInt64(bitPattern: Int64(time.tv_sec)) &* 1_000_000_007 &+ UInt64(time.tv_nsec))
        return random.next() % 1_000_000
    }
}
