import FluxShell
import FluxShellExplore
import FluxShellLanguage
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Effects that take time (`fluxbench effects`): what an effect that ends at once adds to a
/// piped line, against the same store without one in the same run; how fast `advance` runs a
/// timer's ticks; how many checked steps `explore` makes on a store with effects.
enum EffectsBenchmarks {
    struct Timer {
        var ticks = 0
        var running = false
        var titles: [String] = []
        var count = 0
        var showsDone = false
    }

    enum Action {
        case add(title: String)
        case increment
        case toggle
        case start
        case tick
        case stop
        /// Starts 1,000 effects returned by the reducer, each sleeping a second, then ticking.
        case spawn
    }

    static func reduce(_ state: inout Timer, _ action: Action) {
        switch action {
        case .add(let title):
            if state.titles.count >= 20 { state.titles.removeFirst() }
            state.titles.append(title)
        case .increment: state.count &+= 1
        case .toggle: state.showsDone.toggle()
        case .start: state.running = true
        case .tick: state.ticks &+= 1
        case .stop: state.running = false
        case .spawn: return
        }
    }

    /// The reducer returning its effects (`StoreEffect`): `spawn` starts 1,000 sleepers.
    static func reduceWithEffects(_ state: inout Timer, _ action: Action) -> StoreEffect<Action> {
        reduce(&state, action)
        guard case .spawn = action else { return .none }
        return .merge(
            (0..<1_000).map { _ in
                StoreEffect<Action>.run { send in
                    try await send.environment.clock.sleep(for: .seconds(1))
                    await send(.tick)
                }
            })
    }

    /// Ends at once for every action but `start`, whose timer ticks every millisecond until
    /// `stop` (or 3 ticks in `explore`'s store).
    static func effect(_ action: Action, _ state: Timer, _ context: EffectContext<Action>, ticks: Int) async throws
        -> [Action]
    {
        guard case .start = action else { return [] }
        for _ in 0..<ticks {
            try await context.environment.clock.sleep(for: .milliseconds(1))
            context.send(.tick)
        }
        return [.stop]
    }

    /// A store object whose library starts its own tasks: `spawn` starts 1,000 `Task {}`s, each
    /// asleep on the clock it was made with for a second, then sending `tick`.
    final class TaskTimer: Sendable {
        private let current = LockedValue(Timer())
        let clock: ShellClock
        /// Set once, by `observe:`, before any action is sent.
        var onAction: ((Action, Timer) -> Void)? {
            get { hook.withLock { $0 } }
            set { hook.withLock { $0 = newValue } }
        }
        private let hook = LockedValue<((Action, Timer) -> Void)?>(nil)

        init(clock: ShellClock) { self.clock = clock }

        var state: Timer { current.withLock { $0 } }

        func send(_ action: Action) {
            let state = current.withLock { current -> Timer in
                EffectsBenchmarks.reduce(&current, action)
                return current
            }
            onAction?(action, state)
            guard case .spawn = action else { return }
            for _ in 0..<1_000 {
                Task { [clock] in
                    do { try await clock.sleep(for: .seconds(1)) } catch { return }
                    self.send(.tick)
                }
            }
        }
    }

    static let catalog = StoreCatalog([
        StoreDefinition("plain", state: Timer(), reduce: reduce),
        StoreDefinition("sleepers", state: Timer(), reduce: reduceWithEffects),
        StoreDefinition(
            "tasks", make: { env in TaskTimer(clock: env.clock) }, state: { $0.state },
            send: { store, action in store.send(action) },
            observe: { store, feed in store.onAction = { action, state in feed.record(action, state: state) } }),
        StoreDefinition(
            "effect", state: Timer(), reduce: reduce,
            effect: { action, state, context in try await effect(action, state, context, ticks: 10_000) }),
        StoreDefinition(
            "short", state: Timer(), reduce: reduce,
            effect: { action, state, context in try await effect(action, state, context, ticks: 3) },
            invariants: [StoreInvariant("ticks are not negative") { $0.ticks >= 0 }]),
    ])

    static func run(only: String? = nil) {
        print("Effects over time (release build, in process)")
        if only == nil || only == "line" { perLine() }
        if only == nil || only == "advance" { advance() }
        if only == nil || only == "sleepers" { sleepers(of: "sleepers", "sleeping effects a reducer returned") }
        if only == nil || only == "tasks" { sleepers(of: "tasks", "sleeping tasks a store's library started") }
        if only == nil || only == "explore" { explore() }
    }

