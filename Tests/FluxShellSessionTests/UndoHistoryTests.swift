import FluxCore
import FluxShellFixtures
import Foundation
import IdentifiedCollections
import PropertyBased
import Synchronization
import Tagged
import Testing

@testable import FluxShellLive
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// The undo history keeps one state in a window and makes the others again from the store's
/// actions (`StateHistory`): every step still comes back exactly as it was, and a store whose
/// mutation gives another state the second time is never restored wrongly.
struct UndoHistoryTests {
    struct Member: Identifiable, Equatable, Sendable {
        let id: Tagged<Member, Int>
        var name: String
        var tags: Set<String> = []
    }

    struct Team: State, Equatable {
        var members: IdentifiedArrayOf<Member> = []
        var scores: [String: Int] = [:]
        var touched: Date?
        var offset = 0
    }

    enum TeamAction: Action {
        case add(id: Int, name: String)
        case rename(id: Int, name: String)
        case tag(id: Int, tag: String)
        case remove(id: Int)
        case score(String, Int)
        case touch
        case shift(Int)
    }

    /// What the mutation reads besides its state and action, to make it misbehave on purpose.
    final class Outside: Sendable {
        let offset = Atomic(0)
    }

    struct TeamMutation: Mutation {
        let outside: Outside

        func mutate(action: TeamAction, state: inout Team) {
            switch action {
            case .add(let id, let name): state.members.append(Member(id: .init(id), name: name))
            case .rename(let id, let name): state.members[id: .init(id)]?.name = name
            case .tag(let id, let tag): state.members[id: .init(id)]?.tags.insert(tag)
            case .remove(let id): state.members.remove(id: .init(id))
            case .score(let key, let value): state.scores[key, default: 0] += value
            case .touch: state.touched = Date()
            case .shift(let by): state.offset += by + outside.offset.load(ordering: .relaxed)
            }
        }
    }

    final class Shell {
        let session: Session
        let outside = Outside()

        init(historyLimit: Int = 1_000) {
            session = Session(
                catalog: StoreCatalog([StoreDefinition("team", state: Team(), mutation: TeamMutation(outside: outside))]
                ),
                historyLimit: historyLimit)
            _ = run("load team")
        }

        @discardableResult
        func run(_ line: String) -> [String] { Transcript(session: session).run(line) }

        var runtime: ReducerRuntime<MutationReducer<TeamMutation>> {
            session.stores[0].runtime as! ReducerRuntime<MutationReducer<TeamMutation>>
        }
        var state: Team { runtime.state.value }
        var keptStates: Int { runtime.history.value.entries.count(where: { $0.state != nil }) }
        /// Whether the history makes states again (printed as a word: the history itself is long).
        var replays: Bool { runtime.history.value.replays }
    }

    /// A deterministic mix of the team's actions, as command lines.
    static func lines(_ count: Int, seed: UInt64) -> [String] {
        var generator = Xoshiro(seed: (seed, 0x9E37_79B9_7F4A_7C15, 5, 6))
        return (0..<count).map { step in
            let id = Int.random(in: 0..<12, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<3: return "dispatch add id: \(step + 100) name: n\(step)"
            case 3..<5: return "dispatch rename id: \(id + 100) name: r\(step)"
            case 5: return "dispatch tag id: \(id + 100) tag: t\(step % 4)"
            case 6: return "dispatch remove id: \(id + 100)"
            case 7: return "dispatch score k\(id % 3) \(step)"
            default: return "dispatch shift \(step % 5)"
            }
        }
    }

    /// Runs `lines`, returning the state before the first and after each.
    static func play(_ lines: [String], on shell: Shell) -> [Team] {
        var states = [shell.state]
        for line in lines {
            #expect(!(shell.run(line).first ?? "").hasPrefix("error"), "\(line)")
            states.append(shell.state)
        }
        return states
    }

