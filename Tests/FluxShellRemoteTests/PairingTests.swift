import Dispatch
import FluxCore
import FluxShell
import FluxShellAgent
import Testing

@testable import FluxShellRemote

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An app's agent dialing a listener in the same process, over TLS on loopback: the session it
/// opens, and the codes it refuses.
@Suite(.serialized)
struct PairingTests {
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

    /// What a listener and an agent said.
    final class Said: Sendable {
        private let lines = LockedValue<[String]>([])
        private let arrived = DispatchSemaphore(value: 0)

        func add(_ line: String) {
            lines.withLock { $0.append(line) }
            arrived.signal()
        }

        var all: [String] { lines.withLock { $0 } }

        /// Waits (10 s at most) until a line holds `text`.
        func waitFor(_ text: String) -> Bool {
            let deadline = DispatchTime.now() + .seconds(10)
            while !all.contains(where: { $0.contains(text) }) {
                guard arrived.wait(timeout: deadline) == .success else { return false }
            }
            return true
        }
    }

    /// An agent serving `flux` that dials `code`, saying what becomes of its dials to `said`.
    static func agent(_ flux: Flux<CounterAction, Counter>, dialing code: PairingCode, said: Said) throws -> ShellAgent
    {
        let dialer = try PairingDialer(code: code, app: "counter", report: { said.add($0) })
        return try ShellAgent(
            serving: [LiveStore(flux, as: "counter")], as: "counter", limits: AgentLimits(), link: dialer)
    }

