import Dependencies
import FluxShell
import FluxShellDependencies
import FluxShellLanguage
import Foundation

/// What `pinningDependencies()` costs a piped line (`fluxbench pinned`): the same reducer store,
/// in sessions of a catalog with and without swift-dependencies pinned, the rounds alternating
/// so that both see the same load. Once with the forms benchmark's to-do logic, which reads no
/// dependency (what pinning adds to any command), once with a reducer that also stamps every
/// action with `@Dependency(\.uuid)` and `@Dependency(\.date.now)` (pinned: the session's; not
/// pinned: the live ones, the system's random ids and clock).
enum PinnedBenchmarks {
    struct StampedState {
        var todos = FormsBenchmarks.TodoState()
        var id: UUID?
        var at: Date?
    }

    struct Stamping {
        @Dependency(\.uuid) var uuid
        @Dependency(\.date.now) var now

        func reduce(into state: inout StampedState, action: FormsBenchmarks.TodoAction) {
            FormsBenchmarks.reduce(&state.todos, action)
            state.id = uuid()
            state.at = now
        }
    }

    static let catalog = StoreCatalog([
        StoreDefinition(
            "reduce", state: FormsBenchmarks.TodoState(),
            reduce: { state, action in FormsBenchmarks.reduce(&state, action) }),
        StoreDefinition(
            "stamping", state: StampedState(),
            reduce: { state, action in Stamping().reduce(into: &state, action: action) }),
    ])

    static func run() {
        print("Pinned swift-dependencies (release build): one piped line, in process, best of 7 rounds of 60,000 lines")
        let lines = FormsBenchmarks.todoLines(("add title:", "increment", "toggleFilter"))
        let pinned = catalog.pinningDependencies()
        for store in ["reduce", "stamping"] {
            var best = (unpinned: Double.infinity, pinned: Double.infinity)
            for _ in 0..<7 {
                best.unpinned = min(best.unpinned, perLine(lines, store: store, catalog: catalog))
                best.pinned = min(best.pinned, perLine(lines, store: store, catalog: pinned))
            }
            let label = store == "reduce" ? "reading no dependency" : "reading uuid and date.now"
            print("\(store) (\(label)), not pinned:".padding(to: 64) + "\((best.unpinned * 10).rounded() / 10) ns/line")
            print(
                "\(store) (\(label)), pinned:".padding(to: 64)
                    + "\((best.pinned * 10).rounded() / 10) ns/line  (\(AgentBenchmarks.ratio(best.pinned, best.unpinned)) not pinned)"
            )
        }
    }

    /// Nanoseconds per line of `lines` dispatched into a fresh session's `store`.
    static func perLine(_ lines: [Command], store: String, catalog: StoreCatalog) -> Double {
        let session = Session(catalog: catalog)
        _ = ShellBenchmarks.execute(session, "load \(store)")
        let start = ContinuousClock.now
        let printed = FormsBenchmarks.linesPrinted(lines, in: session)
        precondition(printed == lines.count, "\(store): \(printed) lines")
        return AgentBenchmarks.seconds(since: start) * 1e9 / Double(lines.count)
    }
}
