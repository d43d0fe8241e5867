import Dispatch
import FluxCore
import FluxShell
import FluxShellLanguage
import FluxStores
import Foundation
import IdentifiedCollections
import Tagged

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The engine's cost for one command, without process start-up or I/O.
enum ShellBenchmarks {
    static func run() {
        print("\nFluxShell engine benchmarks (release build)")
        toggleAmongManyTodos()
        renameAmongManyMembers()
        counterIncrements()
        recordedDispatches()
    }

    struct NotesState: State { var titles: [String] = [] }
    enum NotesAction: Action { case add(title: String) }
    struct NotesMutation: Mutation {
        func mutate(action: NotesAction, state: inout NotesState) {
            switch action {
            case .add(let title): if state.titles.count < 1_000 { state.titles.append(title) }
            }
        }
    }

    /// What a `ScenarioRecorder` adds to an app's dispatch: one line written (to /dev/null) per
    /// action, with the check that the line replays to the same action.
    static func recordedDispatches() {
        let flux = Flux(state: NotesState(), mutation: NotesMutation())
        guard let recorder = try? ScenarioRecorder(recording: flux, as: "todos", to: "/dev/null") else {
            fatalError("cannot record to /dev/null")
        }
        measure("notes, add title:, with a ScenarioRecorder (to /dev/null)", iterations: 100_000, rounds: 3) {
            flux.dispatcher.dispatch(.add(title: "Buy milk"))
        }
        let plain = Flux(state: NotesState(), mutation: NotesMutation())
        measure("notes, add title:, without", iterations: 100_000, rounds: 3) {
            plain.dispatcher.dispatch(.add(title: "Buy milk"))
        }
        precondition(recorder.error == nil)

        // NB: a pipe read by another thread (`app | cat`): there each write also keeps a SIGPIPE
        // from killing the app when the reader goes.
        var ends: [Int32] = [0, 0]
        let piped = Flux(state: NotesState(), mutation: NotesMutation())
        guard pipe(&ends) == 0,
            let pipeRecorder = try? ScenarioRecorder(recording: piped, as: "todos", to: "/dev/fd/\(ends[1])")
        else { fatalError("cannot record to a pipe") }
        close(ends[1])
        let reader = ends[0]
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while read(reader, &buffer, buffer.count) > 0 {}
            drained.signal()
        }
        measure("notes, add title:, with a ScenarioRecorder (to a pipe)", iterations: 100_000, rounds: 3) {
            piped.dispatcher.dispatch(.add(title: "Buy milk"))
        }
        precondition(pipeRecorder.error == nil)
        try? pipeRecorder.finish()
        drained.wait()
        close(reader)
    }

    struct Member: Identifiable, Equatable, Sendable {
        let id: Tagged<Member, UUID>
        var name: String
    }

    struct IdentifiedTeam: State { var members: IdentifiedArrayOf<Member> = [] }
    struct PlainTeam: State { var members: [Member] = [] }
    /// The identified team beside one existential member, which may hold any value.
    struct AnnotatedTeam: State {
        var members: IdentifiedArrayOf<Member> = []
        var note: any Sendable = "none"
    }
    /// A member that shows itself through a custom mirror (`CustomReflectable`), of an `Int` and
    /// a `String`, as many app types do.
    struct MirroredMember: Identifiable, Sendable, CustomReflectable {
        let id: Tagged<Member, UUID>
        var name: String
        var score = 0
        var customMirror: Mirror { Mirror(self, children: ["id": id, "name": name, "score": score]) }
    }
    /// The identified team of members with a custom mirror.
    struct MirroredTeam: State { var members: IdentifiedArrayOf<MirroredMember> = [] }

    struct MirroredTeamMutation: Mutation, Sendable {
        func mutate(action: TeamAction, state: inout MirroredTeam) {
            switch action {
            case .add(let id, let name): state.members.append(MirroredMember(id: id, name: name))
            case .rename(let id, let name): state.members[id: id]?.name = name
            }
        }
    }

    enum TeamAction: Action {
        case add(id: Tagged<Member, UUID>, name: String)
        case rename(id: Tagged<Member, UUID>, name: String)
    }

    struct IdentifiedTeamMutation: Mutation, Sendable {
        func mutate(action: TeamAction, state: inout IdentifiedTeam) {
            switch action {
            case .add(let id, let name): state.members.append(Member(id: id, name: name))
            case .rename(let id, let name): state.members[id: id]?.name = name
            }
        }
    }

    struct AnnotatedTeamMutation: Mutation, Sendable {
        func mutate(action: TeamAction, state: inout AnnotatedTeam) {
            switch action {
            case .add(let id, let name): state.members.append(Member(id: id, name: name))
            case .rename(let id, let name): state.members[id: id]?.name = name
            }
        }
    }

    struct PlainTeamMutation: Mutation, Sendable {
        func mutate(action: TeamAction, state: inout PlainTeam) {
            switch action {
            case .add(let id, let name): state.members.append(Member(id: id, name: name))
            case .rename(let id, let name):
                if let index = state.members.firstIndex(where: { $0.id == id }) { state.members[index].name = name }
            }
        }
    }

    /// Issue 18's figure: one member renamed by id among 10,000, each line parsed, dispatched,
    /// diffed and rendered, in an `IdentifiedArrayOf<Member>` and in a plain `[Member]`.
    static func renameAmongManyMembers() {
        let catalog = StoreCatalog([
            StoreDefinition("identified", state: IdentifiedTeam(), mutation: IdentifiedTeamMutation()),
            StoreDefinition("plain", state: PlainTeam(), mutation: PlainTeamMutation()),
        ])
        func id(_ number: Int) -> String { String(format: "00000000-0000-0000-0000-%012d", number) }
        var perLine: [String: Double] = [:]
        for store in ["identified", "plain"] {
            let session = Session(catalog: catalog)
            _ = execute(session, "load \(store)")
            for index in 0..<10_000 { _ = execute(session, "dispatch add id: \(id(index)) name: m\(index)") }
            let lines = (0..<2_000).map { "dispatch rename id: \(id($0 * 397 % 10_000)) name: r\($0)" }
            let start = ContinuousClock.now
            var printed = 0
            for line in lines { printed += execute(session, line).count }
            let elapsed = ContinuousClock.now - start
            precondition(printed == 2_000)
            let micros =
                (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / 2_000
            perLine[store] = micros
            print(
                "rename one of 10,000 members by id (\(store)), parsed line".padding(to: 64)
                    + "\((micros * 10).rounded() / 10) µs/command")
        }
        print(
            "identified array: \(((perLine["identified"]! / perLine["plain"]!) * 100).rounded() / 100)x the plain array per line"
        )
    }

    /// The three teams, for the memory figures: `identified`, `plain`, and `annotated` (the
    /// identified team beside an `any Sendable` member).
    static let teamCatalog = StoreCatalog([
        StoreDefinition("identified", state: IdentifiedTeam(), mutation: IdentifiedTeamMutation()),
        StoreDefinition("plain", state: PlainTeam(), mutation: PlainTeamMutation()),
        StoreDefinition("annotated", state: AnnotatedTeam(), mutation: AnnotatedTeamMutation()),
        StoreDefinition("mirrored", state: MirroredTeam(), mutation: MirroredTeamMutation()),
    ])

    /// Issue 18's memory figure: 10,000 members added, then 2,000 renamed by id, with the undo
    /// history kept; prints the process's peak resident size. Run once per store, each in a
    /// process of its own (`fluxbench memory identified`, `… plain`, `… annotated`), and checks
    /// that `undo` still walks back through what was shown.
    static func teamMemory(_ store: String) {
        let catalog = teamCatalog
        func id(_ number: Int) -> String { String(format: "00000000-0000-0000-0000-%012d", number) }
        let session = Session(catalog: catalog)
        _ = execute(session, "load \(store)")
        let start = ContinuousClock.now
        for index in 0..<10_000 { _ = execute(session, "dispatch add id: \(id(index)) name: m\(index)") }
        for index in 0..<2_000 {
            _ = execute(session, "dispatch rename id: \(id(index * 397 % 10_000)) name: r\(index)")
        }
        printPeakResident("12,000 lines on 10,000 members (\(store)), peak resident", since: start)
        // The last rename undone shows the name it replaced; 699 more steps back, and forward.
        let undone = execute(session, "undo")
        precondition(
            undone == ["~ members[\(1_999 * 397 % 10_000)].name: \"r1999\" -> \"m\(1_999 * 397 % 10_000)\""],
            "\(undone)")
        let back = execute(session, "undo 699")
        precondition(back.count == 699, "\(back.count) lines")
        _ = execute(session, "redo 700")
        precondition(execute(session, "state members[\(1_999 * 397 % 10_000)].name") == ["\"r1999\""])
    }

    /// A state of 1,000,000 numbers.
    struct Million: State { var values = Array(0..<1_000_000) }
    enum MillionAction: Action { case set(index: Int, value: Int) }
    struct MillionMutation: Mutation {
        func mutate(action: MillionAction, state: inout Million) {
            switch action {
            case .set(let index, let value): state.values[index] = value
            }
        }
    }

    /// The undo history's memory on a large state: 2,000 one-element changes to a state of
    /// 1,000,000 numbers (7.6 MiB), with the history kept; prints the peak resident size, and
    /// checks that `undo` walks back through what was shown.
    static func largeStateMemory() {
        let session = Session(
            catalog: StoreCatalog([StoreDefinition("million", state: Million(), mutation: MillionMutation())]))
        _ = execute(session, "load million")
        let start = ContinuousClock.now
        for step in 0..<2_000 {
            _ = execute(session, "dispatch set index: \(step * 4_999 % 1_000_000) value: -\(step)")
        }
        printPeakResident("2,000 changes to one of 1,000,000 numbers, peak resident", since: start)
        let undoStart = ContinuousClock.now
        let back = execute(session, "undo 900")
        let undone = ContinuousClock.now - undoStart
        precondition(back.count == 900, "\(back.count) lines")
        precondition(execute(session, "state values[\(1_099 * 4_999 % 1_000_000)]") == ["-1099"])
        print(
            "undo 900 of them".padding(to: 64)
                + "\(Double(undone.components.attoseconds) / 1e15 + Double(undone.components.seconds) * 1e3) ms")
    }

    /// Prints `label`, the process's peak resident size and the seconds since `start`.
    static func printPeakResident(_ label: String, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(label.padding(to: 64) + "\(usage.ru_maxrss / 1024) MiB in \((seconds * 100).rounded() / 100) s")
    }

    static func execute(_ session: Session, _ line: String) -> [String] {
        guard let command = try? CommandParser.parse(line).command, let result = try? session.execute(command) else {
            fatalError("benchmark command failed: \(line)")
        }
        return Renderer().lines(of: result)
    }

    static func toggleAmongManyTodos() {
        let session = Session(catalog: .builtIn)
        _ = execute(session, "load todos")
        for index in 1...100_000 { _ = execute(session, "dispatch add t\(index)") }
        let commands = (0..<20_000).map {
            try! CommandParser.parse("dispatch toggle \($0 * 397 % 100_000 + 1)").command!
        }
        let start = ContinuousClock.now
        let lines = toggles(commands, in: session)
        let elapsed = ContinuousClock.now - start
        precondition(lines == 20_000)
        let micros = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / 20_000
        print(
            "toggle one todo among 100,000, with its diff line".padding(to: 64)
                + "\((micros * 10).rounded() / 10) µs/command")
    }

    /// The timed part, apart so that a profiler can record it alone
    /// (`valgrind --tool=callgrind --toggle-collect='*toggles*'`).
    @inline(never)
    static func toggles(_ commands: [Command], in session: Session) -> Int {
        // NB: as the shell prints: into one output buffer, its lines counted.
        var output = OutputBuffer()
        let renderer = Renderer()
        var lines = 0
        for command in commands {
            output.removeAll()
            renderer.write(try! session.execute(command), command: command, line: nil, to: &output)
            output.forEachByte { if $0 == 0x0A { lines += 1 } }
        }
        return lines
    }

    static func counterIncrements() {
        let session = Session(catalog: .builtIn)
        _ = execute(session, "load counter")
        let command = try! CommandParser.parse("dispatch increment").command!
        let start = ContinuousClock.now
        for _ in 0..<200_000 { _ = try! session.execute(command) }
        let elapsed = ContinuousClock.now - start
        let nanos = (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / 200_000
        print(
            "counter 'dispatch increment' (parsed once), with its diff line".padding(to: 64)
                + "\(Int(nanos)) ns/command")
    }
}
