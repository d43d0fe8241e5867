import Dispatch
import FluxCore
import FluxShell
import FluxShellAgent
import FluxShellLanguage

#if canImport(Glibc)
    import Glibc
#endif

/// The same to-do logic registered in each form a store can take (`fluxbench forms`): what one
/// piped line costs the engine (parsed, built, dispatched, diffed, recorded, rendered), against
/// the FluxCore `mutation:` form in the same run; then what a running app of another form pays
/// per action to be attached (`fluxbench forms-agent`), against a FluxCore app in the same run.
enum FormsBenchmarks {
    // The logic, once: a list capped at 20 titles (so that every line changes it alike), a
    // counter, and a flag.
    struct TodoState: State {
        var titles: [String] = []
        var count = 0
        var showsDone = false
    }

    enum TodoAction: Action {
        case add(title: String)
        case increment
        case toggleFilter
    }

    static func reduce(_ state: inout TodoState, _ action: TodoAction) {
        switch action {
        case .add(let title):
            if state.titles.count >= 20 { state.titles.removeFirst() }
            state.titles.append(title)
        case .increment: state.count &+= 1
        case .toggleFilter: state.showsDone.toggle()
        }
    }

    struct TodoMutation: Mutation, Sendable {
        func mutate(action: TodoAction, state: inout TodoState) { FormsBenchmarks.reduce(&state, action) }
    }

    // ReSwift's shape: a marker protocol and struct actions, a pure reducer switching on types.
    protocol ReduxAction {}
    struct AddTodo: ReduxAction { let title: String }
    struct Increment: ReduxAction {}
    struct ToggleFilter: ReduxAction {}

    static func reduxReducer(_ action: ReduxAction, _ state: TodoState) -> TodoState {
        var state = state
        switch action {
        case let action as AddTodo: reduce(&state, .add(title: action.title))
        case is Increment: reduce(&state, .increment)
        case is ToggleFilter: reduce(&state, .toggleFilter)
        default: break
        }
        return state
    }

    // A class-based store (VueFlux's shape): its state is changed in place, read as a snapshot.
    final class TodoStore {
        private var titles: [String] = []
        private var count = 0
        private var showsDone = false

        /// The store's subscriber, told after each commit (what `observe:` hooks).
        var onCommit: ((TodoAction, TodoState) -> Void)?

        func commit(_ action: TodoAction) {
            var state = snapshot
            FormsBenchmarks.reduce(&state, action)
            titles = state.titles
            count = state.count
            showsDone = state.showsDone
            onCommit?(action, state)
        }

        var snapshot: TodoState { TodoState(titles: titles, count: count, showsDone: showsDone) }
    }

    static let catalog = StoreCatalog([
        StoreDefinition("mutation", state: TodoState(), mutation: TodoMutation()),
        StoreDefinition("reduce", state: TodoState(), reduce: { state, action in reduce(&state, action) }),
        StoreDefinition(
            "reducer", state: TodoState(),
            reducer: { (action: TodoAction, state: TodoState) in
                var state = state
                reduce(&state, action)
                return state
            }),
        StoreDefinition(
            "types", state: TodoState(), actionTypes: [AddTodo.self, Increment.self, ToggleFilter.self],
            reducer: { (action: any ReduxAction, state: TodoState) in reduxReducer(action, state) }),
        StoreDefinition(
            "object", make: { TodoStore() }, state: { $0.snapshot },
            send: { (store: TodoStore, action: TodoAction) in store.commit(action) }),
        // The in-place reducer returning its effects the TCA way: none, here.
        StoreDefinition(
            "effects", state: TodoState(),
            reduce: { state, action -> StoreEffect<TodoAction> in
                reduce(&state, action)
                return .none
            }),
        // The store object with its subscriber reporting each commit (`observe:`).
        StoreDefinition(
            "observed", make: { TodoStore() }, state: { $0.snapshot },
            send: { (store: TodoStore, action: TodoAction) in store.commit(action) },
            observe: { store, feed in store.onCommit = { feed.record($0, state: $1) } }),
    ])

