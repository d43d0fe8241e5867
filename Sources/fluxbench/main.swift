import FluxCore
import FluxShellCommand

#if canImport(Glibc)
    import Glibc
#endif

/// Nanoseconds per call of `body`, the best of `rounds` rounds of `iterations` calls.
@discardableResult
func measure(_ name: String, iterations: Int = 2_000_000, rounds: Int = 5, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<rounds {
        let start = ContinuousClock.now
        for _ in 0..<iterations { body() }
        let elapsed = ContinuousClock.now - start
        let seconds =
            Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds * 1e9 / Double(iterations))
    }
    let label = name.padding(to: 64)
    print("\(label)\((best * 10).rounded() / 10) ns/action")
    return best
}

extension String {
    func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(1, width - count))
    }
}

switch CommandLine.arguments.dropFirst().first {
case "shell-counter":
    ShellBenchmarks.counterIncrements()
    exit(0)
case "shell-toggle":
    ShellBenchmarks.toggleAmongManyTodos()
    exit(0)
case "diff":
    DiffBenchmarks.run()
    exit(0)
case "record":
    ShellBenchmarks.recordedDispatches()
    exit(0)
case "memory":
    ShellBenchmarks.teamMemory(CommandLine.arguments.dropFirst(2).first ?? "identified")
    exit(0)
case "memory-large":
    ShellBenchmarks.largeStateMemory()
    exit(0)
case "shell":
    // A shell whose stores are the memory figures' teams, for lines piped in as a user would:
    // `fluxbench shell < LINES`.
    FluxShellMain.run(catalog: ShellBenchmarks.teamCatalog, arguments: Array(CommandLine.arguments.dropFirst(2)))
case "explore":
    ExploreBenchmarks.run()
    exit(0)
case "forms":
    FormsBenchmarks.run(only: CommandLine.arguments.dropFirst(2).first)
    exit(0)
case "forms-agent":
    FormsBenchmarks.runAgent(only: CommandLine.arguments.dropFirst(2).first)
    exit(0)
case "effects":
    EffectsBenchmarks.run(only: CommandLine.arguments.dropFirst(2).first)
    exit(0)
case "pinned":
    PinnedBenchmarks.run()
    exit(0)
case "edit":
    EditBenchmarks.run()
    exit(0)
case "agent":
    AgentBenchmarks.run(only: CommandLine.arguments.dropFirst(2).first)
    exit(0)
default:
    break
}

print("FluxCore dispatch benchmarks (release build, best of 5 rounds)")

do {
    // On the main thread, so the presenter reflects at once, as an app's tap does.
    let floorView = FloorCounterView()
    let floor = FloorStore()
    floor.view = floorView
    let floorTime = measure("hand-written floor: lock, copy, mutate, unlock, weak view") { floor.increment() }
    precondition(floorView.last == floor.count)

    let view = CounterView()
    let flux = Flux(state: CounterState(), mutation: CounterMutation())
    let presenter = Presenter(view: view, flux: flux)
    let time = measure("counter, one reflecting view") { presenter.dispatch(.increment) }
    precondition(view.last == flux.store.state.count)
    print("counter, one reflecting view / floor".padding(to: 64) + "\((time / floorTime * 100).rounded() / 100)x")
}

do {
    let view = WideView()
    let flux = Flux(state: WideState(), mutation: WideMutation())
    let presenter = Presenter(view: view, flux: flux)
    measure("50 Ints + [String] x 1,000, view reads one unchanged property") {
        presenter.dispatch(.increment)
    }
    precondition(view.reads == 0)
}

do {
    let flux = Flux(state: CounterState(), mutation: CounterMutation())
    let tally = Tally()
    for _ in 0..<10 {
        flux.dispatcher.register { _ in tally.total &+= 1 }
    }
    measure("counter, 10 subscribers") { flux.dispatcher.dispatch(.increment) }
    precondition(tally.total == flux.store.state.count * 10)
}
if CommandLine.arguments.dropFirst().first != "core" {
    ShellBenchmarks.run()
    DiffBenchmarks.run()
    ExploreBenchmarks.run()
}
