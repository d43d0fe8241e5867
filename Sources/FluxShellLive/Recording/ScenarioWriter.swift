import FluxCore
import FluxShellJSON
import FluxShellLanguage
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// What a ``ScenarioRecorder`` holds, whatever the store's types.
@usableFromInline
protocol RecordingWriter: AnyObject, Sendable {
    var path: String { get }
    var error: ShellError? { get }
    func write(_ line: String)
    /// Whether shells are attached to the store now (the writer keeps the replay's steps only
    /// while they are: they can set the store to no state from before they attached).
    func shellsAttached(_ attached: Bool)
    /// An attached shell is about to set the store to `state` (`undo`, `redo`, `reset`).
    func storeWillBeSet(to state: Any)
    func finish() throws(ShellError)
    func close()
}

/// What is behind a ``ScenarioRecorder``: writes a scenario line for each action the app's store
/// applied, before the app goes on: as the last middleware of a FluxCore dispatcher, or as a
/// listener of a store's tap (``LiveHub``).
///
/// NB: a class of its own, not the recorder itself: a dispatcher keeps its middlewares as long as
/// it lives, and the recorder must be released (and close its file) when the app lets it go.
/// Once closed, the writer stays on the dispatcher and writes nothing.
@usableFromInline
final class ScenarioWriter<Action, State>: RecordingWriter {
    // NB: `progress` is behind its lock; the rest is immutable, and `readState` is the app's,
    // called on the thread the app applies its actions on (see ``AppValue``).
    /// What changes as the scenario is written, under one lock.
    struct Progress {
        /// `nil` once the file is finished, closed or failed.
        var file: OutputFile?
        /// The state after the last line written (the state the recording began with, before
        /// any): what `expect . ==` ends the file with.
        var state: State?
        /// The first failure to write, after which nothing more is written.
        var error: ShellError?
        /// The replay's history as the lines written make it, while shells are attached: the
        /// state after each of its steps (a `dispatch` line and its follow-ups), from the state
        /// when the first shell attached, the last `stepLimit` only; empty with no shell attached.
        var steps: [State] = []
        /// Where the replay is in `steps`: `undo` and `redo` lines move it, as in the shell.
        var cursor = 0

        /// A `dispatch` line was written, and `state` is the state after it: as in the shell,
        /// the steps undone are gone.
        mutating func stepAdded(_ state: State) {
            guard !steps.isEmpty else { return }
            steps.removeSubrange((cursor + 1)...)
            steps.append(state)
            if steps.count > ScenarioWriter.stepLimit { steps.removeFirst(steps.count - ScenarioWriter.stepLimit) }
            cursor = steps.count - 1
        }

        /// The step the replay is at, nearest first, whose state prints as `state` does.
        func step(printingAs state: JSONValue) -> Int? {
            for distance in 0..<steps.count {
                for step in [cursor - distance, cursor + distance]
                where steps.indices.contains(step) && ValueReader.read(steps[step]) == state {
                    return step
                }
            }
            return nil
        }
    }

    /// How many of the replay's steps the writer keeps to find where an attached shell's `undo`
    /// went: more than the 200 a shell can undo.
    static var stepLimit: Int { 256 }

    @usableFromInline let path: String
    private let readingState: AppValue<() -> State>
    private let actionCases: ActionCases
    private let report: @Sendable (String) -> Void
    private let progress: LockedValue<Progress>
    /// Stops the listening, for a writer on a store's tap; taken out by the first to call it.
    private let stopListening = LockedValue<(() -> Void)?>(nil)

    /// - Parameters:
    ///   - file: the scenario file, open for writing; the writer closes it.
    ///   - readState: the store's state, after the action being recorded.
    ///   - report: where a failure to write is told, once (standard error).
    @usableFromInline
    init(
        file: OutputFile, path: String, readState: @escaping () -> State, actionCases: ActionCases,
        report: @escaping @Sendable (String) -> Void
    ) {
        self.path = path
        self.readingState = AppValue(readState)
        self.actionCases = actionCases
        self.report = report
        self.progress = LockedValue(Progress(file: file, state: readState()))
    }

