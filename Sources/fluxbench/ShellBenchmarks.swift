import FluxShell
import FluxStores

/// The engine's cost for one command, without process start-up or I/O.
enum ShellBenchmarks {
    static func run() {
        print("\nFluxShell engine benchmarks (release build)")
        toggleAmongManyTodos()
        counterIncrements()
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
        let commands = (0..<20_000).map { try! CommandParser.parse("dispatch toggle \($0 * 397 % 100_000 + 1)").command! }
        let start = ContinuousClock.now
        let lines = toggles(commands, in: session)
        let elapsed = ContinuousClock.now - start
        precondition(lines == 20_000)
        let micros = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / 20_000
        print("toggle one todo among 100,000, with its diff line".padding(to: 64) + "\((micros * 10).rounded() / 10) µs/command")
    }

    /// The timed part, apart so that a profiler can record it alone
    /// (`valgrind --tool=callgrind --toggle-collect='*toggles*'`).
    @inline(never)
    static func toggles(_ commands: [Command], in session: Session) -> Int {
        var lines = 0
        for command in commands { lines += Renderer().lines(of: try! session.execute(command)).count }
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
        print("counter 'dispatch increment' (parsed once), with its diff line".padding(to: 64) + "\(Int(nanos)) ns/command")
    }
}
