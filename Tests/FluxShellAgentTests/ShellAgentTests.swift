import Dispatch
import FluxCore
import FluxShell
import FluxShellAgent
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The agent in the app's own process: a shell that connects over its socket gets a session on
/// the app's store, the app's actions as they happen, and refusals that change nothing.
@Suite(.serialized)
struct ShellAgentTests {
    struct Counter: State, Equatable {
        var count = 0
    }

    enum CounterAction: Action {
        case increment
        case add(Int)
    }

    struct CounterMutation: Mutation {
        func mutate(action: CounterAction, state: inout Counter) {
            switch action {
            case .increment: state.count += 1
            case .add(let amount): state.count += amount
            }
        }
    }

    /// A name no other test or running app serves.
    static func uniqueName(_ base: String) -> String {
        "\(base)-\(UInt64.random(in: 0...UInt64.max))"
    }

    /// The frames of what arrives within 10 s (`nil` at the end of the connection, or when
    /// nothing arrived: the test then fails rather than waits for ever).
    static func receive(_ connection: AttachConnection) -> [AttachWire.Frame]? {
        var ready = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 10_000) > 0 else {
            Issue.record("the agent sent nothing for 10 s")
            return nil
        }
        return connection.receive()
    }

    /// Frames until a `done` (or the end of the connection).
    static func framesUntilDone(_ connection: AttachConnection) -> [AttachWire.Frame] {
        var frames: [AttachWire.Frame] = []
        while let received = receive(connection) {
            frames += received
            if frames.contains(where: { if case .done = $0 { true } else { false } }) { break }
        }
        return frames
    }

    static func connect(to agent: ShellAgent) throws -> AttachConnection {
        let connection = try #require(AttachConnection(path: agent.socketPath))
        try connection.checkPeer(agent.socketPath)
        var hello = AttachWire.Hello()
        hello.program = "agent-tests"
        #expect(connection.sendLine(hello.line))
        return connection
    }

    @Test func aShellDispatchesIntoTheAppAndReadsItsState() throws {
        let flux = Flux(state: Counter(), mutation: CounterMutation())
        let agent = try ShellAgent(serving: flux, as: Self.uniqueName("agent-counter"))
        defer { agent.stop() }
        let connection = try Self.connect(to: agent)

        #expect(connection.sendLine("dispatch add 5"))
        let frames = Self.framesUntilDone(connection)
        #expect(frames.contains(.out("~ count: 0 -> 5")))
        #expect(frames.contains { if case .done(_, failed: false, _) = $0 { true } else { false } })
        #expect(flux.store.state.count == 5)

        #expect(connection.sendLine("state count"))
        #expect(Self.framesUntilDone(connection).contains(.out("5")))
    }

    /// Holds `add 99` until the test lets it go: a slow middleware of the app's.
    struct Gate: Middleware {
        let open: DispatchSemaphore

        func willDispatch(_ action: CounterAction, on dispatcher: Dispatcher<CounterAction>)
            -> MiddlewareDecision<CounterAction>
        {
            if case .add(99) = action { open.wait() }
            return .pass
        }
    }

    /// Lines sent together are answered one by one, as each ends: a slow command does not hold
    /// back the answers of those before it (nor the greeting).
    @Test func eachCommandsAnswerIsSentWhenItEnds() throws {
        let flux = Flux(state: Counter(), mutation: CounterMutation())
        let open = DispatchSemaphore(value: 0)
        flux.dispatcher.use(Gate(open: open))
        let agent = try ShellAgent(serving: flux, as: Self.uniqueName("agent-slow"))
        defer { agent.stop() }
        let connection = try Self.connect(to: agent)
        #expect(connection.sendLine("dispatch add 5\ndispatch add 99\nstate count"))
        let first = Self.framesUntilDone(connection)
        #expect(first.contains(.out("~ count: 0 -> 5")))
        #expect(flux.store.state.count == 5, "the second command is still held")
        open.signal()
        var rest: [AttachWire.Frame] = []
        while rest.count(where: { if case .done = $0 { true } else { false } }) < 2,
            let received = Self.receive(connection)
        {
            rest += received
        }
        #expect(rest.contains(.out("~ count: 5 -> 104")))
        #expect(rest.contains(.out("104")))
    }

    @Test func aCommandThatFailsChangesNothingInTheApp() throws {
        let flux = Flux(state: Counter(), mutation: CounterMutation())
        let agent = try ShellAgent(serving: flux, as: Self.uniqueName("agent-refused"))
        defer { agent.stop() }
        let connection = try Self.connect(to: agent)

        #expect(connection.sendLine("dispatch add lots"))
        let frames = Self.framesUntilDone(connection)
        #expect(frames.contains { if case .err(let text) = $0 { text.contains("error:") } else { false } })
        #expect(frames.contains { if case .done(_, failed: true, _) = $0 { true } else { false } })
        #expect(flux.store.state.count == 0)
    }

    @Test func theAppsOwnActionsReachTheShell() throws {
        let flux = Flux(state: Counter(), mutation: CounterMutation())
        let agent = try ShellAgent(serving: flux, as: Self.uniqueName("agent-app"))
        defer { agent.stop() }
        let connection = try Self.connect(to: agent)
        // NB: once a command has been answered, the session is attached: the app's next action
        // is one it sees.
        #expect(connection.sendLine("state count"))
        _ = Self.framesUntilDone(connection)

        flux.dispatcher.dispatch(.increment)
        var appLines: [String] = []
        while appLines.isEmpty, let received = Self.receive(connection) {
            for case .app(let text) in received { appLines.append(text) }
        }
        #expect(appLines.contains { $0.contains("increment") })
    }

    @Test func aSecondAppUnderTheSameNameIsRefused() throws {
        let name = Self.uniqueName("agent-twice")
        let first = try ShellAgent(serving: Flux(state: Counter(), mutation: CounterMutation()), as: name)
        defer { first.stop() }
        #expect {
            _ = try ShellAgent(serving: Flux(state: Counter(), mutation: CounterMutation()), as: name)
        } throws: { error in
            (error as? ShellError)?.message.contains("another running app is served as '\(name)'") == true
        }
    }

    @Test func aNameThatIsNotOneWordIsRefused() {
        #expect(throws: ShellError.self) {
            _ = try ShellAgent(serving: Flux(state: Counter(), mutation: CounterMutation()), as: "two words")
        }
    }
}