    /// Writes each action `hub`'s store records from now on.
    @usableFromInline
    func listen(to hub: LiveHub<Action, State>) {
        let registration = hub.register(
            hub.handler(
                { [weak self] action in self?.record(action, isFollowUp: hub.isDeliveringFollowUp) }, missed: {}))
        stopListening.withLock { $0 = { hub.unregister(registration) } }
    }

    @usableFromInline var error: ShellError? { progress.withLock { $0.error } }

    /// Stops listening to the tap, once however often it is called (`finish`, then `close`).
    private func stopListeningOnce() {
        let stop = stopListening.withLock { stop in
            defer { stop = nil }
            return stop
        }
        stop?()
    }

    private var isOpen: Bool { progress.withLock { $0.file != nil } }

    /// Writes the line of an action the store applied; the state read now is the state after it.
    func record(_ action: Action, isFollowUp: Bool) {
        guard isOpen else { return }
        let (line, isStep) = line(for: action, isFollowUp: isFollowUp)
        let state = readingState.value()
        write(line) { progress in
            progress.state = state
            if isStep {
                progress.stepAdded(state)
            } else if isFollowUp, !progress.steps.isEmpty {
                // NB: a follow-up is part of the step before it, in the replay as in the app; an
                // action that does not replay is in neither.
                progress.steps[progress.cursor] = state
            }
        }
    }

    @usableFromInline func write(_ line: String) { write(line) { _ in } }

    @usableFromInline func shellsAttached(_ attached: Bool) {
        progress.withLock { progress in
            progress.steps = attached && progress.file != nil ? progress.state.map { [$0] } ?? [] : []
            progress.cursor = 0
        }
    }

    /// An attached shell is about to set the store to `state`: writes the `undo N` or `redo N`
    /// that takes the replay to a step whose state prints as `state` does, the nearest; when no
    /// step the writer keeps has it (the shell undid a step that a later `dispatch` line took out
    /// of the replay's history), a comment that says the replay parts from the app here.
    @usableFromInline func storeWillBeSet(to state: Any) {
        guard let state = state as? State else { return }
        let printed = ValueReader.read(state)
        let failure = progress.withLock { progress -> ShellError? in
            guard progress.file != nil else { return nil }
            var scenario = ScenarioText()
            let target = progress.step(printingAs: printed)
            switch target {
            case nil:
                scenario.comment(
                    "an attached shell set the store to a state that no undo or redo here reaches; the replay parts from the app from here"
                )
            case progress.cursor?:
                return nil
            case let step?:
                scenario.command(
                    step < progress.cursor
                        ? .undo(steps: progress.cursor - step) : .redo(steps: step - progress.cursor))
            }
            return write(scenario.text, &progress) { progress in
                progress.state = state
                if let target { progress.cursor = target }
            }
        }
        if let failure { reportStopped(failure) }
    }

    /// Writes `line`, then, once it is written, brings `progress` to what the replay holds after it.
    private func write(_ line: String, then update: (inout Progress) -> Void) {
        let failure = progress.withLock { progress in write(line, &progress, then: update) }
        if let failure { reportStopped(failure) }
    }

    private func write(_ line: String, _ progress: inout Progress, then update: (inout Progress) -> Void) -> ShellError?
    {
        guard let file = progress.file else { return nil }
        if let code = file.write(line) {
            return stop(&progress, ShellError("cannot write \(path): \(OutputFile.reason(code))"))
        }
        update(&progress)
        return nil
    }

    /// Ends the file with `expect . == STATE` and closes it; then nothing more is written.
    ///
    /// - Throws: the failure that stopped the recording, now or before.
    @usableFromInline func finish() throws(ShellError) {
        defer { stopListeningOnce() }
        let outcome = progress.withLock { progress -> (error: ShellError?, isNew: Bool) in
            if let error = progress.error { return (error, false) }
            guard let file = progress.file, let state = progress.state else { return (nil, false) }
            var scenario = ScenarioText()
            scenario.expectState(ValueReader.read(state))
            let written = file.write(scenario.text)
            let closed = file.close()
            progress.file = nil
            progress.state = nil
            if let code = written ?? closed {
                return (record(&progress, ShellError("cannot write \(path): \(OutputFile.reason(code))")), true)
            }
            return (nil, false)
        }
        guard let error = outcome.error else { return }
        if outcome.isNew { reportStopped(error) }
        throw error
    }

