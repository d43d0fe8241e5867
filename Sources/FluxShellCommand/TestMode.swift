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
        let colors = Colors(enabled: !options.noColor && Platform.environment("NO_COLOR") == nil && Platform.isTerminal(1))
        for result in results {
            let status = result.passed ? colors.green("PASS") : colors.red("FAIL")
            streams.out("\(status) \(result.path)" + (result.wasUpdated ? " (updated)" : ""))
        }
        let failed = results.filter { !$0.passed }
        for result in failed {
            streams.out("")
            for line in result.report { streams.out(line) }
        }
        if let junit = options.junit {
            do {
                try FileSystem.writeAtomically(JUnitReport.xml(for: results, seconds: seconds), to: junit)
            } catch {
                streams.err(ErrorText.render(error, at: nil))
                return 2
            }
        }
        if !failed.isEmpty { streams.out("") }
        streams.out("\(results.count - failed.count) passed, \(failed.count) failed")
        return failed.isEmpty ? 0 : 1
    }
}
