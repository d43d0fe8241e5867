import FluxShellLanguage
import FluxShellRunner
import FluxShellSession
import FluxShellSystem

/// One run of an exploration: a fresh session with the stores loaded, driven by the runner that
/// runs scripts (each action and each check is a command, reported as a script's are), and what
/// the last command printed.
final class ExploreRun {
    let session: Session
    private let runner: ScriptRunner
    private let capture = Capture()
    private var line = 0

    /// - Parameter steps: how many actions the run may dispatch; `undo` can go back over all.
    init(catalog: StoreCatalog, stores: [String], steps: Int) {
        session = Session(catalog: catalog, historyLimit: max(steps, 1) + 1)
        // NB: nothing is saved: the transcript would only cost.
        session.transcriptLimit = 0
        runner = ScriptRunner(session: session, options: ScriptRunner.Options(), output: capture)
        for name in stores { run(.load(name: name, alias: nil)) }
    }

    /// Runs `command`: what it printed, or why it failed.
    @discardableResult
    func run(_ command: Command) -> Explorer.StepOutput {
        line += 1
        runner.run(command, at: SourceLocation(file: "<explore>", line: line))
        return capture.take()
    }

    /// Keeps what the last command printed.
    private final class Capture: RunnerOutput {
        private var last = Explorer.StepOutput.printed(nil)
        /// The command printed: what its effects then report does not make it refused.
        private var printed = false

        func echo(_ command: String) {}

        func print(
            _ result: borrowing CommandResult, of command: Command, at location: SourceLocation, in session: Session
        ) {
            last = .printed(result.diff)
            printed = true
        }

        func print(_ steps: [AppStep], in session: Session) {}

        // NB: explore runs its own actions and checks, never the shell's own commands.
        func send(toFile path: String?) throws(ShellError) {}
        func write(json: Bool) throws(ShellError) {}
        func printTime(_ duration: Duration, at location: SourceLocation) {}

        func report(_ diagnostic: Diagnostic) {
            // NB: an effect's error comes after its command printed, which it did not refuse.
            guard !printed else { return }
            // NB: what a step printed is compared across runs and processes: without its line.
            var unlocated = diagnostic
            unlocated.location = nil
            last = .refused(unlocated)
        }

        func take() -> Explorer.StepOutput {
            defer { (last, printed) = (.printed(nil), false) }
            return last
        }
    }
}