    static func run(only: String? = nil) {
        print("Store forms (release build): one piped line, in process, best of 5 rounds of 60,000 lines")
        var perLine: [String: Double] = [:]
        for form in only.map({ [$0] }) ?? ["mutation", "reduce", "reducer", "types", "object", "effects", "observed"] {
            let names =
                form == "types"
                ? ("AddTodo title:", "Increment", "ToggleFilter") : ("add title:", "increment", "toggleFilter")
            let lines = todoLines(names)
            var best = Double.infinity
            for _ in 0..<5 {
                let session = Session(catalog: catalog)
                _ = ShellBenchmarks.execute(session, "load \(form)")
                let start = ContinuousClock.now
                let printed = linesPrinted(lines, in: session)
                precondition(printed == lines.count, "\(form): \(printed) lines")
                best = min(best, AgentBenchmarks.seconds(since: start) * 1e9 / Double(lines.count))
            }
            perLine[form] = best
            let ratio =
                perLine["mutation"].map { form == "mutation" ? "" : "  (\(AgentBenchmarks.ratio(best, $0)) mutation:)" }
                ?? ""
            print("\(form):".padding(to: 64) + "\((best * 10).rounded() / 10) ns/line\(ratio)")
        }
        guard let object = perLine["object"], let reduce = perLine["reduce"] else { return }
        print("store object / reduce:".padding(to: 64) + AgentBenchmarks.ratio(object, reduce))
        if let effects = perLine["effects"] {
            print("reduce returning .none / reduce:".padding(to: 64) + AgentBenchmarks.ratio(effects, reduce))
        }
        if let observed = perLine["observed"] {
            print("store object with observe: / without:".padding(to: 64) + AgentBenchmarks.ratio(observed, object))
        }
    }

    /// 60,000 piped lines of the to-do logic: an add, an increment, a filter toggle, in turn, with
    /// the action names `names` (`add title:`, `increment`, `toggleFilter`, or the types' names).
    static func todoLines(_ names: (add: String, increment: String, toggle: String)) -> [Command] {
        // NB: distinct titles, so that a line is parsed and built every time, as in a script.
        (0..<60_000).map { index -> Command in
            let text: String
            switch index % 3 {
            case 0: text = "dispatch \(names.add) t\(index)"
            case 1: text = "dispatch \(names.increment)"
            default: text = "dispatch \(names.toggle)"
            }
            return try! CommandParser.parse(text).command!
        }
    }

    /// Runs `commands`, rendering each result as the shell prints it; returns the results printed.
    @inline(never)
    static func linesPrinted(_ commands: [Command], in session: Session) -> Int {
        var output = OutputBuffer()
        let renderer = Renderer()
        var count = 0
        for command in commands {
            // NB: as the runner does before each line: a store object's changes of its own.
            if session.hasStoresChangingOnTheirOwn { _ = session.takeChangesOnTheirOwn() }
            guard let result = try? session.execute(command) else { continue }
            renderer.write(result, command: command, line: nil, to: &output)
            count += 1
            if output.count > 1 << 16 { output.removeAll() }
        }
        return count
    }

    // MARK: - A running app

    /// A ReSwift-like app: a store class whose middleware taps each applied action.
    /// The app's actions are dispatched on one thread.
    final class TapStore {
        private(set) var state = CounterState()
        var tap: ((any ReduxAction, CounterState) -> Void)?

        func dispatch(_ action: any ReduxAction) {
            if action is Increment { state.count &+= 1 }
            tap?(action, state)
        }
    }

    static func runAgent(only: String? = nil) {
        print("Serving a store of another form (release build; the counter, no view, best of 5 rounds)")
        let runtime = "/tmp/fluxbench-forms-\(getpid())"
        mkdir(runtime, 0o700)
        setenv("XDG_RUNTIME_DIR", runtime, 1)
        defer { system("rm -rf /tmp/fluxbench-forms-\(getpid())") }

        if only == "stalled" {
            let (store, live) = tapped()
            let agent = try! ShellAgent(serving: [live], as: "forms-tap-stalled", queueLimit: 4_096)
            let shell = AgentBenchmarks.attach(agent, hello: true)
            waitForShell(store, on: shell)
            measure("tap: with a shell attached that never reads", iterations: 10_000_000, rounds: 3) {
                store.dispatch(Increment())
            }
            return
        }
        // FluxCore, in the same run.
        let plain = Flux(state: CounterState(), mutation: CounterMutation())
        let fluxWithout = measure("FluxCore: without an agent") { plain.dispatcher.dispatch(.increment) }
        let served = Flux(state: CounterState(), mutation: CounterMutation())
        let fluxAgent = try! ShellAgent(serving: served, as: "forms-flux")
        let fluxIdle = measure("FluxCore: with an agent, no shell attached") { served.dispatcher.dispatch(.increment) }
        let fluxHandlers = served.dispatcher.handlerCount
        let fluxShell = AgentBenchmarks.attach(fluxAgent, hello: true)
        AgentBenchmarks.waitUntil { served.dispatcher.handlerCount > fluxHandlers }
        for _ in 0..<10_000 { served.dispatcher.dispatch(.increment) }
        let fluxStalled = measure("FluxCore: with a shell attached that never reads") {
            served.dispatcher.dispatch(.increment)
        }
        close(fluxShell)
        fluxAgent.stop()

        // The same counter as a store of another form, tapped by its middleware.
        let alone = TapStore()
        let tapWithout = measure("tap: without an agent") { alone.dispatch(Increment()) }
        let (store, live) = tapped()
        let agent = try! ShellAgent(serving: [live], as: "forms-tap")
        let tapIdle = measure("tap: with an agent, no shell attached") { store.dispatch(Increment()) }
        let (stalledStore, stalledLive) = tapped()
        let stalledAgent = try! ShellAgent(serving: [stalledLive], as: "forms-tap-stalled", queueLimit: 4_096)
        let shell = AgentBenchmarks.attach(stalledAgent, hello: true)
        waitForShell(stalledStore, on: shell)
        for _ in 0..<10_000 { stalledStore.dispatch(Increment()) }
        let tapStalled = measure("tap: with a shell attached that never reads") { stalledStore.dispatch(Increment()) }
        close(shell)
        stalledAgent.stop()
        agent.stop()
        print(
            "no shell, over without: FluxCore \(AgentBenchmarks.ratio(fluxIdle, fluxWithout)), tap \(AgentBenchmarks.ratio(tapIdle, tapWithout))"
        )
        print(
            "stalled shell, added per action: FluxCore \(((fluxStalled - fluxWithout) * 10).rounded() / 10) ns, tap \(((tapStalled - tapWithout) * 10).rounded() / 10) ns"
        )

        runReadingShells()
    }

