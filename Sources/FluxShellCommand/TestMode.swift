import FluxShell

/// `fluxsh test`: replays scenarios and prints PASS/FAIL lines, failures, and `N passed, M failed`.
struct TestMode {
    let catalog: StoreCatalog
    let options: Test

    func run() -> Int32 {
        let streams = StandardStreams.shared
        let paths = options.paths.isEmpty ? ["Scenarios"] : options.paths
        var runnerOptions = ScenarioRunner.Options()
        runnerOptions.jobs = options.jobs ?? Platform.processorCount
        runnerOptions.filter = options.filter
        runnerOptions.shard = options.shard
        runnerOptions.exhaustive = options.exhaustive
        runnerOptions.update = options.update
        runnerOptions.bail = options.common.bail
        let runner = ScenarioRunner(catalog: catalog, options: runnerOptions)
        let files: [String]
        do {
            files = runner.select(try ScenarioRunner.discover(paths))
        } catch {
            streams.err(ErrorText.render(error, at: nil))
            return 2
        }
        guard !files.isEmpty else {
            streams.err(
                "error: no scenario found in \(paths.joined(separator: ", "))"
                    + (options.filter != nil || options.shard != nil ? " (after --filter/--shard)" : "")
                    + " (scenario files end in .scenario)")
            return 2
        }
        let start = ContinuousClock.now
        let results = runner.run(files)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if options.common.format == .json {
            return reportJSON(results, seconds: seconds, junitStatus: writeJUnit(results, seconds: seconds))
        }
        let colors = Colors.forStandardOutput(noColor: options.common.noColor)
        for result in results {
            let status = result.passed ? colors.green("PASS") : colors.red("FAIL")
            streams.out("\(status) \(result.path)" + (result.wasUpdated ? " (updated)" : ""))
        }
        let failed = results.filter { !$0.passed }
        for result in failed {
            streams.out("")
            for line in result.report { streams.out(line) }
        }
        if let status = writeJUnit(results, seconds: seconds) { return status }
        if !failed.isEmpty { streams.out("") }
        streams.out("\(results.count - failed.count) passed, \(failed.count) failed")
        return failed.isEmpty ? 0 : 1
    }

    /// Writes `--junit`; a status to exit with when it cannot.
    private func writeJUnit(_ results: [ScenarioRunner.Result], seconds: Double) -> Int32? {
        guard let junit = options.junit else { return nil }
        do {
            try FileSystem.writeAtomically(JUnitReport.xml(for: results, seconds: seconds), to: junit)
            return nil
        } catch {
            StandardStreams.shared.err(ErrorText.render(error, at: nil))
            return 2
        }
    }

    /// `--format json`: one object per scenario, then `{"passed":N,"failed":M}`.
    private func reportJSON(_ results: [ScenarioRunner.Result], seconds: Double, junitStatus: Int32?) -> Int32 {
        let streams = StandardStreams.shared
        for result in results {
            let failures: [JSONValue] = result.failures.map { failure in
                .object(
                    JSONObject([
                        ("line", .int(failure.location.line)),
                        ("error", .string(failure.lines.joined(separator: "\n"))),
                    ]))
            }
            streams.out(
                JSONText.compact(
                    .object(
                        JSONObject([
                            ("path", .string(result.path)), ("passed", .bool(result.passed)),
                            ("updated", .bool(result.wasUpdated)), ("failures", .array(failures)),
                        ]))))
        }
        let failed = results.filter { !$0.passed }.count
        streams.out(
            JSONText.compact(
                .object(JSONObject([("passed", .int(results.count - failed)), ("failed", .int(failed))]))))
        if let junitStatus { return junitStatus }
        return failed == 0 ? 0 : 1
    }
}
