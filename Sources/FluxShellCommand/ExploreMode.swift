import FluxShell

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `fluxsh explore`: runs the exploration, prints its report, writes the failing scenario.
struct ExploreMode {
    let catalog: StoreCatalog
    let options: Explore

    func run() -> Int32 {
        let streams = StandardStreams.shared
        var settings = Explorer.Options(stores: options.stores, seed: options.seed ?? Self.randomSeed())
        settings.runs = options.runs
        settings.steps = options.steps
        settings.invariants = options.invariants
        settings.seconds = options.time
        settings.shard = options.shard
        let explorer: Explorer
        do {
            explorer = try Explorer(catalog: catalog, options: settings)
        } catch {
            streams.err(ErrorText.render(error))
            return 2
        }
        let start = ContinuousClock.now
        let report = explorer.explore()
        let elapsed = start.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var saved: String?
        var status: Int32 = report.failure == nil ? 0 : 1
        if let failure = report.failure {
            let file = options.save ?? "explore-\(settings.seed).scenario"
            do {
                try FileSystem.writeAtomically(failure.scenario, to: file)
                saved = file
            } catch {
                streams.err(ErrorText.render(error))
                status = 1
            }
        }
        let renderer = Renderer(colors: Platform.colorsOnStandardOutput(noColor: options.common.noColor))
        for line in renderer.report(report, options: settings, seconds: seconds, savedTo: saved) { streams.out(line) }
        return status
    }

    /// A seed from the clock, printed so that the run can be repeated.
    private static func randomSeed() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var random = SeededRandom(seed: UInt64(bitPattern: Int64(time.tv_sec)) &* 1_000_000_007 &+ UInt64(time.tv_nsec))
        return random.next() % 1_000_000
    }
}