    /// Closes the file without ending it; nothing more is written.
    @usableFromInline func close() {
        stopListeningOnce()
        progress.withLock { progress in
            progress.file?.close()
            progress.file = nil
            progress.state = nil
        }
    }

    /// Says, once, that `error` stopped the recording.
    private func reportStopped(_ error: ShellError) {
        report("ScenarioRecorder: \(error.message); recording stopped\n")
    }

    private func stop(_ progress: inout Progress, _ error: ShellError) -> ShellError {
        progress.file?.close()
        progress.file = nil
        progress.state = nil
        return record(&progress, error)
    }

    private func record(_ progress: inout Progress, _ error: ShellError) -> ShellError {
        progress.error = error
        return error
    }

    /// The scenario line for `action`: `dispatch ACTION`, or a comment when replaying it would
    /// not give it back (a follow-up, which the replaying store's effect dispatches itself, or an
    /// action with no text form); and whether it is a step of the replay's history.
    func line(for action: Action, isFollowUp: Bool) -> (text: String, isStep: Bool) {
        let printed = ValueReader.read(action)
        let invocation = actionCases.invocation(of: action, printed: printed)
        let text = invocation?.description ?? JSONText.compact(printed)
        var scenario = ScenarioText()
        if isFollowUp {
            scenario.comment("=> \(Self.oneLine(text)) (a follow-up; the store's effect dispatches it on replay)")
        } else if let reason = unreplayable(invocation, printed) {
            scenario.comment("not replayable: \(Self.oneLine(text)) (\(Self.oneLine(reason)))")
        } else if let invocation {
            scenario.command(.dispatch(invocation))
            return (scenario.text, true)
        }
        return (scenario.text, false)
    }

    /// Why the `dispatch` line of `invocation`, replayed, would not dispatch the action that
    /// prints as `printed`; `nil` when it would. Replays it as the shell does: parses the line,
    /// builds the action from the arguments parsed, as the store runtime does, and reads it back.
    private func unreplayable(_ invocation: ActionInvocation?, _ printed: JSONValue) -> String? {
        guard let invocation else { return "it has no case-name form: \(JSONText.compact(printed))" }
        let line = Command.dispatch(invocation).description
        if line.utf8.contains(UInt8(ascii: "\n")) || line.utf8.contains(UInt8(ascii: "\r")) {
            return "its command syntax spans lines"
        }
        let parsed: ActionInvocation
        do {
            guard case .dispatch(let command)? = try CommandParser.parse(line).command else {
                return "its command syntax does not read back as a dispatch"
            }
            parsed = command
        } catch {
            return error.message
        }
        guard let index = actionCases.index(for: parsed) else {
            return actionCases.unlistedBecause ?? "the shell knows no case '\(parsed.name)'"
        }
        let rebuilt: Action
        do throws(ShellError) {
            rebuilt = try actionCases.make(index, parsed, as: Action.self).action
        } catch {
            return error.message
        }
        let reread = ValueReader.read(rebuilt)
        return reread == printed ? nil : "it reads back as \(JSONText.compact(reread))"
    }

    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}

extension ScenarioWriter: Middleware where Action: FluxCore.Action {
    @usableFromInline
    func willDispatch(_ action: Action, on dispatcher: Dispatcher<Action>) -> MiddlewareDecision<Action> {
        .pass
    }

    /// NB: after the handlers, so an action a middleware stopped is not written (nothing saw it)
    /// and a replaced one is written as it was delivered, whatever the middlewares' order.
    /// Delivery is serialised by the dispatcher, so the state read here is the state right after
    /// this action (and its follow-ups come after this line).
    @usableFromInline
    func didDispatch(_ action: Action, on dispatcher: Dispatcher<Action>) {
        record(action, isFollowUp: dispatcher.isDeliveringFollowUp)
    }
}
