import FluxShellFixtures
import FluxShellRunner
import FluxShellSession
import Foundation
import Testing

/// Tasks a store's library starts on its own (a model's `Task {}`, a TCA `Store`'s effects) run
/// on the session's thread with the command that started or woke them, so what they do is that
/// command's, the same in every run ("Stores that change on their own" in the reference).
@Suite struct LibraryTaskTests {
    /// A model as apps write one: `start` begins a timer task that ticks every second on the
    /// clock it was made with, `stop` cancels it; its hook reports every action it applied.
    final class TimerModel: @unchecked Sendable {
        // NB: @unchecked Sendable is safe: `current` and `task` are touched under `lock`.
        struct State {
            var ticks = 0
            var isRunning = false
        }
        enum Action {
            case start
            case stop
            case tick
            /// Starts a task that sends `tick` at once, without sleeping.
            case ping
        }

        private let lock = NSLock()
        private var current = State()
        private var task: Task<Void, Never>?
        let clock: any Clock<Duration>
        var onAction: ((Action, State) -> Void)?

        init(clock: any Clock<Duration>) { self.clock = clock }

        var state: State { lock.withLock { current } }

        func send(_ action: Action) {
            let state = lock.withLock { () -> State in
                switch action {
                case .start: current.isRunning = true
                case .stop: current.isRunning = false
                case .tick: current.ticks += 1
                case .ping: break
                }
                return current
            }
            onAction?(action, state)
            switch action {
            case .start:
                let started = Task { [clock] in
                    while true {
                        do { try await clock.sleep(for: .seconds(1)) } catch { return }
                        self.send(.tick)
                    }
                }
                lock.withLock { task = started }
            case .stop:
                lock.withLock { task }?.cancel()
            case .ping:
                Task { self.send(.tick) }
            case .tick:
                break
            }
        }
    }

    static let timer = StoreDefinition(
        "timer", make: { env in TimerModel(clock: env.clock) }, state: { $0.state },
        send: { store, action in store.send(action) },
        observe: { store, feed in store.onAction = { action, state in feed.record(action, state: state) } })

    static func shell() -> Transcript { StoreForms.shell(timer) }

    @Test func aTaskTheLibraryStartedRunsWithTheCommandThatWokeIt() {
        let shell = Self.shell()
        shell.run("load timer")
        #expect(shell.run("dispatch start") == ["~ isRunning: false -> true"])
        #expect(shell.run("effects") == ["effect 1 (the stores' own tasks): waits 1 s on the clock"])
        #expect(shell.run("advance 1") == ["=> tick", "~ ticks: 0 -> 1"])
        #expect(shell.run("advance 2.5") == ["=> tick", "~ ticks: 1 -> 2", "=> tick", "~ ticks: 2 -> 3"])
        #expect(shell.run("effects") == ["effect 1 (the stores' own tasks): waits 0.5 s on the clock"])
        // The library cancels its task: the sleep throws, and the task ends with the command.
        #expect(shell.run("dispatch stop") == ["~ isRunning: true -> false"])
        #expect(shell.run("effects") == ["(no effects running)"])
        #expect(shell.run("advance 5") == ["(no changes)"])
        #expect(
            shell.run("history") == [
                "  1  start", "  2  advance 1", "     => tick", "  3  advance 2.5", "     => tick", "     => tick",
                "  4  stop", "  5  advance 5",
            ])
    }

    @Test func aTaskThatSendsAtOnceIsPartOfItsCommand() {
        let shell = Self.shell()
        shell.run("load timer")
        for count in 1...20 {
            #expect(shell.run("dispatch ping") == ["=> tick", "~ ticks: \(count - 1) -> \(count)"])
        }
        #expect(shell.run("effects") == ["(no effects running)"])
    }

    @Test func cancelWakesTheSleepingTasksWithCancellationError() {
        let shell = Self.shell()
        shell.run("load timer")
        shell.run("dispatch start")
        #expect(shell.run("cancel") == [])
        #expect(shell.run("effects") == ["(no effects running)"])
        #expect(shell.run("advance 3") == ["(no changes)"])
        // A timer started again sleeps again.
        shell.run("dispatch start")
        #expect(shell.run("advance 1") == ["=> tick", "~ ticks: 0 -> 1"])
    }

    @Test func theSameBytesComeOutOfEveryRun() {
        let script = ["load timer", "dispatch start", "advance 0.5", "dispatch ping", "advance 3", "dispatch stop"]
        let first = Self.shell()
        let expected = script.map { first.run($0) }
        for _ in 0..<20 {
            let shell = Self.shell()
            #expect(script.map { shell.run($0) } == expected)
        }
    }
}

extension LibraryTaskTests {
    @Test func aScenarioThatEndsWhileTheStoresTasksSleepFailsAtItsLastLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tasks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let running = folder.appendingPathComponent("running.scenario").path
        let lines = "load timer\ndispatch start\n~ isRunning: false -> true\nadvance 1\n=> tick\n~ ticks: 0 -> 1\n"
        try lines.write(toFile: running, atomically: true, encoding: .utf8)
        let runner = ScenarioRunner(catalog: StoreCatalog([Self.timer]))
        let failed = runner.run(running)
        #expect(
            failed.report == [
                "\(running):6: error: the scenario ends while an effect is still running",
                "    effect 1 (line 2: the stores' own tasks): waits 1 s on the clock",
                "  (advance the clock until they end, or cancel them before the end)",
            ])
        let stopped = folder.appendingPathComponent("stopped.scenario").path
        try (lines + "dispatch stop\n~ isRunning: true -> false\n").write(
            toFile: stopped, atomically: true, encoding: .utf8)
        #expect(runner.run(stopped).passed, "\(runner.run(stopped).report)")
        // Many at once, on the runner's threads: each passes and fails as it does alone.
        var options = ScenarioRunner.Options()
        options.jobs = 4
        let results = ScenarioRunner(catalog: StoreCatalog([Self.timer]), options: options).run(
            Array(repeating: [running, stopped], count: 20).flatMap { $0 })
        #expect(results.map(\.passed) == Array(repeating: [false, true], count: 20).flatMap { $0 })
    }
}
