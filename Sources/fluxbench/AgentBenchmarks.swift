import Dispatch
import FluxCore
import FluxShell
import FluxShellAgent
import FluxShellRemote

#if canImport(Glibc)
    import Glibc
#endif

/// What serving an app's stores to `fluxsh attach` costs the app (`fluxbench agent`): its
/// dispatch of the counter with one view, without an agent, with an agent and no shell, and with
/// a shell that never reads; then how fast a reading shell gets the app's actions, and how long
/// one takes from the app's dispatch to its line on the shell; each on the Unix socket, and over
/// TLS on loopback to a `fluxsh listen` the app dialed (FluxShellRemote), in the same run.
enum AgentBenchmarks {
    /// How a shell reaches the app.
    enum Link: String, CaseIterable {
        case unixSocket = "Unix socket"
        case tls = "TLS, loopback"
    }

    /// `only`: `stalled`, `reading`, `latency` or `pairing` runs that one alone (for a profiler).
    static func run(only: String? = nil) {
        print("Agent benchmarks (release build; the counter with one reflecting view, best of 5 rounds)")
        let runtime = "/tmp/fluxbench-agent-\(getpid())"
        mkdir(runtime, 0o700)
        setenv("XDG_RUNTIME_DIR", runtime, 1)
        defer { system("rm -rf /tmp/fluxbench-agent-\(getpid())") }

        let (alone, aloneFlux) = counter()
        let without = measure("without an agent") { alone.dispatch(.increment) }
        _ = aloneFlux
        switch only {
        case "stalled":
            for link in Link.allCases { stalledShell(baseline: without, over: link) }
            return
        case "reading":
            _ = Link.allCases.map(readingShell)
            return
        case "latency":
            _ = Link.allCases.map(latency)
            return
        case "pairing": return pairing()
        default: break
        }

        let (served, servedFlux) = counter()
        let agent = try! ShellAgent(serving: servedFlux, as: "bench-idle")
        let idle = measure("with an agent, no shell attached") { served.dispatch(.increment) }
        print("with an agent, no shell / without".padding(to: 64) + ratio(idle, without))
        agent.stop()

        for link in Link.allCases { stalledShell(baseline: without, over: link) }
        let reading = Link.allCases.map(readingShell)
        print("a reading shell, TLS / Unix socket (time per action)".padding(to: 64) + ratio(reading[1], reading[0]))
        let medians = Link.allCases.map(latency)
        print("latency, TLS / Unix socket (median)".padding(to: 64) + ratio(medians[1], medians[0]))
        pairing()
    }

    /// An agent serving `flux` as `name`, and a shell's socket to it that said hello: on the app's
    /// Unix socket, or the listener's end of a pairing over TLS (the listener is returned, to be
    /// kept while the shell is).
    static func served(
        _ flux: Flux<CounterAction, CounterState>, as name: String, queueLimit: Int = 4_096, over link: Link
    ) -> (agent: ShellAgent, shell: Int32, listener: PairingListener?) {
        switch link {
        case .unixSocket:
            let agent = try! ShellAgent(serving: flux, as: name, queueLimit: queueLimit)
            return (agent, attach(agent, hello: true), nil)
        case .tls:
            let listener = try! PairingListener(address: "127.0.0.1", port: 0, refused: { print("refused: \($0)") })
            let agent = try! ShellAgent(
                serving: flux, as: name, dialing: listener.pairingCode.text, queueLimit: queueLimit)
            let shell = listener.waitForApp(seconds: 10)!.descriptor
            var line = Array((AttachWire.Hello().line + "\n").utf8)
            precondition(write(shell, &line, line.count) == line.count)
            return (agent, shell, listener)
        }
    }

    /// From an app's agent made with a code to the listener's session with it (TCP, TLS 1.3 and
    /// the pairing line), 20 times, each with a listener of its own.
    static func pairing() {
        var samples: [Double] = []
        for _ in 0..<20 {
            let listener = try! PairingListener(address: "127.0.0.1", port: 0, refused: { print("refused: \($0)") })
            let (_, flux) = counter()
            let start = ContinuousClock.now
            let agent = try! ShellAgent(serving: flux, as: "bench-pairing", dialing: listener.pairingCode.text)
            let shell = listener.waitForApp(seconds: 10)!.descriptor
            samples.append(seconds(since: start) * 1e3)
            close(shell)
            agent.stop()
        }
        samples.sort()
        print(
            "pairing over TLS on loopback (dial, handshake, token)".padding(to: 64)
                + "median \((samples[samples.count / 2] * 10).rounded() / 10) ms, max \((samples.last! * 10).rounded() / 10) ms"
        )
    }

    /// A counter app: its presenter, with one view, and its flux.
    static func counter() -> (Presenter<CounterAction, CounterState>, Flux<CounterAction, CounterState>) {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        return (Presenter(view: CounterView(), flux: flux), flux)
    }

    static func ratio(_ time: Double, _ baseline: Double) -> String { "\((time / baseline * 100).rounded() / 100)x" }

