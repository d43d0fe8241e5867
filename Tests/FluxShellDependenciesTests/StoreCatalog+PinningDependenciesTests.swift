import Dependencies
import FluxShell
import FluxShellDependencies
import FluxShellFixtures
import Foundation
import Synchronization
import Testing

/// A feature written as a TCA reducer is, on swift-dependencies alone: its reducer stamps ids and
/// dates with `@Dependency`, rolls a die with the dependencies' generator, and its search effect
/// sleeps on `@Dependency(\.continuousClock)` before it answers.
struct Stamps {
    struct State: Equatable {
        var ids: [UUID] = []
        var stampedAt: [Date] = []
        var query = ""
        var results: [String] = []
        var rolls: [Int] = []
        var greetings: [String] = []
    }

    enum Action: Equatable {
        case stamp
        case search(String)
        case response([String])
        case roll
        case greet
    }

    @Dependency(\.uuid) var uuid
    @Dependency(\.date.now) var now
    @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
    @Dependency(\.greeting) var greeting

    func reduce(into state: inout State, action: Action) {
        switch action {
        case .stamp:
            state.ids.append(uuid())
            state.stampedAt.append(now)
        case .search(let query):
            state.query = query
        case .response(let results):
            state.results = results
            state.stampedAt.append(now)
        case .roll:
            state.rolls.append(withRandomNumberGenerator { Int.random(in: 1...1_000, using: &$0) })
        case .greet:
            state.greetings.append(greeting)
        }
    }

    static func effect(_ action: Action, _ state: State, _ context: EffectContext<Action>) async throws -> [Action] {
        @Dependency(\.continuousClock) var clock
        guard case .search(let query) = action else { return [] }
        try await clock.sleep(for: .milliseconds(300))
        return [.response([query + "-1", query + "-2"])]
    }

    static let definition = StoreDefinition(
        "stamps", state: State(), reduce: { state, action in Stamps().reduce(into: &state, action: action) },
        effect: effect)
}

/// A dependency of the app's own, which the shell does not pin.
private enum GreetingKey: DependencyKey {
    static let liveValue = "hello"
    static let testValue = "hello"
}

extension DependencyValues {
    var greeting: String {
        get { self[GreetingKey.self] }
        set { self[GreetingKey.self] = newValue }
    }
}

/// A store object, as a class-based store is written: its id comes from `@Dependency(\.uuid)`
/// when it is made.
final class Ticket {
    struct State: Equatable {
        var id: UUID
        var punches: Int
    }

    enum Action: Equatable {
        case punch
    }

    let id: UUID
    private var punches = 0

    init() {
        @Dependency(\.uuid) var uuid
        id = uuid()
    }

    func send(_ action: Action) {
        switch action {
        case .punch: punches += 1
        }
    }

    var state: State { State(id: id, punches: punches) }

    static let definition = StoreDefinition(
        "ticket", make: { Ticket() }, state: { $0.state },
        send: { (ticket: Ticket, action: Action) in ticket.send(action) })
}

/// A scope of the app's own, set before the catalog is pinned: it notes the date it runs with.
final class DateNotingScope: SessionScope {
    let dates = Mutex<[Date]>([])

    func run<R, E: Error>(in environment: ShellEnvironment, _ body: () throws(E) -> R) throws(E) -> R {
        @Dependency(\.date.now) var now
        dates.withLock { $0.append(now) }
        return try body()
    }
}

struct PinningDependenciesTests {
    static let pinned = StoreCatalog([Stamps.definition, Ticket.definition]).pinningDependencies()

    private func shell(_ catalog: StoreCatalog = pinned, loading store: String = "stamps") -> Transcript {
        let shell = Transcript(catalog: catalog)
        shell.run("load \(store)")
        return shell
    }