    @Test func everyStepComesBackExactlyOneAtATimeAndByJumps() {
        let shell = Shell()
        let states = Self.play(Self.lines(150, seed: 1), on: shell)
        #expect(shell.replays)
        // One state kept per window of 16, the last window's all, and the store's own.
        #expect(shell.keptStates <= 150 / SessionHistory.window + SessionHistory.window + 1)
        for step in stride(from: 149, through: 0, by: -1) {
            shell.run("undo")
            #expect(shell.state == states[step], "undo to step \(step)")
        }
        for step in 1...150 {
            shell.run("redo")
            #expect(shell.state == states[step], "redo to step \(step)")
        }
        var cursor = 150
        for jump in [-37, 20, -100, 5, -38, 150, -1, -149] {
            shell.run(jump < 0 ? "undo \(-jump)" : "redo \(jump)")
            cursor += jump
            #expect(shell.state == states[cursor], "jump \(jump) to step \(cursor)")
        }
        #expect(shell.replays)
    }

    /// Undoing, then taking other steps, discards the undone ones; the history forgets whole
    /// windows; what it keeps still comes back exactly.
    @Test func forgettingAndDiscardingKeepWhatIsLeftExact() {
        let shell = Shell(historyLimit: 64)
        var states = Self.play(Self.lines(200, seed: 2), on: shell)
        shell.run("undo 21")
        states.removeLast(21)
        states += Self.play(Self.lines(130, seed: 3), on: shell).dropFirst()
        #expect(shell.replays)
        let undoable = shell.session.history.undoable
        #expect(undoable >= 64 && undoable < 64 + 16)
        for step in 1...undoable {
            shell.run("undo")
            #expect(shell.state == states[states.count - 1 - step], "undo \(step)")
        }
        #expect(shell.run("undo") == ["error: nothing to undo (the history keeps the last 64 steps)"])
        shell.run("redo \(undoable)")
        #expect(shell.state == states.last)
    }

    /// The history keeps at least as many steps as it says, whatever the count: 1,001, 1,100 and
    /// 2,000 steps all leave the last 1,000 undoable (it kept as few as 761).
    @Test(arguments: [1_001, 1_100, 1_239, 1_240, 2_000])
    func theLastThousandStepsCanAlwaysBeUndone(_ steps: Int) throws {
        let session = Session(catalog: .builtIn)
        let shell = Transcript(session: session)
        shell.run("load counter")
        for _ in 0..<steps { shell.run("dispatch increment") }
        #expect(session.history.undoable >= 1_000 && session.history.undoable < 1_240, "\(session.history.undoable)")
        #expect(shell.run("undo 1000") == ["~ count: \(steps) -> \(steps - 1_000)"])
    }

    /// A state of 200,000 elements keeps the baseline, the newest window's last state and the
    /// open window's states, however many windows went by: every step still comes back exactly.
    @Test func aLargeStateKeepsAsFewCopiesAsItCan() {
        struct Big: State, Equatable {
            var values = Array(repeating: 0, count: 200_000)
            // NB: a range is a collection whose count overflows: it is no element of the state.
            var window: ClosedRange<Int> = 0...Int.max
        }
        enum BigAction: Action { case set(index: Int, value: Int) }
        struct BigMutation: Mutation {
            func mutate(action: BigAction, state: inout Big) {
                switch action {
                case .set(let index, let value): state.values[index] = value
                }
            }
        }
        let session = Session(catalog: StoreCatalog([StoreDefinition("big", state: Big(), mutation: BigMutation())]))
        let shell = Transcript(session: session)
        shell.run("load big")
        var states: [Big] = []
        func state() -> Big { (session.stores[0].runtime as! ReducerRuntime<MutationReducer<BigMutation>>).state.value }
        for step in 0..<100 {
            states.append(state())
            #expect(shell.run("dispatch set index: \(step * 1_999 % 200_000) value: \(step + 1)").count == 1)
        }
        states.append(state())
        let history = (session.stores[0].runtime as! ReducerRuntime<MutationReducer<BigMutation>>).history.value
        #expect(history.replays)
        // 100 steps: six windows closed; the last one's state and the four of the open window.
        #expect(history.entries.count(where: { $0.state != nil }) == 1 + 100 % SessionHistory.window)
        for step in stride(from: 99, through: 0, by: -7) {
            #expect(!(shell.run("undo \(100 - step)").first ?? "").hasPrefix("error"))
            #expect(state() == states[step], "undo to step \(step)")
            #expect(!(shell.run("redo \(100 - step)").first ?? "").hasPrefix("error"))
            #expect(state() == states[100], "redo from step \(step)")
        }
        // Back into an older window, then on from there: its window closes from a state made again.
        shell.run("undo 70")
        states.removeLast(70)
        for step in 0..<40 {
            #expect(shell.run("dispatch set index: \(step) value: -\(step + 1)").count == 1)
            states.append(state())
        }
        shell.run("undo \(states.count - 1)")
        #expect(state() == states[0])
        shell.run("redo \(states.count - 1)")
        #expect(state() == states.last)
    }

