import FluxShell

/// `fluxsh test`: replays scenarios and prints PASS/FAIL lines, failures, and `N passed, M failed`.
///
/// A scenario whose store traps fails; the run goes on (“Scenarios” in the reference). The
/// scenarios run in a child process of this executable (the same command with `--results FILE`),
/// which prints the report as usual and writes each result to FILE as soon as it is known. When the
/// child dies by a signal, the scenarios that were running are run again alone, traced, to name the
/// line that trapped; further children run the rest; then this process prints the report.
struct TestMode {
    let catalog: StoreCatalog
    let options: Test

    func run() -> Int32 {
        if options.results == nil, !options.inChild, let status = supervise() { return status }
        guard let (runner, files, unwalked) = select() else { return 2 }
        let results = run(files, runner: runner)
        guard !options.inChild else { return 0 }
        let status = report(results.ordered, of: files, seconds: results.seconds)
        return unwalked ? max(status, 2) : status
    }

    /// The runner for the options, and the scenario files it runs, and whether a folder could
    /// not be read (a usage error, reported with each link that loops); `nil` after a usage error
    /// that leaves nothing to run (reported).
    private func select() -> (ScenarioRunner, [String], unwalked: Bool)? {
        let streams = StandardStreams.shared
        let paths = options.paths.isEmpty ? ["Scenarios"] : options.paths
        var runnerOptions = ScenarioRunner.Options()
        runnerOptions.updateCommand = "\(catalog.programName) test --update"
        runnerOptions.jobs = options.jobs ?? Platform.processorCount
        runnerOptions.filter = options.filter
        runnerOptions.shard = options.shard
        runnerOptions.exhaustive = options.exhaustive
        runnerOptions.update = options.update
        runnerOptions.bail = options.bail
        let runner = ScenarioRunner(catalog: catalog, options: runnerOptions)
        let files: [String]
        var problems: [Diagnostic] = []
        do {
            files = runner.select(try ScenarioRunner.discover(paths, problems: &problems))
        } catch {
            streams.err(Diagnostic(error, kind: .usage))
            return nil
        }
        // NB: the process that prints the report says what it could not walk; the children that
        // run what is left after a trap do not say it again.
        if !options.inChild { for problem in problems { streams.err(problem) } }
        let unwalked = problems.contains { $0.kind == .usage }
        guard !files.isEmpty else {
            streams.err(
                Diagnostic(
                    .usage,
                    "no scenario found in \(paths.joined(separator: ", "))"
                        + (options.filter != nil || options.shard != nil ? " (after --filter/--shard)" : ""),
                    hint: "scenario files end in .scenario"))
            return nil
        }
        return (runner, files, unwalked)
    }