    @Test func idsCountUpFromOne() {
        let shell = shell()
        #expect(
            shell.run("dispatch stamp") == [
                #"+ ids[0]: "00000000-0000-0000-0000-000000000001""#,
                #"+ stampedAt[0]: "2026-01-01T00:00:00Z""#,
            ])
        #expect(
            shell.run("dispatch stamp") == [
                #"+ ids[1]: "00000000-0000-0000-0000-000000000002""#,
                #"+ stampedAt[1]: "2026-01-01T00:00:00Z""#,
            ])
    }

    @Test func theHistoryCheckingItsStatesDrawsNoID() {
        // NB: every 16 steps the history applies the last ones again, to check that it can make
        // their states again: the ids that replay draws are not the session's.
        let shell = shell()
        for number in 1...40 {
            let id = String(format: "00000000-0000-0000-0000-%012X", number)
            #expect(shell.run("dispatch stamp").first == "+ ids[\(number - 1)]: \"\(id)\"")
        }
        #expect(shell.run("undo 20").count == 40)
        #expect(shell.run("redo 20").count == 40)
        #expect(shell.run("dispatch stamp").first == #"+ ids[40]: "00000000-0000-0000-0000-000000000029""#)
    }

    @Test func aStoreObjectMadeAgainDrawsNoID() {
        let shell = shell(loading: "ticket")
        shell.run("dispatch punch")
        #expect(shell.run("undo").first?.hasPrefix("error: store 'ticket' does not come back to that state") == true)
        shell.run("load ticket as second")
        #expect(shell.run("state id") == [#""00000000-0000-0000-0000-000000000002""#])
    }

    @Test func theDateIsTheSessionsAndMovesWithAdvance() {
        let shell = shell()
        shell.run("dispatch stamp")
        #expect(shell.run("advance 90") == ["(no changes)"])
        #expect(shell.run("dispatch stamp").last == #"+ stampedAt[1]: "2026-01-01T00:01:30Z""#)
        #expect(shell.run("advance 86400") == ["(no changes)"])
        #expect(shell.run("dispatch stamp").last == #"+ stampedAt[2]: "2026-01-02T00:01:30Z""#)
    }

    @Test func anEffectSleepingOnTheDependencyClockWakesAtItsDeadline() {
        let shell = shell()
        #expect(shell.run("dispatch search ab") == [#"~ query: "" -> "ab""#])
        #expect(shell.run("effects") == ["effect 1 (search ab): waits 0.3 s on the clock"])
        #expect(shell.run("advance 0.2") == ["(no changes)"])
        #expect(shell.run("effects") == ["effect 1 (search ab): waits 0.1 s on the clock"])
        #expect(
            shell.run("advance 0.1") == [
                #"=> response ["ab-1","ab-2"]"#, #"+ stampedAt[0]: "2026-01-01T00:00:00.300Z""#,
                #"+ results[0]: "ab-1""#, #"+ results[1]: "ab-2""#,
            ])
        #expect(shell.run("effects") == ["(no effects running)"])
    }

    @Test func twoSessionsPrintTheSameLines() {
        let script = [
            "load stamps", "dispatch stamp", "dispatch roll", "dispatch search x", "advance 0.3", "dispatch roll",
            "load ticket", "dispatch punch", "state", "use stamps", "dispatch stamp", "state",
        ]
        let first = Transcript(catalog: Self.pinned).run(script: script)
        let second = Transcript(catalog: Self.pinned).run(script: script)
        #expect(first == second)
        #expect(first.contains(#"+ stamps.ids[1]: "00000000-0000-0000-0000-000000000003""#), "\(first)")
    }

    @Test func aStoreObjectsMakeReadsThePinnedIDs() {
        let shell = shell(loading: "ticket")
        #expect(shell.run("state id") == [#""00000000-0000-0000-0000-000000000001""#])
        shell.run("load ticket as second")
        #expect(shell.run("state id") == [#""00000000-0000-0000-0000-000000000002""#])
    }

    @Test func randomNumbersAreTheSessionsGeneratorsInEverySession() {
        var random = ShellEnvironment().random
        let expected = (0..<5).map { _ in String(Int.random(in: 1...1_000, using: &random)) }
        for _ in 0..<2 {
            let shell = shell()
            for _ in 0..<5 { shell.run("dispatch roll") }
            #expect(shell.run("state rolls") == ["[" + expected.joined(separator: ",") + "]"])
        }
    }

    @Test func aScopeSetBeforeRunsInsideThePinnedValues() {
        let noting = DateNotingScope()
        var catalog = StoreCatalog([Stamps.definition])
        catalog.scope = noting
        let shell = shell(catalog.pinningDependencies().pinningDependencies())
        shell.run("advance 1")
        shell.run("state")
        #expect(
            noting.dates.withLock { $0 }
                == [ShellEnvironment.start, ShellEnvironment.start, ShellEnvironment.start.addingTimeInterval(1)])
    }

    @Test func theValuesAroundEachCommandAreKeptAndPinned() {
        let shell = shell()
        #expect(shell.run("dispatch greet") == [#"+ greetings[0]: "hello""#])
        withDependencies {
            $0.greeting = "hi"
        } operation: {
            #expect(shell.run("dispatch greet") == [#"+ greetings[1]: "hi""#])
            #expect(shell.run("dispatch stamp").first == #"+ ids[0]: "00000000-0000-0000-0000-000000000001""#)
        }
        withDependencies {
            $0.greeting = "bonjour"
        } operation: {
            #expect(shell.run("dispatch greet") == [#"+ greetings[2]: "bonjour""#])
        }
        #expect(shell.run("dispatch greet") == [#"+ greetings[3]: "hello""#])
        #expect(shell.run("dispatch stamp").first == #"+ ids[1]: "00000000-0000-0000-0000-000000000002""#)
    }

    @Test func aCommandsErrorCrossesThePinnedValues() {
        let shell = shell()
        #expect(shell.run("dispatch nothing").first?.hasPrefix("error: unknown action 'nothing'") == true)
        #expect(shell.run("state ids") == ["[]"])
    }

    @Test func withoutPinningTheSameFeatureGetsTheWorldsIDs() {
        // NB: the test context's `uuid` and `date` fail any test that reads them; the live ones
        // are what the feature reads in an app, or in a shell that does not pin them.
        let lines = withDependencies {
            $0.context = .live
        } operation: {
            let shell = shell(StoreCatalog([Stamps.definition]))
            return shell.run("dispatch stamp")
        }
        #expect(lines.count == 2)
        #expect(lines.first != #"+ ids[0]: "00000000-0000-0000-0000-000000000001""#, "\(lines)")
        #expect(lines.last != #"+ stampedAt[0]: "2026-01-01T00:00:00Z""#, "\(lines)")
    }
}

