import FluxShellJSON
import FluxShellLive
import FluxShellRunner
import FluxShellSystem
import Synchronization

/// The server's one conversation with the session (a session of local stores, or a running
/// app's), as a shell attached to it speaks: a hello, then command lines one at a time, each
/// answered by its lines and a `done` (reference: "The protocol").
actor ConversationBridge {
    /// What a command line printed, and whether it failed.
    struct Reply {
        var lines: [String] = []
        var failed = false
    }

    private let conversation: any PageConversation
    /// The frames `send` got since the line before: filled from any thread.
    private let inbox = Inbox()
    /// The calls waiting for the one running: the session takes one line at a time.
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var isRunning = false
    /// What ends the server when the session ends.
    private let onEnd: @Sendable (String) -> Void
    /// How long a line's answer is waited for: an app whose main thread is blocked never
    /// answers, and the agent is told so rather than left waiting.
    let answerLimit: Duration

    /// Opens a conversation of `conversations` and says hello as `program`; throws why the
    /// session refused it.
    init(
        _ conversations: any PageConversations, program: String, answerLimit: Duration = .seconds(30),
        onEnd: @escaping @Sendable (String) -> Void
    ) async throws(ShellError) {
        let inbox = inbox
        self.onEnd = onEnd
        self.answerLimit = answerLimit
        conversation = conversations.open(
            send: { line in
                guard let frame = AttachWire.Frame(line: Substring(line)) else { return }
                inbox.add(frame)
            },
            end: { onEnd(inbox.end()) })
        var hello = AttachWire.Hello()
        hello.interactive = true
        hello.file = "<mcp>"
        hello.program = program
        hello.writesSaves = true
        await conversation.receive(hello.line)
        guard let answer = await inbox.take(within: answerLimit),
            answer.contains(where: { if case .attached = $0 { true } else { false } })
        else {
            conversation.close()
            throw ShellError(inbox.endedBecause ?? "the session did not answer")
        }
    }

    /// Runs `line` once the calls before it ran; returns what it printed.
    func run(_ line: String) async -> Reply {
        // NB: a line that begins with `{` runs (and is refused) as a command, not as a request.
        guard let answer = await request(AttachWire.typedLine(line)) else {
            return Reply(lines: ["error: \(inbox.endedBecause ?? AttachWire.appExited)"], failed: true)
        }
        guard let answer else {
            return Reply(
                lines: [
                    "error: the session did not answer within \(answerLimit.components.seconds) s (an app whose main thread is busy or blocked answers later): the command may still run, and its answer is dropped"
                ], failed: true)
        }
        var reply = Reply()
        // NB: a line whose `done` never came was cut short (the app ended the session).
        if !answer.contains(where: { if case .done = $0 { true } else { false } }) {
            reply.failed = true
            if !answer.contains(where: { if case .bye = $0 { true } else { false } }) {
                reply.lines.append("error: \(inbox.endedBecause ?? AttachWire.appExited) before the command ended")
            }
        }
        for frame in answer {
            switch frame {
            case .out(let text), .err(let text): reply.lines.append(text)
            case .done(_, let failed, _): reply.failed = reply.failed || failed
            case .save(let file, _, let scenario, let saved):
                // NB: the scenario is written where the server runs, as `fluxsh attach` writes it.
                do {
                    try FileSystem.writeAtomically(scenario, to: file)
                    reply.lines += saved
                } catch {
                    reply.lines.append("error: \(error.message)" + (error.hint.map { " (\($0))" } ?? ""))
                    reply.failed = true
                }
            case .bye(let reason):
                reply.lines.append("error: \(reason)")
                reply.failed = true
            case .attached, .app, .completions, .stateAfter, .opened: break
            }
        }
        return reply
    }

    /// The loaded stores' actions as `actions` prints them: under each store's alias when there
    /// are several, for the `dispatch` tool's description.
    func actions() async -> [String] {
        let answer = (await request(AttachWire.completionRequest("use "))).flatMap { $0 } ?? []
        var aliases: [String] = []
        for case .completions(_, let candidates) in answer { aliases = candidates }
        guard aliases.count > 1 else {
            let reply = await run("actions")
            return reply.failed ? [] : reply.lines
        }
        var lines: [String] = []
        for alias in aliases {
            let reply = await run("actions " + ArgumentText.render(.string(alias)))
            guard !reply.failed else { continue }
            lines.append("store '\(alias)':")
            lines += reply.lines.map { "  " + $0 }
        }
        return lines
    }

    /// Sends `line` (a command line, or a request such as `{"complete":…}`) once the lines
    /// before it were answered; returns its answer (`nil` inside when none came in time), or
    /// `nil` when the session ended before.
    private func request(_ line: String) async -> [AttachWire.Frame]?? {
        if isRunning { await withCheckedContinuation { waiting.append($0) } }
        isRunning = true
        defer {
            if waiting.isEmpty { isRunning = false } else { waiting.removeFirst().resume() }
        }
        guard inbox.endedBecause == nil else { return nil }
        await conversation.receive(line)
        return .some(await inbox.take(within: answerLimit))
    }

    /// The session ends with the client.
    func close() { conversation.close() }
}