    /// In a child: runs the scenarios, writing each result to `--results` as one JSON object (the
    /// report's, with `seconds`) as soon as it is known; a trap ends the process, and its parent
    /// goes on from there.
    private func run(_ files: [String], runner: ScenarioRunner) -> (ordered: [ScenarioRunner.Result], seconds: Double) {
        TrapSurvival.flushOutputOnTrap()
        var runner = runner
        if options.traceLines { runner.options.beforeEachLine = { TrapSurvival.trace($0) } }
        var journal: Platform.RecordFile?
        if let path = options.results {
            journal = Platform.RecordFile(path: path, emptied: false)
            guard let journal else {
                StandardStreams.shared.err(Diagnostic(.usage, "cannot write the results to \(path)"))
                Platform.exit(2)
            }
            let renderer = Renderer(format: .json)
            let lock = LockedValue(())
            runner.options.onResult = { [journal] result in
                var object = renderer.json(of: result)
                object["seconds"] = .double(result.seconds)
                // NB: one record per result: what is written before a trap is in the file.
                lock.locked { journal.append(JSONText.compact(.object(object)) + "\n") }
            }
        }
        defer { journal?.close() }
        let start = ContinuousClock.now
        let results = runner.run(files)
        let elapsed = ContinuousClock.now - start
        return (results, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// The report, the JUnit file, and the exit status; the `files` without a result are those
    /// `--bail` left unstarted.
    private func report(_ results: [ScenarioRunner.Result], of files: [String], seconds: Double) -> Int32 {
        let ran = Set(results.map(\.path))
        let notRun = files.filter { !ran.contains($0) }
        let junitStatus = writeJUnit(results, notRun: notRun, seconds: seconds)
        let renderer = Renderer(
            format: options.output.format,
            colors: options.output.format == .text && Platform.colorsOnStandardOutput(noColor: options.output.noColor))
        for line in renderer.report(results, notRun: notRun.count) { StandardStreams.shared.out(line) }
        if let junitStatus { return junitStatus }
        if results.contains(where: { $0.failures.contains { $0.kind == .usage } }) { return 2 }
        return results.allSatisfy(\.passed) ? 0 : 1
    }

    /// Runs the whole command in a child that prints as usual; when it dies by a signal, goes on
    /// from the results it wrote and prints the report itself. `nil` when no child can be started
    /// (no temporary folder, no `/proc/self/exe`): the scenarios then run in this process.
    private func supervise() -> Int32? {
        let streams = StandardStreams.shared
        guard ChildProcess.executablePath != nil else { return nil }
        let (made, _) = ChildProcess.makeTemporaryFolder(named: "\(catalog.programName)-test")
        guard let folder = made else { return nil }
        let journal = folder + "/results"
        let errors = folder + "/stderr"
        defer {
            for path in [journal, errors] { Platform.removeFile(path) }
            Platform.removeFolder(folder)
        }
        let start = ContinuousClock.now
        streams.flush()
        Platform.forwardStopSignals()
        // NB: the child's standard error is shown once it ends, unless it died: its fatal error is
        // then part of the report.
        let ending = ChildProcess.run(
            ["test"] + options.optionArguments + ["--results", journal, "--"] + options.paths, standardError: errors)
        guard case .signaled(let signal)? = ending else {
            guard case .exited(let status)? = ending else { return nil }
            let text = ChildProcess.contents(of: errors)
            if !text.isEmpty { streams.err(String(text.dropLast(text.hasSuffix("\n") ? 1 : 0))) }
            return status
        }
        if Platform.isStopSignal(signal) { return 128 + signal }
        // NB: the child died before its report: what it did is in the journal; the rest goes on here.
        guard let (runner, files, unwalked) = select() else { return 2 }
        var results: [String: ScenarioRunner.Result] = [:]
        for result in Self.results(in: ChildProcess.contents(of: journal)) { results[result.path] = result }
        let unexplained = runRemaining(
            files, after: signal, runner: runner, journal: journal, errors: errors, results: &results)
        if !runner.options.bail {
            // NB: a scenario nothing ran (a child that could not start) is a failure, not a pass.
            for file in files where results[file] == nil {
                results[file] = ScenarioRunner.Result(
                    path: file,
                    failures: [
                        Diagnostic(
                            .failedLine, "not run: the process that was to run it ended first",
                            at: .init(file: file, line: 1))
                    ])
            }
        }
        let elapsed = ContinuousClock.now - start
        let status = report(
            files.compactMap { results[$0] }, of: files,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        for signal in unexplained {
            streams.err(
                Diagnostic(
                    .failedLine,
                    "a process running scenarios ended by signal \(signal), and none of those it was running ends so alone",
                    hint: "a store that traps only some of the time, or only when scenarios run together?"))
        }
        return max(status, unexplained.isEmpty ? 0 : 1, unwalked ? 2 : 0)
    }

    /// After the child died by `signal`: runs the scenarios it left unfinished, each of those it
    /// was running alone (with their lines traced, to find the one that trapped), then the rest
    /// together, until every one has a result. Returns the signals no scenario alone explains.
    private func runRemaining(
        _ files: [String], after signal: Int32, runner: ScenarioRunner, journal: String, errors: String,
        results: inout [String: ScenarioRunner.Result]
    ) -> [Int32] {
        let jobs = max(1, min(runner.options.jobs, files.count))
        var unexplained: [Int32] = []
        var lastSignal = signal
        var remaining = files.filter { results[$0] == nil }
        while !remaining.isEmpty {
            // NB: scenarios are started in order: those that were running are the first unfinished.
            var trapped = false
            for file in remaining.prefix(jobs) {
                Platform.removeFile(journal)
                let again = ChildProcess.run(
                    ["test"] + childOptions + ["--jobs", "1", "--trace-lines", "--results", journal, "--", file],
                    standardOutput: "/dev/null", standardError: errors)
                if case .signaled(let signal)? = again, !Platform.isStopSignal(signal) {
                    let trace = TrapSurvival.Trace(errors: ChildProcess.contents(of: errors), signal: signal)
                    results[file] = ScenarioRunner.Result(path: file, failures: [trace.diagnostic(file: file)])
                    trapped = true
                } else if let result = Self.results(in: ChildProcess.contents(of: journal)).first {
                    results[file] = result
                }
            }
            if !trapped { unexplained.append(lastSignal) }
            remaining.removeAll { results[$0] != nil }
            if remaining.isEmpty || (runner.options.bail && results.values.contains { !$0.passed }) { break }
            Platform.removeFile(journal)
            let rest = ChildProcess.run(
                ["test"] + childOptions + ["--jobs", String(jobs), "--results", journal, "--"] + remaining,
                standardOutput: "/dev/null", standardError: errors)
            for result in Self.results(in: ChildProcess.contents(of: journal)) { results[result.path] = result }
            remaining.removeAll { results[$0] != nil }
            guard case .signaled(let signal)? = rest, !Platform.isStopSignal(signal) else { break }
            lastSignal = signal
        }
        return unexplained
    }

    /// The options of the children that run what is left after a trap: as given, but without
    /// the report's (they print nothing) and the selection's (they are given the files).
    private var childOptions: [String] {
        var arguments = ["--in-child"]
        if options.exhaustive { arguments.append("--exhaustive") }
        if options.update { arguments.append("--update") }
        if options.bail { arguments.append("--bail") }
        return arguments
    }

    /// The results a child printed, one JSON object a line; a failure's text comes back as the
    /// message of a diagnostic, which prints the same.
    private static func results(in output: String) -> [ScenarioRunner.Result] {
        output.split(separator: "\n").compactMap { line in
            guard case .object(let object)? = try? JSONParser.parse(line), case .string(let path)? = object["path"]
            else {
                return nil
            }
            var failures: [Diagnostic] = []
            if case .array(let list)? = object["failures"] {
                for case .object(let failure) in list {
                    guard case .string(let text)? = failure["error"] else { continue }
                    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    let message = lines.removeFirst()
                    var location: SourceLocation?
                    if case .int(let number)? = failure["line"] { location = SourceLocation(file: path, line: number) }
                    var diagnostic = Diagnostic(.failedLine, message, at: location, details: lines)
                    if case .array(let expected)? = failure["expected"], case .array(let actual)? = failure["actual"] {
                        func texts(_ values: [JSONValue]) -> [String] {
                            values.compactMap { if case .string(let text) = $0 { text } else { nil } }
                        }
                        diagnostic.diff = (texts(expected), texts(actual))
                    }
                    failures.append(diagnostic)
                }
            }
            var seconds = 0.0
            if case .double(let value)? = object["seconds"] { seconds = value }
            if case .int(let value)? = object["seconds"] { seconds = Double(value) }
            return ScenarioRunner.Result(
                path: path, failures: failures, wasUpdated: object["updated"] == .bool(true), seconds: seconds)
        }
    }

    /// Writes `--junit`; a status to exit with when it cannot.
    private func writeJUnit(_ results: [ScenarioRunner.Result], notRun: [String], seconds: Double) -> Int32? {
        guard let junit = options.junit else { return nil }
        do {
            try FileSystem.writeAtomically(JUnitReport.xml(for: results, notRun: notRun, seconds: seconds), to: junit)
            return nil
        } catch {
            StandardStreams.shared.err(Diagnostic(error, kind: .usage))
            return 2
        }
    }
}