    /// A large state in a history that forgets: the state each batch is forgotten up to is kept,
    /// so the new oldest state is never made by a replay; what is left still comes back exactly.
    @Test func aLargeStateForgetsItsOldestStepsAndUndoesTheRest() {
        struct Big: State, Equatable { var values = Array(repeating: 0, count: 100_000) }
        enum BigAction: Action { case set(index: Int, value: Int) }
        struct BigMutation: Mutation {
            func mutate(action: BigAction, state: inout Big) {
                switch action {
                case .set(let index, let value): state.values[index] = value
                }
            }
        }
        let session = Session(
            catalog: StoreCatalog([StoreDefinition("big", state: Big(), mutation: BigMutation())]), historyLimit: 128)
        let shell = Transcript(session: session)
        shell.run("load big")
        func state() -> Big { (session.stores[0].runtime as! ReducerRuntime<MutationReducer<BigMutation>>).state.value }
        var states = [state()]
        for step in 0..<300 {
            #expect(shell.run("dispatch set index: \(step % 1_000) value: \(step + 1)").count == 1)
            states.append(state())
        }
        let undoable = session.history.undoable
        #expect(undoable >= 128)
        for step in stride(from: 299, through: 300 - undoable, by: -11) {
            #expect(!(shell.run("undo \(300 - step)").first ?? "").hasPrefix("error"))
            #expect(state() == states[step], "undo to step \(step)")
            shell.run("redo \(300 - step)")
        }
        #expect(state() == states[300])
    }

    /// Which states are large: the elements stored in collections, two levels down; a string,
    /// a range (whose count may overflow) or a lazy view stores none.
    @Test func aLargeStateIsTheElementsItsCollectionsStore() {
        struct Nested {
            var inner = Array(repeating: 1, count: 60_000)
            var more = Set(0..<50_000)
        }
        struct Holder {
            var nested = Nested()
            var text = String(repeating: "x", count: 200_000)
            var range = 0...Int.max
        }
        #expect(StateHistory<Holder, Int>.isLarge(Holder()))
        #expect(!StateHistory<ClosedRange<Int>, Int>.isLarge(0...Int.max))
        #expect(!StateHistory<String, Int>.isLarge(String(repeating: "x", count: 200_000)))
        #expect(StateHistory<[Int], Int>.isLarge(Array(repeating: 0, count: 100_000)))
        struct Small { var text = String(repeating: "x", count: 200_000), range = Int.min..<Int.max }
        #expect(!StateHistory<Small, Int>.isLarge(Small()))
    }

    /// `reset` sets the state with no action: the history keeps that state, and replays across it.
    @Test func aResetInsideAWindowComesBack() {
        let shell = Shell()
        var states = Self.play(Self.lines(20, seed: 4), on: shell)
        shell.run("reset")
        states.append(shell.state)
        #expect(shell.state == Team())
        states += Self.play(Self.lines(30, seed: 5), on: shell).dropFirst()
        for step in stride(from: states.count - 2, through: 0, by: -1) {
            shell.run("undo")
            #expect(shell.state == states[step], "undo to step \(step)")
        }
        shell.run("redo \(states.count - 1)")
        #expect(shell.state == states.last)
    }

    /// A mutation that reads the clock gives another date when applied again: the window's check
    /// finds it, the store keeps every state, and each comes back exactly.
    @Test func aMutationReadingTheClockKeepsEveryState() {
        let shell = Shell()
        var lines = Self.lines(40, seed: 6)
        for index in stride(from: 3, to: 40, by: 7) { lines[index] = "dispatch touch" }
        let states = Self.play(lines, on: shell)
        #expect(!shell.replays)
        shell.run("undo 33")
        #expect(shell.state == states[7])
        shell.run("undo 6")
        #expect(shell.state == states[1])
        shell.run("redo 30")
        #expect(shell.state == states[31])
    }