    /// The frames of what arrives within 10 s; nil at the end of the connection or after 10 s.
    static func receive(_ connection: AttachConnection) -> [AttachWire.Frame]? {
        var ready = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 10_000) > 0 else {
            Issue.record("nothing arrived for 10 s")
            return nil
        }
        return connection.receive()
    }

    static func frames(_ connection: AttachConnection, until done: (AttachWire.Frame) -> Bool) -> [AttachWire.Frame] {
        var frames: [AttachWire.Frame] = []
        while let received = receive(connection) {
            frames += received
            if received.contains(where: done) { break }
        }
        return frames
    }

    static func isDone(_ frame: AttachWire.Frame) -> Bool { if case .done = frame { true } else { false } }

    @Test func anAppThatDialsIsAttachedAndDriven() throws {
        let refusals = Said()
        let listener = try PairingListener(address: "127.0.0.1", port: 0, refused: { refusals.add($0) })
        let flux = Flux(state: Counter(), mutation: CounterMutation())
        let said = Said()
        let agent = try Self.agent(flux, dialing: listener.pairingCode, said: said)
        defer { agent.stop() }
        let (descriptor, app) = try #require(listener.waitForApp(seconds: 10))
        #expect(app == "counter")
        let connection = AttachConnection(descriptor: descriptor)
        var hello = AttachWire.Hello()
        hello.program = "remote-tests"
        #expect(connection.sendLine(hello.line))
        #expect(connection.sendLine("dispatch add 5"))
        let answered = Self.frames(connection, until: Self.isDone)
        #expect(answered.contains { if case .attached(name: "counter", _) = $0 { true } else { false } })
        #expect(answered.contains(.out("~ count: 0 -> 5")))
        #expect(flux.store.state.count == 5)
        #expect(agent.attachedShells == 1)

        flux.dispatcher.dispatch(.increment)
        let live = Self.frames(connection) { $0 == .app("~ count: 5 -> 6") }
        #expect(live.contains(.app("<= increment")))

        agent.stop()
        let last = Self.frames(connection) { if case .bye = $0 { true } else { false } }
        #expect(last.last == .bye(AttachWire.appExited))
        #expect(refusals.all.isEmpty)
    }

    @Test func twoShellsAreTwoAgentsEachWithItsCode() throws {
        let first = try PairingListener(address: "127.0.0.1", port: 0, refused: { _ in })
        let second = try PairingListener(address: "127.0.0.1", port: 0, refused: { _ in })
        let flux = Flux(state: Counter(), mutation: CounterMutation())
        let one = try Self.agent(flux, dialing: first.pairingCode, said: Said())
        defer { one.stop() }
        let other = try Self.agent(flux, dialing: second.pairingCode, said: Said())
        defer { other.stop() }
        let shells = try [first, second].map { listener in
            let connection = AttachConnection(descriptor: try #require(listener.waitForApp(seconds: 10)).descriptor)
            #expect(connection.sendLine(AttachWire.Hello().line))
            _ = Self.frames(connection) { if case .attached = $0 { true } else { false } }
            return connection
        }
        #expect(shells[0].sendLine("dispatch add 3"))
        #expect(Self.frames(shells[0], until: Self.isDone).contains(.out("~ count: 0 -> 3")))
        let seen = Self.frames(shells[1]) { $0 == .app("~ count: 0 -> 3") }
        #expect(seen.contains(.app("<= add 3")))
    }

    @Test func aShellThatLeavesUsesThePairing() throws {
        let listener = try PairingListener(address: "127.0.0.1", port: 0, refused: { _ in })
        let said = Said()
        let agent = try Self.agent(
            Flux(state: Counter(), mutation: CounterMutation()), dialing: listener.pairingCode, said: said)
        defer { agent.stop() }
        let connection = AttachConnection(descriptor: try #require(listener.waitForApp(seconds: 10)).descriptor)
        #expect(connection.sendLine(AttachWire.Hello().line))
        connection.finishSending()
        let frames = Self.frames(connection) { if case .bye = $0 { true } else { false } }
        #expect(frames.last == .bye(AttachWire.detached))
        #expect(said.waitFor("the session with \(listener.pairingCode.address) ended; the pairing is used"))
    }

    @Test func aWrongTokenIsRefusedAndTheRightOnePairsAfter() throws {
        let refusals = Said()
        let listener = try PairingListener(address: "127.0.0.1", port: 0, refused: { refusals.add($0) })
        let code = listener.pairingCode
        var token = code.token
        token[3] ^= 1
        let wrong = PairingCode(host: code.host, port: code.port, token: token, fingerprint: code.fingerprint)
        let flux = Flux(state: Counter(), mutation: CounterMutation())
        let said = Said()
        let intruder = try Self.agent(flux, dialing: wrong, said: said)
        defer { intruder.stop() }
        #expect(said.waitFor("refused the pairing: refused: the pairing token is wrong"))
        #expect(refusals.waitFor("a wrong token"))
        #expect(listener.waitForApp(seconds: 0) == nil)

        let rightful = try Self.agent(flux, dialing: code, said: Said())
        defer { rightful.stop() }
        #expect(listener.waitForApp(seconds: 10) != nil)

        let late = Said()
        let second = try Self.agent(flux, dialing: code, said: late)
        defer { second.stop() }
        #expect(late.waitFor("refused the pairing: refused: the pairing code was used already"))
        #expect(refusals.waitFor("the code was used already"))
    }

    @Test func aListenerWithAnotherCertificateIsNotDialedAgain() throws {
        let refusals = Said()
        let listener = try PairingListener(address: "127.0.0.1", port: 0, refused: { refusals.add($0) })
        let code = listener.pairingCode
        var fingerprint = code.fingerprint
        fingerprint[0] ^= 0x80
        let stale = PairingCode(host: code.host, port: code.port, token: code.token, fingerprint: fingerprint)
        let said = Said()
        let agent = try Self.agent(Flux(state: Counter(), mutation: CounterMutation()), dialing: stale, said: said)
        defer { agent.stop() }
        #expect(said.waitFor("shows another certificate than the pairing code's; not dialing it again"))
        // NB: the app aborts TLS before it sends anything: the listener never sees the token.
        #expect(refusals.waitFor("no TLS with this listener's certificate"))
        #expect(listener.waitForApp(seconds: 0) == nil)
    }

    @Test func aListenerThatIsNotThereIsDialedAgainAndSaidOnce() throws {
        let listener = try PairingListener(address: "127.0.0.1", port: 0, refused: { _ in })
        let code = listener.pairingCode
        // A port nothing listens on: the listener's, with its own bound to another.
        let gone = PairingCode(host: code.host, port: 1, token: code.token, fingerprint: code.fingerprint)
        let said = Said()
        let agent = try Self.agent(Flux(state: Counter(), mutation: CounterMutation()), dialing: gone, said: said)
        defer { agent.stop() }
        #expect(said.waitFor("cannot reach 127.0.0.1:1"))
        #expect(said.all.count == 1)
        #expect(said.all.first?.hasSuffix("; dialing again") == true)
    }

    @Test func listeningOnEveryInterfaceIsRefusedWithAHint() {
        #expect {
            _ = try PairingListener(address: "0.0.0.0", port: 0, refused: { _ in })
        } throws: { error in
            (error as? ShellError)?.message == "--address 0.0.0.0 is every interface, not an address an app can dial"
        }
    }
}
