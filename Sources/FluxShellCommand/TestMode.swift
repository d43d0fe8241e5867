@_spi(Engine) import FluxShell

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
            streams.err(Diagnostic(error, kind: .usage))
            return 2
        }
        guard !files.isEmpty else {
            streams.err(
                Diagnostic(
                    .usage,
                    "no scenario found in \(paths.joined(separator: ", "))"
                        + (options.filter != nil || options.shard != nil ? " (after --filter/--shard)" : ""),
                    hint: "scenario files end in .scenario"))
            return 2
        }
        let start = ContinuousClock.now
        let results = runner.run(files)
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let junitStatus = writeJUnit(results, seconds: seconds)
        let renderer = Renderer(
            format: options.common.format,
            colors: options.common.format == .text && Platform.colorsOnStandardOutput(noColor: options.common.noColor))
        for line in renderer.report(results) { streams.out(line) }
        if let junitStatus { return junitStatus }
        return results.allSatisfy(\.passed) ? 0 : 1
    }

    /// Writes `--junit`; a status to exit with when it cannot.
    private func writeJUnit(_ results: [ScenarioRunner.Result], seconds: Double) -> Int32? {
        guard let junit = options.junit else { return nil }
        do {
            try FileSystem.writeAtomically(JUnitReport.xml(for: results, seconds: seconds), to: junit)
            return nil
        } catch {
            StandardStreams.shared.err(Diagnostic(error, kind: .usage))
            return 2
        }
    }
}
