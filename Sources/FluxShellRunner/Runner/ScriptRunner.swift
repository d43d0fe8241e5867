import FluxShellLanguage
import FluxShellSession
import FluxShellSystem
import FluxShellValues

/// Where a runner reports what each line did: the ``Printer`` writes it for people and scripts;
/// the scenario runner keeps only the diagnostics, which the runner collects anyway.
package protocol RunnerOutput: AnyObject {
    /// `--echo`: the command about to run, trimmed.
    func echo(_ command: String)
    /// What a command did; `session` is the one it ran in (its watched paths filter the diff).
    func print(_ result: borrowing CommandResult, of command: Command, at location: SourceLocation, in session: Session)
    /// A line that failed or whose expected diff lines did not hold.
    func report(_ diagnostic: Diagnostic)
    /// What the stores did with no command, before the next command runs.
    func print(_ steps: [AppStep], in session: Session)
    /// `output FILE`: the results go to FILE from now on; `nil`, back to standard output.
    func send(toFile path: String?) throws(ShellError)
    /// `format text|json`: how the results are written from now on.
    func write(json: Bool) throws(ShellError)
    /// `timer on`: the wall time of the command at `location`, after its output.
    func printTime(_ duration: Duration, at location: SourceLocation)
}

/// Runs command lines one at a time, for piped mode, `fluxsh run`, `fluxsh test` and the
/// interactive shell: reports what each command did and each error (a ``Diagnostic``) to its
/// ``RunnerOutput``, and checks expected diff lines (the `~ `, `+ `, `- `, `=> ` and
/// `(no changes)` lines right after a state-changing command, and `...` among them).
package final class ScriptRunner {
    public struct Options: Sendable {
        /// Print `> COMMAND` before each command's output.
        public var echo = false
        /// Stop at the first failing command.
        public var bail = false
        /// Every state-changing command must be followed by its expected diff lines.
        public var exhaustive = false
        /// Keep every diff block (for `--update`), not only the failing ones.
        public var collectsDiffBlocks = false
        /// Take `~ `, `+ `, `- `, `=> `, `(no changes)` and `...` lines as the expected diff of the
        /// command before (scripts, scenarios); the interactive shell refuses them instead, as it
        /// could only say whether they matched when the next line is typed.
        public var acceptsExpectedLines = true
        /// The script fails at its last line when effects are still running there (scenarios:
        /// what an effect still does at the end was not checked).
        public var failsWithRunningEffects = false
        /// Whether `read FILE` may run a file: not in an app's agent, which would read the app's
        /// files rather than the user's.
        public var readsFiles = true
        /// How a failed diff block's report says to rewrite its expected lines in a file
        /// (`run 'cartsh test --update'`); `nil` offers the shell's own `test --update`.
        public var updateAdvice: String?

        public init() {}
    }

    /// A state-changing command's diff block: where its expected lines are, what happened.
    public struct DiffBlock: Sendable {
        /// The file the command is in: the script's, or one it read (`read FILE`, as typed).
        public var file: String
        /// The 1-based line of the command.
        public var commandLine: Int
        /// The 1-based lines of its expected diff lines (empty when there were none).
        public var expectedLines: Range<Int>
        /// The expected diff lines, trimmed.
        public var expected: [String]
        public var actual: [String]
        /// Whether the block must be present (exhaustive).
        public var isRequired: Bool
        /// Whether the actual lines match the expected ones, or none were needed.
        public var passed: Bool
    }

    public let session: Session
    public let options: Options
    /// `nil`: nothing is printed (the scenario runner).
    let output: RunnerOutput?
    /// The failures so far, in order.
    public var failures: [Diagnostic] { progress.value.failures }
    public private(set) var diffBlocks: [DiffBlock] = []
    /// The files `read` ran (as typed), with the bytes it read: `test --update` rewrites one
    /// only while it still holds them.
    public internal(set) var filesRead: [String: [UInt8]] = [:]
    /// Called with each line's location before it runs: a child process of `run` or `test` that
    /// is run again to find the line that trapped writes it where its parent reads it.
    public var beforeEachLine: ((SourceLocation) -> Void)?
    /// The script asked to stop (`quit`), or `--bail` stopped it.
    public var isStopped: Bool { progress.value.isStopped }
    /// The 1-based number of the line being run, or of the last one run (0 before the first):
    /// where piped mode reports a store that trapped. A plain stored number, so that keeping it
    /// costs each line one store, and a signal handler can read it.
    public var lineInProgress: Int { progress.value.line }

    /// What every line reads or changes.
    private struct Progress {
        var failures: [Diagnostic] = []
        var isStopped = false
        /// The state-changing command whose expected diff lines are being read.
        var pending: Pending?
        /// The last line parsed, its bytes, and how: scripts repeat lines (`dispatch increment`)
        /// a lot, and a repeated line is recognised before it is even decoded.
        var lastParse: ParsedLineCache?
        /// The number of the line being run (or last run); 0 before the first.
        var line = 0
    }

    // NB: a runner is used from one thread at a time: what every line touches is one value,
    // whose accesses skip the run-time exclusivity checks (see `SingleThreadCell`).
    private let progress = SingleThreadCell(Progress())
    /// The line of the state-changing command just before, when it failed: its expected diff
    /// lines have nothing to be compared with (one error says so, for the whole block).
    private var failedCommand: (line: Int, reported: Bool)?

    private final class ParsedLineCache {
        var line: String
        var parsed: ParsedLine

        init(line: String, parsed: ParsedLine) {
            self.line = line
            self.parsed = parsed
        }
    }

    /// NB: a class, so that checking the pending command on every line copies nothing.
    private final class Pending {
        var location: SourceLocation
        var line: String
        var command: String { ScriptRunner.trimmed(line) }
        /// The command's diff: what its expected lines are compared with.
        var diff: CommandDiff?
        /// What the command printed (its diff and warnings), rendered only when there are
        /// expected lines to compare, then the steps the stores made on their own after it.
        var actual: [String] { (diff?.lines ?? []) + later }
        /// The lines of the steps the stores made on their own after the command (`<= …` and
        /// their diffs), taken before the next command.
        var later: [String] = []
        var expected: [String] = []
        /// Whether one of `expected` is `...`. NB: a record is reused only when it had no expected
        /// lines (see `closePending()`), so this is never left set from a command before.
        var hasEllipsis = false
        /// Whether an expected line has a `*` where no value can stand (reported at its line):
        /// the block is neither compared nor rewritten by `--update`.
        var hasInvalidLine = false
        var firstExpectedLine: Int
        var isRequired: Bool

        init(
            location: SourceLocation, line: String, result: borrowing CommandResult, firstExpectedLine: Int,
            isRequired: Bool
        ) {
            self.location = location
            self.line = line
            self.diff = result.diff
            self.firstExpectedLine = firstExpectedLine
            self.isRequired = isRequired
        }
    }

    /// The files being run, outermost first, their links resolved: a file `read` names again
    /// is refused (``runShellsOwn(_:line:expectsFailure:at:)``).
    var readChain: [String] = []
    /// `timer on`: each command's wall time is written after its output.
    var timesCommands = false
    /// The runner runs a file `read` named (its errors name the file wherever they print).
    var isReading = false

    /// The lexer's buffer, kept from line to line.
    private var tokenBuffer: [Token] = []

    /// The last pending command's record, reused for the next one when nothing kept it.
    private var sparePending: Pending?

    public init(session: Session, options: Options, output: RunnerOutput?) {
        self.session = session
        self.options = options
        self.output = output
    }

    /// Runs a whole text, as a file of lines.
    public func run(_ bytes: [UInt8], file: String) {
        var lines = LineReader(bytes: bytes)
        run(&lines, file: file)
    }

    /// Runs every line `lines` gives (a file's, standard input's, the line editor's), then ends
    /// the script. A line over the maximum length fails at its number without being run.
    public func run(_ lines: inout some LineSource, file: String) {
        if file != "<stdin>" { readChain.append(FileSystem.resolvedPath(file)) }
        defer { if file != "<stdin>" { readChain.removeLast() } }
        var number = 0
        var tooLong = false
        while !progress.value.isStopped, let line = lines.nextLine(tooLong: &tooLong) {
            number += 1
            if let beforeEachLine { beforeEachLine(SourceLocation(file: file, line: number)) }
            if tooLong {
                rejectLine(
                    number, file: file, ShellError("line longer than \(lines.maximumLineLength >> 20) MiB, skipped"))
                continue
            }
            runLine(line, number: number, file: file)
        }
        finish(file: file)
        if options.failsWithRunningEffects {
            failIfEffectsRun(at: SourceLocation(file: file, line: max(number, 1)))
        }
    }

    /// Fails at `location` when effects are still running: each named with the line that
    /// started it and what it waits for.
    public func failIfEffectsRun(at location: SourceLocation) {
        let running = session.runningEffects
        guard !running.isEmpty else { return }
        let count = running.count == 1 ? "an effect is" : "\(running.count) effects are"
        record(
            Diagnostic(
                .failedLine, "the scenario ends while \(count) still running", at: location,
                details: running.map { "    " + $0.text }
                    + ["  (advance the clock until they end, or cancel them before the end)"]))
    }

    /// How a line given to the runner ended.
    public struct LineOutcome: Equatable {
        /// The line failed, or the expected diff lines before it did (it closed their block).
        public var failed: Bool
        /// The script is stopped (by this line's `quit`, or `--bail` after a failure, or before).
        public var stops: Bool
    }

    /// Runs one line (without its newline) read from `file`, and says how it ended: what an
    /// attached shell's `done` frame reports.
    @discardableResult
    public func feed(_ raw: ArraySlice<UInt8>, number: Int, file: String) -> LineOutcome {
        outcome { runLine(raw, number: number, file: file) }
    }

    /// Fails line `number` of `file` without running it (it is too long to read), and says how
    /// it ended, as ``feed(_:number:file:)`` does.
    @discardableResult
    public func reject(line number: Int, file: String, _ error: ShellError) -> LineOutcome {
        outcome { rejectLine(number, file: file, error) }
    }

    /// How the line that `run` runs ended.
    private func outcome(of run: () -> Void) -> LineOutcome {
        let failures = progress.value.failures.count
        run()
        return LineOutcome(failed: progress.value.failures.count > failures, stops: progress.value.isStopped)
    }

    /// Runs one line (without its newline) read from `file`.
    private func runLine(_ raw: ArraySlice<UInt8>, number: Int, file: String) {
        guard !isStopped else { return }
        progress.value.line = number
        let location = SourceLocation(file: file, line: number)
        var bytes = raw
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        if let lastParse = progress.value.lastParse, Bytes.equal(bytes, lastParse.line) {
            if session.hasStoresChangingOnTheirOwn, lastParse.parsed.command != nil {
                takeChangesOnTheirOwn(at: location)
            }
            closePending()
            run(lastParse, at: location)
            return
        }
        guard let line = Self.decode(bytes) else {
            closePending()
            fail(at: location, ShellError("this line is not valid UTF-8", hint: "save the file as UTF-8"))
            return
        }
        if Self.isExpectedDiffLine(line) { return takeExpectedLine(line, at: location) }
        let parsed: ParsedLine
        do {
            parsed = try CommandParser.parse(line[...], reusing: &tokenBuffer)
        } catch {
            closePending()
            // NB: `! ` before a line that does not even parse is an expected failure too.
            if !Self.expectsFailure(line) { fail(at: location, error, line: line) }
            return
        }
        // NB: before a command only: a comment or a blank line between a command's expected
        // lines and `<=` lines leaves the steps to those.
        if session.hasStoresChangingOnTheirOwn, parsed.command != nil { takeChangesOnTheirOwn(at: location) }
        closePending()
        // NB: the last line's record is refilled when nothing else holds it: a line never seen
        // before allocates no new one.
        if progress.value.lastParse != nil, isKnownUniquelyReferenced(&progress.value.lastParse!) {
            progress.value.lastParse!.line = line
            progress.value.lastParse!.parsed = parsed
        } else {
            progress.value.lastParse = ParsedLineCache(line: line, parsed: parsed)
        }
        run(progress.value.lastParse!, at: location)
    }

    /// Takes an expected diff line (`~ …`, `+ …`, `=> …`, `...`) of the command before it, or the
    /// `<= …` lines of the steps the stores make on their own; fails one that follows no command
    /// that changes state, and one typed at the prompt.
    private func takeExpectedLine(_ line: String, at location: SourceLocation) {
        // NB: `<= …` with no command before it expects the steps the stores make on their own
        // before the next command (a saved scenario writes them after a `load`, an `expect`).
        if progress.value.pending == nil, options.acceptsExpectedLines, Self.trimmed(line).hasPrefix("<= ") {
            // NB: after a failed command too: the steps are not its diff.
            failedCommand = nil
            progress.value.pending = Pending(
                location: location, line: line, result: CommandResult(), firstExpectedLine: location.line,
                isRequired: false)
        }
        guard options.acceptsExpectedLines else {
            closePending()
            fail(
                at: location,
                ShellError(
                    "expected diff lines are checked in scripts and scenarios, not at the prompt",
                    hint: "type a command; the shell prints its diff"))
            return
        }
        let text = Self.trimmed(line)
        let isEllipsis = text == ExpectedDiff.ellipsis
        guard let pending = progress.value.pending else {
            if let failed = failedCommand {
                guard !failed.reported else { return }
                failedCommand?.reported = true
                fail(
                    at: location,
                    ShellError(
                        "expected diff lines follow the command at line \(failed.line), which failed: there is no diff to compare",
                        hint: "a command that fails changes nothing, so it prints no diff"))
                return
            }
            fail(
                at: location,
                isEllipsis
                    ? ShellError(
                        "'...' is not inside an expected diff block",
                        hint:
                            "it stands for diff lines among the expected lines right after a dispatch, undo, redo or reset"
                    )
                    : ShellError(
                        "diff line '\(CommandParser.abbreviated(line[...]))' does not follow a dispatch, undo, redo or reset",
                        hint: "expected diff lines go right after the command that changes state"))
            return
        }
        pending.expected.append(text)
        if isEllipsis { pending.hasEllipsis = true }
        // NB: a `*` where no value can stand is reported here, at its line; most lines have none.
        if text.utf8.contains(UInt8(ascii: "*")) {
            do {
                let indent = line.prefix { $0 == " " || $0 == "\t" }.unicodeScalars.count
                _ = try ExpectedLinePattern.parse(text, column: indent + 1)
            } catch {
                pending.hasInvalidLine = true
                fail(at: location, error, line: line)
            }
        }
    }

    /// Ends the script: takes what the stores did on their own since the last command, and
    /// checks the last command's expected diff lines.
    ///
    /// - Parameter file: the script's name, where steps the stores made on their own after its
    ///   last line are reported (in exhaustive mode).
    public func finish(file: String = "<stdin>") {
        if session.hasStoresChangingOnTheirOwn {
            takeChangesOnTheirOwn(at: SourceLocation(file: file, line: progress.value.line + 1))
        }
        closePending()
    }

    /// Prints the steps the stores made with no command since the last one, and adds their
    /// lines to what the block before is compared with (a scenario expects them after it). In
    /// exhaustive mode, steps that no block can expect fail at `location`, where they came.
    private func takeChangesOnTheirOwn(at location: SourceLocation) {
        let steps = session.takeChangesOnTheirOwn()
        guard !steps.isEmpty else { return }
        output?.print(steps, in: session)
        let lines = steps.flatMap { $0.scenarioLines ?? [] }
        guard let pending = progress.value.pending else {
            guard options.exhaustive || session.isExhaustive else { return }
            var diagnostic = Diagnostic(
                .diffMismatch,
                "a store changed on its own before this line, and no '<= ' lines expect it (exhaustive mode):",
                at: location,
                details: lines.map { "    " + $0 } + [
                    "  (write these lines where they came, after the command before this line)"
                ])
            diagnostic.diff = ([], lines)
            return record(diagnostic)
        }
        pending.later += lines
    }

    /// Runs a command made in code (explore's actions and checks) as a line at `location` would
    /// run: reported to the output, a failure recorded. No expected diff lines follow it.
    public func run(_ command: Command, at location: SourceLocation) {
        guard !isStopped else { return }
        if session.hasStoresChangingOnTheirOwn { takeChangesOnTheirOwn(at: location) }
        closePending()
        run(command, line: nil, expectsFailure: false, at: location)
    }

    private func run(_ cache: ParsedLineCache, at location: SourceLocation) {
        guard let command = cache.parsed.command else { return }
        guard timesCommands, !command.isTheShells else {
            return run(command, line: cache.line, expectsFailure: cache.parsed.expectsFailure, at: location)
        }
        let start = ContinuousClock.now
        run(command, line: cache.line, expectsFailure: cache.parsed.expectsFailure, at: location)
        output?.printTime(ContinuousClock.now - start, at: location)
    }

    /// Runs `command`, typed as `line` (`nil` for a command made in code).
    @inline(__always)
    private func run(_ command: Command, line: String?, expectsFailure: Bool, at location: SourceLocation) {
        if options.echo { output?.echo(line.map(Self.trimmed) ?? command.description) }
        if command.isTheShells {
            return runShellsOwn(command, line: line, expectsFailure: expectsFailure, at: location)
        }
        session.line = location.line
        // NB: only a `! ` line keeps what its command may have to be taken back to.
        let checkpoint = expectsFailure ? session.checkpoint() : nil
        var result: CommandResult
        do {
            result = try session.execute(command)
        } catch {
            if command.changesState { failedCommand = (location.line, false) }
            if !expectsFailure { fail(at: location, error, line: line) }
            return
        }
        output?.print(result, of: command, at: location, in: session)
        if session.hasEffectProblems {
            for problem in session.takeEffectProblems() { fail(at: location, problem) }
        }
        if let checkpoint {
            retract(command, to: checkpoint, at: location)
            return
        }
        if command.changesState, let line {
            let isRequired = options.exhaustive || session.isExhaustive
            if let spare = sparePending {
                // NB: a record nothing else holds (see `closePending()`): refilled, not reallocated.
                sparePending = nil
                spare.location = location
                spare.line = line
                // NB: moved, not copied: a copy of a type of another module's goes through its
                // value witnesses here, on every piped line. The result's diff is gone from here on.
                spare.diff = result.diff.take()
                spare.firstExpectedLine = location.line + 1
                spare.isRequired = isRequired
                spare.hasInvalidLine = false
                spare.later = []
                progress.value.pending = spare
            } else {
                progress.value.pending = Pending(
                    location: location, line: line, result: result, firstExpectedLine: location.line + 1,
                    isRequired: isRequired)
            }
        }
        if result.quits { progress.value.isStopped = true }
    }

    /// A `! ` line whose command succeeded: an error, after what the command printed, and what
    /// the command did is taken back, so that the failed line changes nothing.
    private func retract(_ command: Command, to checkpoint: Session.Checkpoint, at location: SourceLocation) {
        let stands = session.retract(to: checkpoint, after: command)
        // NB: its expected diff lines, if any, have nothing to be compared with, as after any failure.
        if command.changesState { failedCommand = (location.line, false) }
        fail(
            at: location,
            ShellError(
                "expected this command to fail, but it succeeded"
                    + (stands.map { ", and what it did stands: \($0)" } ?? ": what it did is taken back"),
                hint: "remove the '! ' if it should succeed"))
        // NB: what the effects it started did as they were cancelled.
        if session.hasEffectProblems {
            for problem in session.takeEffectProblems() { fail(at: location, problem) }
        }
    }

    private func closePending() {
        failedCommand = nil
        // NB: the common case, a command with no expected lines to check, costs no copy.
        if progress.value.pending?.expected.isEmpty == true, progress.value.pending?.isRequired == false,
            !options.collectsDiffBlocks
        {
            sparePending = progress.value.pending
            progress.value.pending = nil
            return
        }
        guard let block = progress.value.pending else { return }
        progress.value.pending = nil
        let actual = block.actual
        let failure = check(block, actual: actual)
        if options.collectsDiffBlocks {
            let lastExpected = block.firstExpectedLine + block.expected.count
            diffBlocks.append(
                DiffBlock(
                    file: block.location.file, commandLine: block.location.line,
                    expectedLines: block.firstExpectedLine..<lastExpected,
                    expected: block.expected, actual: actual, isRequired: block.isRequired, passed: failure == nil))
        }
        if let failure { record(failure) }
    }

    /// The failure of a command's expected diff lines, or `nil` when they hold.
    private func check(_ block: Pending, actual: [String]) -> Diagnostic? {
        if block.expected.isEmpty {
            guard block.isRequired else { return nil }
            var diagnostic = Diagnostic(
                .diffMismatch, "'\(block.command)' has no expected diff lines (exhaustive mode); it printed:",
                at: block.location,
                details: actual.map { "    " + $0 } + [updateHint(block, "to write them")])
            diagnostic.diff = ([], actual)
            return diagnostic
        }
        // NB: the line is reported where it was read; the block has nothing sound to compare.
        guard !block.hasInvalidLine else { return nil }
        let expected = ExpectedDiff(block.expected, hasEllipsis: block.hasEllipsis)
        var message = "the diff of '\(block.command)' differs from the expected lines"
        let rows: [String]
        // The first pinned line that differs from the actual line for its path, in a value.
        var difference: ReplayDifference?
        switch expected.compare(with: actual) {
        case .matches:
            return nil
        case .differs(nil):
            let pairs = SideBySide.pairs(expected: block.expected, actual: actual)
            rows = SideBySide.render(pairs, expected: block.expected, actual: actual)
            for case (let e?, let a?) in pairs where block.expected[e] != actual[a] {
                difference = ReplayDifference.between(lines: block.expected[e], actual[a])
                break
            }
        case .differs(let alignment?):
            rows = SideBySide.render(alignment, expected: block.expected, actual: actual)
            let mismatch = alignment.mismatch
            for case .replaced(let line, let replacement) in alignment.steps where mismatch == .notFound(expected: line)
            {
                difference = ReplayDifference.between(lines: block.expected[line], actual[replacement])
            }
            if difference == nil {
                switch mismatch {
                case .notFound(let line): message += ": '\(SideBySide.clipped(block.expected[line]))' was not found"
                case .notExpected(let line): message += ": '\(SideBySide.clipped(actual[line]))' was not expected"
                case nil: message += ": they do not line up"
                }
            }
        }
        var details = rows
        if let difference {
            message += " at " + difference.clause(where: "the expected line has")
            if difference.mayChangeFromRunToRun { details.append("  (\(ReplayDifference.pinningOrMatching))") }
        }
        var diagnostic = Diagnostic(
            .diffMismatch, message, at: block.location,
            details: details + [updateHint(block, "to accept what happened")])
        diagnostic.diff = (block.expected, actual)
        return diagnostic
    }

    /// The way to write the actual lines in: `test --update` for a file; standard input cannot
    /// be rewritten, so the lines are to be copied from the report.
    private func updateHint(_ block: Pending, _ purpose: String) -> String {
        guard block.location.file != "<stdin>" else {
            return "  (put the actual lines after the command in the script \(purpose))"
        }
        return "  (\(options.updateAdvice ?? "run '\(session.catalog.programName) test --update'") \(purpose))"
    }

    /// Reports line `number` of `file` as failed without running it (a line the caller could not
    /// read, such as one over the length limit); it counts as a failure like any other.
    private func rejectLine(_ number: Int, file: String, _ error: ShellError) {
        guard !isStopped else { return }
        closePending()
        fail(at: SourceLocation(file: file, line: number), error)
    }

    /// - Parameter line: the line that failed, where the error's long quotes are looked up.
    func fail(at location: SourceLocation, _ error: ShellError, line: String? = nil) {
        record(Diagnostic(error, at: location, line: line))
    }

    /// Counts the failures of `nested`, a runner of a file this one read (already reported), and
    /// stops when it stopped (`quit`, `--bail`).
    func take(_ nested: ScriptRunner) {
        progress.value.failures += nested.failures
        diffBlocks += nested.diffBlocks
        filesRead.merge(nested.filesRead) { first, _ in first }
        if nested.isStopped { progress.value.isStopped = true }
        timesCommands = nested.timesCommands
    }

    private func record(_ diagnostic: Diagnostic) {
        var diagnostic = diagnostic
        if isReading { diagnostic.isInReadFile = true }
        progress.value.failures.append(diagnostic)
        output?.report(diagnostic)
        if options.bail { progress.value.isStopped = true }
    }

    /// `~ `, `+ `, `- `, `=> `, `<= ` lines, `(no changes)` and `...`.
    public static func isExpectedDiffLine(_ line: String) -> Bool {
        // NB: most lines are commands, starting with a letter: answer those without copying.
        if let first = line.utf8.first, first != 0x20, first != 0x09, first != UInt8(ascii: "~"),
            first != UInt8(ascii: "+"), first != UInt8(ascii: "-"), first != UInt8(ascii: "="),
            first != UInt8(ascii: "("), first != UInt8(ascii: "."), first != UInt8(ascii: "<")
        {
            return false
        }
        let text = line.drop { $0 == " " || $0 == "\t" }
        if text.hasPrefix("~ ") || text.hasPrefix("+ ") || text.hasPrefix("- ") || text.hasPrefix("=> ")
            || text.hasPrefix("<= ")
        {
            return true
        }
        let rest = trimmed(String(text))
        return rest == "(no changes)" || rest == ExpectedDiff.ellipsis
    }

    /// The line as a string, or `nil` when it is not valid UTF-8.
    package static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        // NB: most lines are ASCII, which is valid UTF-8 as it is; checking that is much cheaper
        // than the general validation.
        if Bytes.areASCII(bytes) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `line` is `! COMMAND`: a `!` with no command after it (`! `, `! # note`) is an
    /// error of its own, not an expected failure.
    static func expectsFailure(_ line: String) -> Bool {
        let text = line.drop { $0 == " " || $0 == "\t" }
        guard text.hasPrefix("! ") || text.hasPrefix("!\t") else { return false }
        let command = text.dropFirst().drop { $0 == " " || $0 == "\t" }
        return !command.isEmpty && !command.hasPrefix("#")
    }

    static func trimmed(_ line: String) -> String {
        var text = Substring(line)
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        return String(text)
    }
}
