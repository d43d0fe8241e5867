import FluxShellFixtures
import FluxShellSession
import Testing

/// The one line a TCA feature needs to register with the shell.
typealias Effect = StoreEffect

/// A feature written the TCA way: `reduce(into:action:) -> Effect<Action>`, with a debounced
/// search that cancels the one in flight, a timer, and a child feature's effects mapped.
struct SearchFeature {
    struct State {
        var query = ""
        var results: [String] = []
        var ticks = 0
        var log: [String] = []
    }

    enum Action {
        case queryChanged(String)
        case response([String])
        case cancelTapped
        case startTimer
        case tick
        case steps
        case step(String)
        case child(ChildAction)
        case load
        case loaded
    }

    enum ChildAction {
        case ping
        case pong
    }

    func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .queryChanged(let query):
            state.query = query
            guard !query.isEmpty else { return .cancel(id: "search") }
            return .run { send in
                try await send.environment.clock.sleep(for: .milliseconds(300))
                await send(.response(["\(query)1", "\(query)2"]))
            }
            .cancellable(id: "search", cancelInFlight: true)
        case .response(let results):
            state.results = results
            return .none
        case .cancelTapped:
            return .cancel(id: "search")
        case .startTimer:
            return .run { send in
                for _ in 0..<3 {
                    try await send.environment.clock.sleep(for: .seconds(1))
                    await send(.tick)
                }
            }
            .cancellable(id: "timer")
        case .tick:
            state.ticks += 1
            return .none
        case .steps:
            return .concatenate(
                .run { send in
                    try await send.environment.clock.sleep(for: .seconds(1))
                    await send(.step("slow"))
                },
                .send(.step("after")),
                .merge(.send(.step("a")), .send(.step("b"))))
        case .step(let name):
            state.log.append(name)
            return .none
        case .child(.ping):
            return Self.child().map(Action.child)
        case .child(.pong):
            state.log.append("pong")
            return .none
        case .load:
            return .concatenate(
                .send(.step("loading")),
                .run { send in
                    try await send.environment.clock.sleep(for: .seconds(1))
                    await send(.loaded)
                }
                .cancellable(id: "my load", cancelInFlight: true))
        case .loaded:
            state.log.append("loaded")
            return .none
        }
    }

    static func child() -> Effect<ChildAction> { .send(.pong) }
}

@Suite struct StoreEffectTests {
    static func shell() -> Transcript {
        StoreForms.shell(StoreDefinition("search", state: SearchFeature.State(), reduce: SearchFeature().reduce))
    }

    @Test func aRunEffectSleepsOnTheSessionClockAndTheOneInFlightIsCancelled() {
        let shell = Self.shell()
        shell.run("load search")
        #expect(shell.run("dispatch queryChanged a") == [#"~ query: "" -> "a""#])
        #expect(shell.run("dispatch queryChanged ab") == [#"~ query: "a" -> "ab""#])
        #expect(shell.run("effects") == ["effect 2 (queryChanged ab), id search: waits 0.3 s on the clock"])
        #expect(
            shell.run("advance 0.3") == [
                "=> response [\"ab1\",\"ab2\"]", #"+ results[0]: "ab1""#, #"+ results[1]: "ab2""#,
            ])
        #expect(shell.run("effects") == ["(no effects running)"])
    }

    @Test func cancelByIdFromTheReducerAndFromTheShell() {
        let shell = Self.shell()
        shell.run("load search")
        shell.run("dispatch queryChanged a")
        #expect(shell.run("dispatch cancelTapped") == ["(no changes)"])
        #expect(shell.run("effects") == ["(no effects running)"])
        shell.run("dispatch startTimer")
        #expect(shell.run("advance 1") == ["=> tick", "~ ticks: 0 -> 1"])
        #expect(
            shell.run("cancel search") == [
                "error: no running effect has the id 'search' (running: timer)"
            ])
        #expect(shell.run("effects").first?.hasPrefix("effect 2 (startTimer), id timer") == true)
        #expect(shell.run("cancel timer") == [])
        #expect(shell.run("effects") == ["(no effects running)"])
        #expect(
            shell.run("cancel timer") == [
                "error: no running effect has the id 'timer' (no effect with an id is running; effects lists what runs)"
            ])
    }

    @Test func sendMergeConcatenateAndMapRunInOrder() {
        let shell = Self.shell()
        shell.run("load search")
        #expect(shell.run("dispatch steps") == ["(no changes)"])
        #expect(
            shell.run("advance 1") == [
                "=> step slow", #"+ log[0]: "slow""#, "=> step after", #"+ log[1]: "after""#, "=> step a",
                #"+ log[2]: "a""#, "=> step b", #"+ log[3]: "b""#,
            ])
        #expect(shell.run("dispatch child ping") == ["=> child pong", #"+ log[4]: "pong""#])
    }

    @Test func undoAndRedoMakeStatesAgainWithoutFiringEffects() {
        let shell = Self.shell()
        shell.run("load search")
        shell.run("dispatch queryChanged tea")
        shell.run("advance 0.3")
        #expect(shell.run("undo 2").count == 3)
        #expect(shell.run("redo 2").count == 3)
        #expect(shell.run("effects") == ["(no effects running)"])
    }

    /// The one-line closure a registration writes picks the form whose reducer returns effects:
    /// its effects run, never dropped unseen.
    @Test func aOneExpressionClosureKeepsItsEffects() {
        let shell = StoreForms.shell(
            StoreDefinition(
                "search", state: SearchFeature.State(), reduce: { SearchFeature().reduce(into: &$0, action: $1) }))
        shell.run("load search")
        #expect(shell.run("dispatch child ping") == ["=> child pong", #"+ log[0]: "pong""#])
    }

    @Test func anIdInsideAConcatenationCancelsIt() {
        let shell = Self.shell()
        shell.run("load search")
        #expect(shell.run("dispatch load") == ["=> step loading", #"+ log[0]: "loading""#])
        // Cancelled in flight by the next load, as its id says.
        shell.run("dispatch load")
        #expect(shell.run("effects") == [#"effect 2 (load), id my load: waits 1 s on the clock"#])
        #expect(shell.run("cancel \"my load\"") == [])
        #expect(shell.run("effects") == ["(no effects running)"])
        #expect(shell.run("advance 1") == ["(no changes)"])
    }

    @Test func idsBelongToTheSession() {
        let first = Self.shell()
        let second = Self.shell()
        first.run("load search")
        second.run("load search")
        first.run("dispatch queryChanged a")
        second.run("dispatch queryChanged b")
        // Cancelling in flight in one session leaves the other's effect of the same id running.
        first.run("dispatch queryChanged ab")
        #expect(second.run("advance 0.3").first == #"=> response ["b1","b2"]"#)
        #expect(first.run("advance 0.3").first == #"=> response ["ab1","ab2"]"#)
    }
}
