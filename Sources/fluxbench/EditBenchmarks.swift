import FluxShellLanguage
import FluxShellSession
import FluxShellSystem
import FluxStores

/// Editing the past on a long history (docs/performance.md, "Editing the past"): `skip 1` of
/// 10,000 steps of the todos store replays the other 9,999 from the state kept before step 1.
enum EditBenchmarks {
    static func run() {
        // NB: as the shell does: each edit is replayed first in a copy of the process.
        ChildProcess.mayProbe = true
        print("Editing the past: todos, 10,000 steps, release build (best of 5 sessions)")
        for edit in ["skip 1", "replace 1 setFilter done", "skip 5002", "skip 5000", "sweep after skip 1"] {
            var best = Duration.seconds(1_000)
            for _ in 0..<5 {
                let session = session()
                if edit.hasPrefix("sweep") { _ = run("skip 1", in: session) }
                let start = ContinuousClock.now
                let output = run(edit.hasPrefix("sweep") ? "sweep" : edit, in: session)
                best = min(best, ContinuousClock.now - start)
                precondition(output != nil, "\(edit) failed")
            }
            print("\(edit.padding(to: 40))\(best.milliseconds) ms")
        }
    }

    /// A session of the todos store with 10,000 steps: a filter, then adds, toggles and renames.
    static func session() -> Session {
        let session = Session(catalog: .builtIn, historyLimit: 20_000)
        _ = run("load todos", in: session)
        _ = run("dispatch setFilter active", in: session)
        for step in 2...10_000 {
            // NB: ids up to half the steps exist; these name one added a while ago.
            let line =
                switch step < 10 ? 0 : step % 4 {
                case 0, 1: "dispatch add title: task\(step)"
                case 2: "dispatch toggle id: \(step / 4)"
                default: "dispatch rename id: \(step / 4) title: renamed\(step)"
                }
            guard run(line, in: session) != nil else { fatalError("\(line) failed") }
        }
        return session
    }

    static func run(_ line: String, in session: Session) -> CommandResult? {
        guard let command = try? CommandParser.parse(line).command else { return nil }
        return try? session.execute(command)
    }
}

extension Duration {
    var milliseconds: Double {
        ((Double(components.seconds) * 1e3 + Double(components.attoseconds) / 1e15) * 10).rounded() / 10
    }
}
