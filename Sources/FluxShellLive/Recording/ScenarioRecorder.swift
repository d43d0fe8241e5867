import FluxCore
import FluxShellJSON
import FluxShellSystem
import FluxShellValues

/// Records what an app's dispatcher delivers as a scenario (“Recording a running app” in the
/// reference) that `fluxsh test` replays: the bug report is the test.
///
/// ```swift
/// let recorder = try ScenarioRecorder(recording: SharedFlux.notes, as: "notes", to: path)
/// SharedFlux.notes.dispatcher.dispatch(.rename(id: 2, title: "Buy milk"))
/// try recorder.finish()
/// ```
/// ```text
/// load notes
/// dispatch rename id: 2 title: "Buy milk"
/// expect . == {"notes":[…],"filter":"all"}
/// ```
///
/// A shell that registers the same store under `NAME` replays the file (`myshell test FILE`).
/// Start recording before the first action: the replay starts from the store's initial state.
///
/// - Each action the handlers see is one `dispatch` line, written with one `write(2)` before
///   `dispatch` returns, so a crash of the app loses none. An action a middleware stopped is not
///   written (no store saw it); one a middleware replaced is written as delivered.
/// - A follow-up (an action dispatched while another was delivered, by a middleware or a handler;
///   see `Dispatcher.isDeliveringFollowUp` in FluxCore) is a comment, `# => ACTION (a follow-up; …)`: on
///   replay the shell's store dispatches it from its `effect`, as the app's middleware did. An
///   action dispatched later (from a `Task`, such as a network response) is an ordinary `dispatch`
///   line: replay it with a store whose `effect` does not dispatch it too, or it comes twice.
/// - An action whose line would not replay to the same action (a closure or an `Error` in its
///   payload, an action type that is not an enum) is a comment, `# not replayable: ACTION (WHY)`,
///   and recording goes on.
/// - A failure to write (a full disk, a closed descriptor, a pipe whose reader is gone: never a
///   SIGPIPE) is reported once, on standard error as
///   `ScenarioRecorder: cannot write PATH: REASON; recording stopped` and in ``error``; nothing is
///   written after it, and the app's dispatches go on as before.
///
/// Safe to use from any thread: ``finish()`` may run on another thread than the dispatches.
public final class ScenarioRecorder: Sendable {
    private let writer: any RecordingWriter

    /// Starts recording: replaces the file at `path` with one that holds `load NAME` (written
    /// beside it, then renamed over it, keeping its mode and owner), and adds the recorder to
    /// `flux`'s dispatcher as its last middleware.
    ///
    /// - Parameters:
    ///   - flux: the app's flux; record it before its first action.
    ///   - name: the store's name in the shell that will replay the file (`load NAME`).
    ///   - path: the scenario file, conventionally `*.scenario`.
    /// - Throws: a `ShellError` when `name` is not one word or the file cannot be created (or
    ///   the `load` line written): the file is then as it was.
    @inlinable
    public convenience init<Action, State>(recording flux: Flux<Action, State>, as name: String, to path: String)
        throws(ShellError)
    {
        try self.init(recording: LiveStore(flux, as: name), to: path)
    }

    /// Starts recording a store of any form, as it is served to `fluxsh attach` (a FluxCore flux,
    /// or a store whose hook calls ``LiveStore/record(_:state:)``): replaces the file at `path`
    /// with one that holds `load ALIAS`, the store's alias.
    ///
    /// - Throws: a `ShellError` when the alias is not one word or the file cannot be created.
    public convenience init(recording store: LiveStore, to path: String) throws(ShellError) {
        guard ArgumentText.isBareWord(store.alias) else {
            throw ShellError(
                "cannot record as \(JSONText.quoted(store.alias)): a store name is one word", hint: "e.g. as: \"notes\""
            )
        }
        // NB: the `load` line is in the new file before it replaces the old one: a file that
        // cannot take it is left as it was.
        let file = try OutputFile.create(path, startingWith: "load \(store.alias)\n")
        self.init(recording: store, file: file, path: path, header: "") { OutputFile.writeToStandardError($0) }
    }

    /// Records to `file`, already open, telling a failure to `report` (tests use it); `header`
    /// is written first (by default `load ALIAS`).
    init(
        recording store: LiveStore, file: OutputFile, path: String, header: String? = nil,
        report: @escaping @Sendable (String) -> Void
    ) {
        writer = store.makeWriter(file, path, header ?? "load \(store.alias)\n", report)
    }

    deinit { writer.close() }

    /// The file being written.
    public var path: String { writer.path }

    /// The failure that stopped the recording, if one did.
    public var error: ShellError? { writer.error }

    /// Ends the file with `expect . == STATE` (the state after the last action written) and
    /// closes it; later actions are not recorded. Calling it again does nothing.
    ///
    /// - Throws: the ``error`` that stopped the recording, if one did (the file is then
    ///   incomplete), now or before.
    public func finish() throws(ShellError) {
        try writer.finish()
    }
}
