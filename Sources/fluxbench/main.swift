import FluxCore

#if canImport(Glibc)
    import Glibc
#endif

/// Nanoseconds per call of `body`, the best of `rounds` rounds of `iterations` calls.
func measure(_ name: String, iterations: Int = 2_000_000, rounds: Int = 5, _ body: () -> Void) {
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
default:
    break
}

print("FluxCore dispatch benchmarks (release build, best of 5 rounds)")

do {
    let view = CounterView()
    let flux = Flux(state: CounterState(), mutation: CounterMutation())
    let presenter = Presenter(view: view, flux: flux)
    measure("counter, one reflecting view") { presenter.dispatch(.increment) }
    precondition(view.last == flux.store.state.count)
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
ShellBenchmarks.run()
DiffBenchmarks.run()