/// A reducer that reads the session's ids and time: its past is not edited, since a replay would
/// give its steps other ids and times than they had (reference: "Editing the past").
struct PinnedEditTests {
    /// A TCA reducer that reads `@Dependency(\.uuid)`, `\.date.now` and random numbers in
    /// `reduce` has what each action drew from kept with it: an edit replays the later steps with
    /// the ids, times and numbers they had, and the session's next ids go on from where they were.
    @Test func anEditOfAReducerThatReadsTheEnvironmentReplaysWhatEachStepDrew() {
        let shell = Transcript(catalog: StoreCatalog([Stamps.definition]).pinningDependencies())
        shell.run("load stamps")
        shell.run("dispatch stamp")
        shell.run("advance 1")
        let roll = shell.run("dispatch roll")
        shell.run("dispatch stamp")
        let before = shell.run("state")
        // Step 4 keeps the id and the time it drew; step 3 the number it rolled.
        #expect(
            shell.run("skip 1") == [
                #"- ids[0]: "00000000-0000-0000-0000-000000000001""#, #"- stampedAt[0]: "2026-01-01T00:00:00Z""#,
            ])
        #expect(shell.run("state ids") == [#"["00000000-0000-0000-0000-000000000002"]"#])
        let rolled = String(roll.first?.split(separator: " ").last ?? "")
        #expect(shell.run("state rolls") == ["[\(rolled)]"])
        // The next ids go on from where the session was: none is drawn twice.
        #expect(
            shell.run("dispatch stamp") == [
                #"+ ids[1]: "00000000-0000-0000-0000-000000000003""#, #"+ stampedAt[1]: "2026-01-01T00:00:01Z""#,
            ])
        shell.run("undo 2")
        #expect(shell.run("state") == before)
        // A replacement draws what the step's own action drew from: here, at step 1's time.
        #expect(shell.run("replace 1 stamp") == ["(no changes)"])
        let history = shell.run("history")
        #expect(history.first == "  1  stamp   (replaced at step 7)", "\(history)")
        #expect(shell.run("sweep") == ["(removed step 7)"])
        #expect(shell.run("state") == before)
    }

    /// Found in review: the draws of an action taken after an undo were dropped with the undone
    /// steps, and the edit was refused.
    @Test func theDrawsOfAStepAfterAnUndoAreKept() {
        let shell = Transcript(catalog: StoreCatalog([Stamps.definition]).pinningDependencies())
        shell.run("load stamps")
        shell.run("dispatch stamp")
        shell.run("dispatch stamp")
        shell.run("undo")
        shell.run("dispatch stamp")
        #expect(
            shell.run("state ids") == [
                #"["00000000-0000-0000-0000-000000000001","00000000-0000-0000-0000-000000000003"]"#
            ])
        #expect(
            shell.run("skip 1") == [
                #"- ids[0]: "00000000-0000-0000-0000-000000000001""#, #"- stampedAt[1]: "2026-01-01T00:00:00Z""#,
            ])
        #expect(shell.run("state ids") == [#"["00000000-0000-0000-0000-000000000003"]"#])
    }
}