/// The frames the session sent, taken a line's worth at a time: up to the `done` that ends a
/// command line (or the `attached` that answers the hello, or the `bye` that ends the session).
/// A local session has answered when its line is taken; an app's answers come over its socket
/// after the line is written, and are waited for, up to a time limit: the answer of a line given
/// up on is dropped when it comes, so that the next line gets its own.
final class Inbox: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<[AttachWire.Frame]?, Never>
        let timer: Task<Void, Never>
    }

    private struct State {
        var frames: [AttachWire.Frame] = []
        var waiter: Waiter?
        var waits = 0
        /// How many lines were given up on whose answers have not come yet.
        var abandoned = 0
        var reason: String?
    }

    // NB: a waiter is resumed after the lock is let go, by whichever of the answer and the time
    // limit takes it out first.
    private let state = Mutex(State())

    /// Why the session ended, once it did.
    var endedBecause: String? { state.withLock { $0.reason } }

    func add(_ frame: AttachWire.Frame) {
        // NB: what the app does by itself is not a command's answer.
        if case .app = frame { return }
        let answered = state.withLock { state -> (Waiter, [AttachWire.Frame])? in
            if case .bye(let why) = frame {
                state.reason = why
                // NB: what came of a line given up on is not the waiting line's.
                if state.abandoned > 0 { state.frames.removeAll() }
            } else if state.abandoned > 0, Self.ends(frame) {
                // NB: the answer of a line given up on: dropped, the next line's comes after it.
                state.abandoned -= 1
                state.frames.removeAll()
                return nil
            }
            state.frames.append(frame)
            guard Self.ends(frame), let waiting = state.waiter else { return nil }
            state.waiter = nil
            defer { state.frames.removeAll() }
            return (waiting, state.frames)
        }
        guard let (waiting, came) = answered else { return }
        waiting.timer.cancel()
        waiting.continuation.resume(returning: came)
    }

    /// The session ended: a waiting line gets what came. Returns why it ended.
    func end() -> String {
        let (why, waiting, came) = state.withLock { state in
            let why = state.reason ?? AttachWire.appExited
            state.reason = why
            defer {
                state.waiter = nil
                state.frames.removeAll()
            }
            return (why, state.waiter, state.frames)
        }
        waiting?.timer.cancel()
        waiting?.continuation.resume(returning: came)
        return why
    }

    /// The frames up to the next one that ends a line, once it came; `nil` when it did not
    /// come within `limit` (the line is given up on).
    func take(within limit: Duration) async -> [AttachWire.Frame]? {
        await withCheckedContinuation { (continuation: CheckedContinuation<[AttachWire.Frame]?, Never>) in
            let came = state.withLock { state -> [AttachWire.Frame]? in
                guard state.reason != nil || state.frames.contains(where: Self.ends) else {
                    state.waits += 1
                    let id = state.waits
                    // NB: the timer takes the lock to give up, so it finds the waiter set.
                    let timer = Task { [weak self] in
                        guard (try? await Task.sleep(for: limit)) != nil else { return }
                        self?.giveUp(on: id)
                    }
                    state.waiter = Waiter(id: id, continuation: continuation, timer: timer)
                    return nil
                }
                defer { state.frames.removeAll() }
                return state.frames
            }
            if let came { continuation.resume(returning: came) }
        }
    }

    /// The time limit of wait `id` ran out: when it still waits, it gets `nil`.
    private func giveUp(on id: Int) {
        let waiting = state.withLock { state -> Waiter? in
            guard let waiting = state.waiter, waiting.id == id else { return nil }
            state.waiter = nil
            state.abandoned += 1
            return waiting
        }
        waiting?.continuation.resume(returning: nil)
    }

    private static func ends(_ frame: AttachWire.Frame) -> Bool {
        switch frame {
        case .done, .attached, .bye, .completions, .stateAfter, .opened: true
        default: false
        }
    }
}
