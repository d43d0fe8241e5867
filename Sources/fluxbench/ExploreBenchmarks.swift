import FluxCore
import FluxShell
import FluxShellExplore
import FluxShellLanguage
import FluxStores

/// `fluxsh explore`: checked actions per second, and the time to shrink a failure planted 1,000
/// actions deep.
enum ExploreBenchmarks {
    struct Lock: State {
        var armed = false
        var broken = false
        var noise = 0
    }

    enum LockAction: Action {
        case noise(Int)
        case arm, disarm, fire
    }

    struct LockMutation: Mutation, Sendable {
        func mutate(action: LockAction, state: inout Lock) {
            switch action {
            case .noise(let value): state.noise = value
            case .arm: state.armed = true
            case .disarm: state.armed = false
            case .fire: if state.armed { state.broken = true }
            }
        }
    }

    static func run() {
        print("\nfluxsh explore (release build, one core, in process: no journal)")
        throughput()
        shrinking()
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// todos with two invariants, the end-of-run replay and undo/redo checks included.
    static func throughput() {
        var options = Explorer.Options(stores: ["todos"], seed: 1)
        options.invariants = ["todos[*].id < $nextID", "nextID > $todos.count"]
        options.runs = 400
        options.steps = 50
        let explorer = try! Explorer(catalog: .builtIn, options: options)
        let start = ContinuousClock.now
        let report = explorer.explore()
        let elapsed = seconds(start.duration(to: .now))
        precondition(report.failure == nil && report.actions == 20_000)
        let rate = Double(report.actions) / elapsed
        print("todos, 2 invariants, replay and undo/redo checks".padding(to: 64) + "\(Int(rate)) checked actions/s")
    }

    /// `arm` at step 10 and `fire` at step 990 among 1,000 actions: shrunk to those two.
    static func shrinking() {
        let catalog = StoreCatalog([StoreDefinition("lock", state: Lock(), mutation: LockMutation())])
        var options = Explorer.Options(stores: ["lock"], seed: 1)
        options.invariants = ["broken == false"]
        let explorer = try! Explorer(catalog: catalog, options: options)
        var actions = (0..<1_000).map {
            Command.dispatch(ActionInvocation(name: "noise", arguments: [.init(label: nil, value: .int($0))]))
        }
        actions[10] = .dispatch(ActionInvocation(name: "arm"))
        actions[990] = .dispatch(ActionInvocation(name: "fire"))
        let target = explorer.run(actions)
        precondition(target == .invariant("broken == false"))
        let start = ContinuousClock.now
        var runs = 0
        let minimal = explorer.minimize(actions) { candidate in
            runs += 1
            return explorer.run(candidate) == target
        }
        let elapsed = seconds(start.duration(to: .now))
        precondition(minimal.map(\.description) == ["dispatch arm", "dispatch fire"])
        print(
            "shrink a failure planted 1,000 actions deep to 'arm', 'fire'".padding(to: 64)
                + "\((elapsed * 1000).rounded() / 1000) s (\(runs) replays)")
    }
}