    /// One piped line (parsed, dispatched, diffed, rendered) of a store whose effect ends at once
    /// for it, against the same store with no effect: best of 5 rounds of 60,000 lines.
    static func perLine() {
        // NB: FLUXBENCH_ROUNDS=1 with few lines, for counting instructions under callgrind.
        let rounds = getenv("FLUXBENCH_ROUNDS").flatMap { Int(String(cString: $0)) } ?? 5
        let count = rounds == 5 ? 60_000 : 6_000
        // NB: the lines of `fluxbench forms`: an add, an increment, a toggle, in turn.
        let lines = (0..<count).map { index -> Command in
            let text =
                switch index % 3 {
                case 0: "dispatch add title: t\(index)"
                case 1: "dispatch increment"
                default: "dispatch toggle"
                }
            return try! CommandParser.parse(text).command!
        }
        var perLine: [String: Double] = [:]
        let only = getenv("FLUXBENCH_STORE").map { String(cString: $0) }
        for store in ["plain", "effect"] where only == nil || only == store {
            var best = Double.infinity
            for _ in 0..<rounds {
                let session = Session(catalog: catalog)
                _ = ShellBenchmarks.execute(session, "load \(store)")
                let start = ContinuousClock.now
                let printed = FormsBenchmarks.linesPrinted(lines, in: session)
                precondition(printed == lines.count)
                best = min(best, AgentBenchmarks.seconds(since: start) * 1e9 / Double(lines.count))
            }
            perLine[store] = best
        }
        guard let plain = perLine["plain"], let effect = perLine["effect"] else { return }
        print("a line, no effect:".padding(to: 64) + "\((plain * 10).rounded() / 10) ns/line")
        print(
            "a line whose effect ends at once:".padding(to: 64)
                + "\((effect * 10).rounded() / 10) ns/line  (\(AgentBenchmarks.ratio(effect, plain)) no effect)")
    }

    /// `advance 10` through a timer that ticks every millisecond: 10,000 wakes, each sending an
    /// action whose diff is printed. Best of 5.
    static func advance() {
        let best = bestAdvance("advance 10", store: "effect", starting: "start", ticks: 10_000)
        print(
            "advance through 10,000 timer ticks (each sends one action):".padding(to: 64)
                + "\((best * 1000 * 10).rounded() / 10) ms (\(Int(10_000 / best)) effect steps/s)")
    }

    /// `advance 1` over the 1,000 sleepers `spawn` starts in `store`: effects a reducer returned
    /// (`.merge` of `.run`s, `sleepers`) or tasks a store object's library started (`Task {}`,
    /// `tasks`), each asleep on the clock for a second, then sending one action whose diff is
    /// printed. Best of 5.
    static func sleepers(of store: String, _ what: String) {
        let best = bestAdvance("advance 1", store: store, starting: "spawn", ticks: 1_000)
        print("advance over 1,000 \(what):".padding(to: 64) + "\((best * 1000 * 10).rounded() / 10) ms")
    }

    /// The best of 5 times (seconds) of `line` in a session of `store` whose effects
    /// `dispatch starting` started, which must leave `ticks` ticks.
    static func bestAdvance(_ line: String, store: String, starting: String, ticks: Int) -> Double {
        let advance = try! CommandParser.parse(line).command!
        var best = Double.infinity
        for _ in 0..<5 {
            let session = Session(catalog: catalog)
            session.followUpLimit = 1_000_000
            _ = ShellBenchmarks.execute(session, "load \(store)")
            _ = ShellBenchmarks.execute(session, "dispatch \(starting)")
            let start = ContinuousClock.now
            let printed = FormsBenchmarks.linesPrinted([advance], in: session)
            best = min(best, AgentBenchmarks.seconds(since: start))
            precondition(printed == 1 && ShellBenchmarks.execute(session, "state ticks") == ["\(ticks)"])
        }
        return best
    }

    /// `explore` on the store with a 3-tick timer: actions and `advance` steps, checked.
    static func explore() {
        var options = Explorer.Options(stores: ["short"], seed: 1)
        options.runs = 400
        options.steps = 50
        let explorer = try! Explorer(catalog: catalog, options: options)
        let start = ContinuousClock.now
        let report = explorer.explore()
        let elapsed = AgentBenchmarks.seconds(since: start)
        precondition(report.failure == nil && report.actions == 20_000, "\(report.failure?.message ?? "")")
        print(
            "explore a store with effects (400 runs of 50 steps):".padding(to: 64)
                + "\(Int(Double(report.actions) / elapsed)) checked steps/s")
    }
}
