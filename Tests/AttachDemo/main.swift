// A running app for the end-to-end tests of `fluxsh attach` (Tests/Attach/attach_test.py): a feature
// store with the types apps hold, served by a `ShellAgent`, and a few words on standard input
// that make the app act by itself:
//   tick N     the app dispatches N actions of its own
//   fill N     the app adds N items of its own
//   hold       closes the gate: a shell that reads the state's `gate` waits there
//   waiting    prints how many shells wait at the gate
//   release    opens the gate
//   state      prints what the app's own store holds (not what a shell says)
//   fds        prints how many descriptors the app has open
//   rss        prints the app's resident memory in KiB
//   shells     prints how many shells are attached
//   stop       stops the agent (attached shells print `app exited`), then exits 0
//   exit       exits at once, without stopping the agent
// Usage: attach-demo NAME [QUEUE_LIMIT] [connections=N] [unread=BYTES/SECONDS]
// (the agent's limits, lowered for the tests). With FLUXSH_PAIRING set in its environment, the
// app dials that `fluxsh listen` (FluxShellRemote) instead of serving its Unix socket, as an app on
// a phone does; a code that is not valid is said, and the app runs on without its agent.
import FluxCore
import FluxShellAgent
import FluxShellRemote
import Foundation
import IdentifiedCollections
import Tagged

struct Item: Codable, Equatable, Identifiable, Sendable {
    var id: Tagged<Item, Int>
    var title: String
    var done = false
}

/// Where a shell that reads the state's `gate` waits while the test holds it: a command that
/// takes as long as the test wants, off the app's dispatcher.
struct Gate: Equatable, CustomReflectable {
    static let condition = NSCondition()
    // NB: nonisolated(unsafe) is safe: read and written with `condition` locked.
    nonisolated(unsafe) static var isClosed = false
    nonisolated(unsafe) static var waiting = 0

    static func set(closed: Bool) {
        condition.lock()
        isClosed = closed
        condition.broadcast()
        condition.unlock()
    }

    static var waitingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    var customMirror: Mirror {
        Gate.condition.lock()
        Gate.waiting += 1
        while Gate.isClosed { Gate.condition.wait() }
        Gate.waiting -= 1
        Gate.condition.unlock()
        return Mirror(self, children: ["open": true])
    }
}

enum SyncStatus: Codable, Equatable, Sendable {
    case idle
    case syncing(since: Date)
    case failed(reason: String)
}

struct DemoState: State, Equatable {
    var count = 0
    var items: IdentifiedArrayOf<Item> = []
    var tags: Set<String> = []
    var link: URL?
    var status: SyncStatus = .idle
    var gate = Gate()
}

enum DemoAction: Action {
    case tick
    case add(title: String)
    case toggle(id: Tagged<Item, Int>)
    case tag(String)
    case open(URL?)
    case setStatus(SyncStatus)
}

struct DemoMutation: Mutation {
    func mutate(action: DemoAction, state: inout DemoState) {
        switch action {
        case .tick: state.count += 1
        case .add(let title): state.items.append(Item(id: Tagged(state.items.count + 1), title: title))
        case .toggle(let id): state.items[id: id]?.done.toggle()
        case .tag(let tag): state.tags.insert(tag)
        case .open(let link): state.link = link
        case .setStatus(let status): state.status = status
        }
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard let name = arguments.first else {
    FileHandle.standardError.write("usage: attach-demo NAME [QUEUE_LIMIT]\n".data(using: .utf8)!)
    exit(2)
}
let queueLimit = arguments.dropFirst().first.flatMap { Int($0) } ?? 4_096
var limits = AgentLimits()
for argument in arguments.dropFirst(2) {
    let parts = argument.split(separator: "=")
    switch (parts.first, parts.count == 2 ? parts[1].split(separator: "/") : []) {
    case ("connections", let value) where value.count == 1: limits.connections = Int(value[0]) ?? limits.connections
    case ("unread", let value) where value.count == 2:
        limits.unreadBytes = Int(value[0]) ?? limits.unreadBytes
        limits.unreadSeconds = Int64(value[1]) ?? limits.unreadSeconds
    default:
        FileHandle.standardError.write("attach-demo: unknown argument \(argument)\n".data(using: .utf8)!)
        exit(2)
    }
}

let dispatcher = Dispatcher<DemoAction>()
// The app's middleware: a new item is tagged `new` right after, as a follow-up.
dispatcher.use(
    AnyMiddleware(didDispatch: { action, dispatcher in
        if case .add = action { dispatcher.dispatch(.tag("new")) }
    }))
let flux = Flux(state: DemoState(), mutation: DemoMutation(), dispatcher: dispatcher)
/// A line on standard output, written at once (the test waits for it).
func say(_ line: String) { FileHandle.standardOutput.write((line + "\n").data(using: .utf8)!) }

let agent: ShellAgent?
if let code = ProcessInfo.processInfo.environment["FLUXSH_PAIRING"] {
    // As an app's debug build does: the code from its launch environment, and the app runs on
    // when it is not valid.
    do {
        agent = try ShellAgent(serving: flux, as: name, dialing: code, queueLimit: queueLimit)
    } catch {
        FileHandle.standardError.write("attach-demo: \(error.text)\n".data(using: .utf8)!)
        agent = nil
    }
    say("ready dialing")
} else {
    do {
        agent = try ShellAgent(serving: flux, as: name, queueLimit: queueLimit, limits: limits)
    } catch {
        FileHandle.standardError.write("attach-demo: \(error.message)\n".data(using: .utf8)!)
        exit(1)
    }
    say("ready \(agent!.socketPath)")
}

func openDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

func residentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

while let line = readLine() {
    let words = line.split(separator: " ")
    switch words.first {
    case "tick":
        let count = words.count > 1 ? Int(words[1]) ?? 1 : 1
        for _ in 0..<count { dispatcher.dispatch(.tick) }
        say("ticked \(count)")
    case "fill":
        let count = words.count > 1 ? Int(words[1]) ?? 1 : 1
        for number in 0..<count { dispatcher.dispatch(.add(title: "note \(number)")) }
        say("filled \(count)")
    case "state":
        let state = flux.store.state
        say(
            "count \(state.count) items \(state.items.map { "\($0.title)\($0.done ? "+" : "")" }) tags \(state.tags.sorted())"
        )
    case "hold":
        Gate.set(closed: true)
        say("held")
    case "release":
        Gate.set(closed: false)
        say("released")
    case "waiting": say("waiting \(Gate.waitingCount)")
    case "fds": say("fds \(openDescriptors())")
    case "rss": say("rss \(residentKiB())")
    case "shells": say("shells \(agent?.attachedShells ?? 0)")
    case "stop":
        agent?.stop()
        say("stopped")
        exit(0)
    case "exit": exit(0)
    default: say("unknown \(line)")
    }
}
agent?.stop()