    /// A shell that attached, said hello, and never reads again.
    static func stalledShell(baseline: Double, over link: Link) {
        let (presenter, flux) = counter()
        let handlers = flux.dispatcher.handlerCount
        let (agent, shell, listener) = served(flux, as: "bench-stalled", over: link)
        defer { withExtendedLifetime(listener) {} }
        waitUntil { flux.dispatcher.handlerCount > handlers }
        let before = residentMiB()
        for _ in 0..<200_000 { presenter.dispatch(.increment) }
        let after = residentMiB()
        let stalled = measure("with a shell attached that never reads (\(link.rawValue))") {
            presenter.dispatch(.increment)
        }
        print("with a stalled shell (\(link.rawValue)) / without".padding(to: 64) + ratio(stalled, baseline))
        print(
            "resident memory after 200,000 actions, stalled (\(link.rawValue))".padding(to: 64)
                + "\(after) MiB (\(after - before >= 0 ? "+" : "")\(after - before) MiB)")
        close(shell)
        agent.stop()
    }

    /// A shell that reads as fast as it can: the app's actions to its lines, none dropped. Returns
    /// the time per action.
    @discardableResult
    static func readingShell(over link: Link) -> Double {
        let (presenter, flux) = counter()
        let handlers = flux.dispatcher.handlerCount
        let (agent, shell, listener) = served(flux, as: "bench-reading", queueLimit: 1 << 20, over: link)
        defer { withExtendedLifetime(listener) {} }
        waitUntil { flux.dispatcher.handlerCount > handlers }
        let actions = 200_000
        let start = ContinuousClock.now
        let reader = DispatchQueue(label: "shell")
        let done = DispatchSemaphore(value: 0)
        reader.async {
            let seen = countActionLines(on: shell, until: actions)
            precondition(seen == actions, "the shell saw \(seen) of \(actions) actions")
            done.signal()
        }
        for _ in 0..<actions { presenter.dispatch(.increment) }
        done.wait()
        let seconds = seconds(since: start)
        print(
            "a reading shell (\(link.rawValue)): the app's actions to its lines".padding(to: 64)
                + "\(Int(Double(actions) / seconds)) actions/s (\(actions) in \((seconds * 1000).rounded()) ms)")
        close(shell)
        agent.stop()
        return seconds / Double(actions)
    }

    /// From the app's dispatch to its `<= ACTION` line on an attached shell, one action at a time.
    /// Returns the median.
    @discardableResult
    static func latency(over link: Link) -> Double {
        let (presenter, flux) = counter()
        let handlers = flux.dispatcher.handlerCount
        let (agent, shell, listener) = served(flux, as: "bench-latency", over: link)
        defer { withExtendedLifetime(listener) {} }
        waitUntil { flux.dispatcher.handlerCount > handlers }
        var samples: [Double] = []
        for _ in 0..<20_000 {
            let start = ContinuousClock.now
            presenter.dispatch(.increment)
            _ = countActionLines(on: shell, until: 1)
            samples.append(seconds(since: start) * 1e6)
        }
        samples.sort()
        func percentile(_ fraction: Double) -> String {
            let value = samples[min(samples.count - 1, Int(Double(samples.count) * fraction))]
            return "\((value * 10).rounded() / 10) µs"
        }
        print(
            "latency (\(link.rawValue)), the app's dispatch to its line".padding(to: 64)
                + "median \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1))")
        close(shell)
        agent.stop()
        return samples[samples.count / 2]
    }

    /// A connected socket that said hello (and nothing else).
    static func attach(_ agent: ShellAgent, hello: Bool) -> Int32 {
        let socket = AttachSockets.connected(to: agent.socketPath)
        precondition(socket >= 0, "cannot connect to \(agent.socketPath)")
        if hello {
            var line = Array((AttachWire.Hello().line + "\n").utf8)
            precondition(write(socket, &line, line.count) == line.count)
        }
        return socket
    }

    /// Reads frames until `count` `<= ACTION` lines came; returns how many did.
    static func countActionLines(on socket: Int32, until count: Int) -> Int {
        let marker = Array(#"{"app":"<= "#.utf8)
        var seen = 0
        var atLineStart = true
        var matched = 0
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while seen < count {
            let got = read(socket, &block, block.count)
            guard got > 0 else { break }
            // NB: a small matcher over the bytes, so that the reader is not the bottleneck.
            for byte in block[..<got] {
                if byte == 0x0A {
                    atLineStart = true
                    matched = 0
                } else if atLineStart {
                    if byte == marker[matched] {
                        matched += 1
                        if matched == marker.count {
                            seen += 1
                            atLineStart = false
                        }
                    } else {
                        atLineStart = false
                    }
                }
            }
        }
        return seen
    }

    static func waitUntil(_ condition: () -> Bool) {
        while !condition() { usleep(1_000) }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    static func residentMiB() -> Int {
        let file = open("/proc/self/statm", O_RDONLY)
        guard file >= 0 else { return -1 }
        defer { close(file) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(file, &bytes, bytes.count)
        guard count > 0 else { return -1 }
        let fields = String(decoding: bytes[..<count], as: UTF8.self).split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
    }
}