    /// A reading shell: the app's actions to its lines, FluxCore's then the tap's.
    static func runReadingShells() {
        let readFlux = Flux(state: CounterState(), mutation: CounterMutation())
        let fluxReadAgent = try! ShellAgent(serving: readFlux, as: "forms-flux-reading", queueLimit: 1 << 20)
        let fluxReading = AgentBenchmarks.attach(fluxReadAgent, hello: true)
        let handlers = readFlux.dispatcher.handlerCount
        AgentBenchmarks.waitUntil { readFlux.dispatcher.handlerCount > handlers }
        let fluxStart = ContinuousClock.now
        let fluxDone = DispatchSemaphore(value: 0)
        DispatchQueue(label: "shell").async {
            let seen = AgentBenchmarks.countActionLines(on: fluxReading, until: 200_000)
            precondition(seen == 200_000, "the shell saw \(seen) of 200000 actions")
            fluxDone.signal()
        }
        for _ in 0..<200_000 { readFlux.dispatcher.dispatch(.increment) }
        fluxDone.wait()
        print(
            "FluxCore: a reading shell, the app's actions to its lines".padding(to: 64)
                + "\(Int(200_000 / AgentBenchmarks.seconds(since: fluxStart))) actions/s")
        close(fluxReading)
        fluxReadAgent.stop()

        let (readStore, readLive) = tapped()
        let readAgent = try! ShellAgent(serving: [readLive], as: "forms-tap-reading", queueLimit: 1 << 20)
        let reading = AgentBenchmarks.attach(readAgent, hello: true)
        waitForShell(readStore, on: reading)
        let actions = 200_000
        let start = ContinuousClock.now
        let done = DispatchSemaphore(value: 0)
        DispatchQueue(label: "shell").async {
            let seen = AgentBenchmarks.countActionLines(on: reading, until: actions)
            precondition(seen == actions, "the shell saw \(seen) of \(actions) actions")
            done.signal()
        }
        for _ in 0..<actions { readStore.dispatch(Increment()) }
        done.wait()
        let seconds = AgentBenchmarks.seconds(since: start)
        print(
            "tap: a reading shell, the app's actions to its lines".padding(to: 64)
                + "\(Int(Double(actions) / seconds)) actions/s")
        close(reading)
        readAgent.stop()
    }

    static func tapped() -> (TapStore, LiveStore) {
        let store = TapStore()
        let live = LiveStore(
            as: "counter", state: { store.state }, actionTypes: [Increment.self],
            send: { (action: any ReduxAction) in store.dispatch(action) })
        store.tap = { action, state in live.record(action, state: state) }
        return (store, live)
    }

    /// Waits until the shell attached on `socket` sees the app's actions: dispatches one until
    /// its line comes back (one dispatched before the session started is simply not seen).
    static func waitForShell(_ store: TapStore, on socket: Int32) {
        let marker = Array(#"{"app":"<= "#.utf8)
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            store.dispatch(Increment())
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 20) > 0 else { continue }
            let got = read(socket, &block, block.count)
            precondition(got > 0, "the agent closed the connection")
            // NB: what came is drained; one of the app's lines among it says the session listens.
            if block[..<got].indices.contains(where: { block[$0...].starts(with: marker) && $0 + marker.count <= got })
            {
                return
            }
        }
    }
}