    /// A mutation that changes behaviour after its window was checked: `undo` to a state made
    /// again refuses, names the store, and changes nothing; steps kept whole still undo.
    @Test func aReplayThatComesOutDifferentlyIsRefused() {
        let shell = Shell()
        let states = Self.play(Self.lines(40, seed: 7).map { _ in "dispatch shift 1" }, on: shell)
        #expect(shell.replays)
        shell.outside.offset.store(1000, ordering: .relaxed)
        let refused = shell.run("undo 20")
        // It names where the state made again differs, and how to pin what the reducer reads.
        #expect(
            refused.first?.hasPrefix(
                "error: store 'team' does not come back to the state it had: its actions, applied again, give another state"
                    + " (at offset: 1017 where it showed 17) (its reducer reads something besides the state and the action"
            ) == true, "\(refused)")
        #expect(
            refused.first?.contains("to pin it, read dates, ids and random numbers from the session's environment")
                == true)
        #expect(shell.state == states[40])
        #expect(shell.session.history.undoable == 40)
        #expect(shell.run("undo") == ["~ offset: 40 -> 39"])
        #expect(!shell.replays)
        shell.run("dispatch shift 1")
        shell.run("dispatch shift 1")
        #expect(shell.run("undo 2") == ["~ offset: 2041 -> 39"])
    }

    /// A mutation that changes behaviour just before a `reset` closes its window: the state
    /// before the reset is checked exactly, so the change is found and every state kept.
    @Test func aResetClosingAWindowDoesNotHideAChangedReplay() {
        let shell = Shell()
        let states = Self.play((0..<15).map { _ in "dispatch shift 1" }, on: shell)
        shell.outside.offset.store(1000, ordering: .relaxed)
        shell.run("reset")
        #expect(!shell.replays)
        shell.run("undo 11")
        #expect(shell.state == states[5])
    }

    /// Only states that hold values all the way down are made again from actions: a mutation
    /// applied to a copy of a class instance would change the live one.
    @Test func onlyValueStatesAreMadeAgain() {
        final class Model { var count = 0 }
        struct WithModel { var model: Model }
        indirect enum Tree {
            case leaf(Int)
            case node(Tree, Tree)
        }
        enum Payload {
            case plain(String)
            case model(Model)
        }
        struct Anything { var value: any Sendable }
        #expect(TypeShape.holding(Team.self) == .onlyValues)
        #expect(TypeShape.holding(IdentifiedArrayOf<Member>.self) == .onlyValues)
        #expect(TypeShape.holding(Tree.self) == .onlyValues)
        #expect(TypeShape.holding([String: [Int?]].self) == .onlyValues)
        #expect(TypeShape.holding(IndexSet.self) == .onlyValues)
        #expect(TypeShape.holding(Duration.self) == .onlyValues)
        #expect(TypeShape.holding(WithModel.self) == .references)
        #expect(TypeShape.holding([WithModel].self) == .references)
        #expect(TypeShape.holding(Payload.self) == .references)
        #expect(TypeShape.holding(Anything.self) == .existentials)
        #expect(TypeShape.holding([Anything?].self) == .existentials)
        #expect(TypeShape.holding(AnyHashable.self) == .existentials)
        // What an existential holds decides, however deep.
        #expect(TypeShape.holdsOnlyValues(value: Anything(value: "text")))
        #expect(TypeShape.holdsOnlyValues(value: [Anything(value: [Anything(value: 1)]), nil]))
        #expect(TypeShape.holdsOnlyValues(value: AnyHashable(Member.ID(1))))
        struct Loose { var value: Any }
        #expect(TypeShape.holdsOnlyValues(value: Loose(value: Tree.leaf(1))))
        #expect(!TypeShape.holdsOnlyValues(value: Loose(value: WithModel(model: Model()))))
        #expect(!TypeShape.holdsOnlyValues(value: [nil, Loose(value: [Loose(value: Model())])]))
        // A custom mirror says how a value prints; its stored members, what a copy shares.
        struct Mirrored: CustomReflectable {
            var id: Int
            var name: String
            var customMirror: Mirror { Mirror(self, children: ["name": name]) }
        }
        struct MirroredModel: CustomReflectable {
            var model: Model
            var customMirror: Mirror { Mirror(self, children: ["count": model.count]) }
        }
        final class MirroredClass: CustomReflectable {
            var customMirror: Mirror { Mirror(self, children: []) }
        }
        #expect(TypeShape.holding(Mirrored.self) == .onlyValues)
        #expect(TypeShape.holding(IdentifiedArrayOf<Member>.self) == .onlyValues)
        #expect(TypeShape.holding([Mirrored].self) == .onlyValues)
        #expect(TypeShape.holding(MirroredModel.self) == .references)
        #expect(TypeShape.holding(MirroredClass.self) == .references)
    }

    /// A team beside one existential member, which holds a string, or a counter that is a class
    /// instance and changes in place.
    struct NotedTeam: State {
        var members: IdentifiedArrayOf<Member> = []
        var note: any Sendable = "none"
    }

    final class Tally: @unchecked Sendable {
        // NB: @unchecked Sendable is safe: the session's one thread reads and bumps it.
        var count = 0
    }

    enum NotedAction: Action {
        case add(id: Int, name: String)
        case rename(id: Int, name: String)
        case note(String)
        case tally
        case bump
    }

    struct NotedMutation: Mutation {
        func mutate(action: NotedAction, state: inout NotedTeam) {
            switch action {
            case .add(let id, let name): state.members.append(Member(id: .init(id), name: name))
            case .rename(let id, let name): state.members[id: .init(id)]?.name = name
            case .note(let text): state.note = text
            case .tally: state.note = Tally()
            case .bump: (state.note as? Tally)?.count += 1
            }
        }
    }

    final class NotedShell {
        let session = Session(
            catalog: StoreCatalog([StoreDefinition("noted", state: NotedTeam(), mutation: NotedMutation())]))

        init() { run("load noted") }

        @discardableResult
        func run(_ line: String) -> [String] { Transcript(session: session).run(line) }

        var runtime: ReducerRuntime<MutationReducer<NotedMutation>> {
            session.stores[0].runtime as! ReducerRuntime<MutationReducer<NotedMutation>>
        }
        var keptStates: Int { runtime.history.value.entries.count(where: { $0.state != nil }) }
        var replays: Bool { runtime.history.value.replays }
        /// The state as printed: a state with an existential is not `Equatable`.
        var printed: [String] { run("state") }
    }

    /// An existential that holds a value is made again as the rest of the state is: one state
    /// kept in a window, and every step back exactly as it printed.
    @Test func anExistentialHoldingValuesIsMadeAgain() {
        let shell = NotedShell()
        var states = [shell.printed]
        for step in 0..<150 {
            let line =
                switch step % 5 {
                case 0, 1: "dispatch add id: \(step) name: m\(step)"
                case 2: "dispatch note n\(step)"
                default: "dispatch rename id: \(step / 2) name: r\(step)"
                }
            #expect(!(shell.run(line).first ?? "").hasPrefix("error"), "\(line)")
            states.append(shell.printed)
        }
        #expect(shell.replays)
        #expect(shell.keptStates <= 150 / SessionHistory.window + SessionHistory.window + 1)
        for step in stride(from: 149, through: 0, by: -1) {
            shell.run("undo")
            #expect(shell.printed == states[step], "undo to step \(step)")
        }
        shell.run("redo 150")
        #expect(shell.printed == states[150])
        #expect(shell.replays)
    }

    /// Once an existential holds a class instance, the store keeps every state: a bump made in
    /// place is never applied again to the instance the kept states share.
    @Test func anExistentialHoldingAClassInstanceKeepsEveryState() {
        let shell = NotedShell()
        var members = [shell.run("state members")]
        let lines =
            (0..<20).map { "dispatch add id: \($0) name: m\($0)" } + ["dispatch tally"]
            + (0..<20).flatMap { ["dispatch bump", "dispatch rename id: \($0) name: r\($0)"] }
        for line in lines {
            shell.run(line)
            members.append(shell.run("state members"))
        }
        #expect(!shell.replays)
        shell.run("undo 30")
        #expect(shell.run("state members") == members[lines.count - 30])
        shell.run("undo 26")
        #expect(shell.run("state members") == members[lines.count - 56])
        #expect(shell.run("state note") == ["\"none\""])
        shell.run("redo 56")
        #expect(shell.run("state members") == members[lines.count])
        #expect((shell.runtime.state.value.note as? Tally)?.count == 20)
    }
}
