import Dispatch
import FluxShell
import NIOCore

/// One connection's session (an engine ``AttachedShell``), run on a serial queue of its own: off
/// the agent's event loop, so that one shell's long command (a huge state, a slow middleware of
/// the app) never holds up another shell's answers. Its connection gives it one job at a time
/// and writes each job's output before it gives the next, so each shell's answers keep their order.
///
/// NB: what the jobs change is in a cell: they run on `queue`, one at a time.
final class SessionWorker: Sendable {
    /// What a connection asks of its session.
    enum Job: Sendable {
        /// Bytes the shell sent: lines are run until their output reaches ``outputPerJob``.
        case input(ByteBuffer)
        /// The app's actions arrived.
        case appSteps
        /// The shell's input ended.
        case endOfInput
        /// The app stops serving.
        case appExits
        /// The shell left `held` bytes of answers unread past the limit.
        case leftUnread(held: Int, limit: Int, seconds: Int64)
        /// The connection is gone.
        case close
    }

    /// What a job gives back.
    struct Outcome: Sendable {
        /// What to send the shell.
        var output: ByteBuffer?
        /// The bytes of `input` left to run (the output had grown enough).
        var rest: ByteBuffer?
        /// The session ended: the output holds its last words.
        var isFinished = false
        /// The session could not begin: why.
        var refusal: String?
    }

    /// A job's output is left to be written once it reaches this size: the lines after it wait,
    /// so that a shell that does not read holds at most this much, beyond one command's answer.
    static let outputPerJob = 64 << 10

    private let stores: [LiveStore]
    private let name: String
    private let queueLimit: Int
    private let connections: AgentConnections
    private let queue = DispatchQueue(label: "fluxsh.agent.session")
    private struct Status {
        var shell: AttachedShell?
        var isCountedEnded = false
    }
    private let status = SingleThreadCell(Status())
    private var shell: AttachedShell? {
        get { status.value.shell }
        set { status.value.shell = newValue }
    }
    private var isCountedEnded: Bool {
        get { status.value.isCountedEnded }
        set { status.value.isCountedEnded = newValue }
    }
    private static let key = DispatchSpecificKey<Bool>()

    /// The calling thread runs a session's job (an app's observer called from a shell's command).
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    init(stores: [LiveStore], name: String, queueLimit: Int, connections: AgentConnections) {
        self.stores = stores
        self.name = name
        self.queueLimit = queueLimit
        self.connections = connections
        queue.setSpecific(key: Self.key, value: true)
    }

    /// Runs `job` on the session's queue, then calls `done` with its outcome (on that queue).
    ///
    /// - Parameters:
    ///   - wake: what the session calls when the app's actions arrive (made with the session,
    ///     at the first bytes).
    ///   - emit: what the session calls with the output of each line of `input` but the last, as
    ///     the line ends: a command's answer is sent when it ends, not when the job does (a slow
    ///     command after it, an app that then dies).
    func run(
        _ job: Job, allocator: ByteBufferAllocator, wake: @escaping @Sendable () -> Void,
        emit: @escaping @Sendable (ByteBuffer) -> Void = { _ in }, done: @escaping @Sendable (Outcome) -> Void
    ) {
        queue.async { [self] in done(perform(job, allocator, wake, emit)) }
    }

    private func perform(
        _ job: Job, _ allocator: ByteBufferAllocator, _ wake: @escaping @Sendable () -> Void,
        _ emit: @Sendable (ByteBuffer) -> Void
    ) -> Outcome {
        var outcome = Outcome()
        var output = OutputBuffer()
        switch job {
        case .input(var bytes):
            if shell == nil {
                do {
                    shell = try AttachedShell(serving: stores, name: name, queueLimit: queueLimit, wake: wake)
                    connections.sessionStarted()
                } catch {
                    // NB: written by the renderer, the one writer of `error:` lines.
                    outcome.refusal = Renderer().lines(of: Diagnostic(.failedLine, error.message)).joined(
                        separator: "\n")
                    return outcome
                }
            }
            guard let shell else { return outcome }
            var emitted = 0
            while !shell.isFinished, emitted + output.count < Self.outputPerJob, bytes.readableBytes > 0 {
                let readable = bytes.readableBytesView
                let end = readable.firstIndex(of: 0x0A).map { $0 + 1 } ?? readable.endIndex
                shell.receive(readable[..<end], to: &output)
                bytes.moveReaderIndex(to: end)
                // NB: the last line's output goes with the outcome, one hop for a line alone.
                guard !output.isEmpty, bytes.readableBytes > 0, !shell.isFinished else { continue }
                var buffer = allocator.buffer(capacity: output.count)
                output.write(to: &buffer)
                emitted += output.count
                output.removeAll()
                emit(buffer)
            }
            if bytes.readableBytes > 0 { outcome.rest = bytes }
        case .appSteps:
            shell?.writeAppSteps(to: &output)
        case .endOfInput:
            shell?.endOfInput(to: &output)
        case .appExits:
            shell?.writeAppSteps(to: &output)
            shell?.appExits(to: &output)
        case .leftUnread(let held, let limit, let seconds):
            if let shell {
                shell.ends(
                    saying: AttachWire.leftUnread(
                        held: held, limit: limit, seconds: seconds, lastLine: shell.lineNumber),
                    to: &output)
            }
        case .close:
            if let shell, !shell.isFinished {
                shell.connectionClosed()
                connections.sessionEnded()
            }
            shell = nil
            return outcome
        }
        outcome.isFinished = shell?.isFinished ?? true
        // NB: a shell that left is no longer counted, while its last words are still written.
        if let shell, shell.isFinished, !isCountedEnded {
            isCountedEnded = true
            connections.sessionEnded()
        }
        if !output.isEmpty {
            var buffer = allocator.buffer(capacity: output.count)
            output.write(to: &buffer)
            outcome.output = buffer
        }
        return outcome
    }
}
