import Dispatch
import FluxShellLanguage
import FluxShellSession
import FluxShellSystem
import Synchronization

/// Replays `.scenario` files, each in a fresh session, in parallel, and reports in a stable
/// order. Also the library entry point for replaying scenarios inside a package's own tests:
///
/// ```swift
/// @Test(arguments: try ScenarioRunner.discover(["Scenarios"]))
/// func scenario(_ path: String) {
///     let result = ScenarioRunner(catalog: .builtIn).run(path)
///     #expect(result.passed, "\(result.report.joined(separator: "\n"))")
/// }
/// ```
public struct ScenarioRunner: Sendable {
    public struct Options: Sendable {
        public var jobs = 1
        public var filter: String?
        public var shard: Shard?
        public var exhaustive = false
        public var update = false
        /// Start no further scenario once one has failed.
        public var bail = false
        /// Called with each line's location before it runs (see the script runner's `beforeEachLine`).
        public var beforeEachLine: (@Sendable (SourceLocation) -> Void)?
        /// Called with each scenario's result as soon as it is known, on the thread that ran it.
        public var onResult: (@Sendable (Result) -> Void)?
        /// The command a failed diff block's report offers to rewrite the expected lines
        /// (`cartsh test --update`); `nil`, as in a package's own tests, says to set ``update``.
        public var updateCommand: String?

        public init() {}
    }

    /// What happened to one scenario.
    public struct Result: Sendable, CustomStringConvertible {
        public var path: String
        public var failures: [Diagnostic]
        /// `--update` rewrote the file (the result is that of the rewritten file).
        public var wasUpdated = false
        public var seconds: Double = 0

        public var passed: Bool { failures.isEmpty }

        public init(path: String, failures: [Diagnostic], wasUpdated: Bool = false, seconds: Double = 0) {
            self.path = path
            self.failures = failures
            self.wasUpdated = wasUpdated
            self.seconds = seconds
        }

        /// `FILE:LINE: error: …` and detail lines, as `fluxsh test` prints them.
        public var report: [String] {
            failures.flatMap(Renderer().lines(of:))
        }

        /// `PASS path`, or `FAIL path (N failures)`: what a test's failed expectation shows of
        /// it, before its ``report``.
        public var description: String {
            passed
                ? "PASS \(Renderer.visible(path))"
                : "FAIL \(Renderer.visible(path)) (\(failures.count) failure\(failures.count == 1 ? "" : "s"))"
        }
    }

    public let catalog: StoreCatalog
    public var options: Options

    public init(catalog: StoreCatalog, options: Options = Options()) {
        self.catalog = catalog
        self.options = options
    }

    /// The `.scenario` files under `paths` (files are taken as given), sorted.
    ///
    /// - Throws: a `ShellError` for a path that does not exist, or a folder under them that
    ///   cannot be read (its scenarios would be left out unseen). A symbolic link that loops is
    ///   walked once.
    public static func discover(_ paths: [String]) throws(ShellError) -> [String] {
        var problems: [Diagnostic] = []
        let files = try discover(paths, problems: &problems)
        if let unreadable = problems.first(where: { $0.kind == .usage }) {
            throw ShellError(unreadable.message, hint: unreadable.hint)
        }
        return files
    }

    /// The `.scenario` files under `paths` (files are taken as given), sorted; what could not be
    /// walked is added to `problems`: a usage error for a folder that cannot be read (`fluxsh
    /// test` exits 2), a warning for a symbolic link that loops (skipped: its files are found
    /// once).
    ///
    /// - Throws: a `ShellError` for a path that does not exist.
    public static func discover(_ paths: [String], problems: inout [Diagnostic]) throws(ShellError) -> [String] {
        var files: [String] = []
        for path in paths {
            switch FileSystem.kind(of: path) {
            case .file: files.append(path)
            case .directory:
                let walk = FileSystem.files(under: path, withSuffix: ".scenario")
                files += walk.files
                problems += walk.problems.map(Self.diagnostic(of:))
            case .missing: throw ShellError("no such file or folder: '\(path)'")
            }
        }
        // NB: one file reached by two names (`a.scenario` and `./a.scenario`, a link) runs once,
        // under the first name.
        var seen = Set<[UInt64]>()
        return files.filter { file in
            guard let identity = FileSystem.identity(of: file) else { return true }
            return seen.insert(identity).inserted
        }
    }

    private static func diagnostic(of problem: FileSystem.WalkProblem) -> Diagnostic {
        switch problem.kind {
        case .unreadable(let reason):
            return Diagnostic(
                .usage, "cannot read '\(problem.path)': \(reason)",
                hint: "its scenarios, if it holds any, are not run")
        case .loop(let folder?):
            return Diagnostic(
                .warning, "skipped '\(problem.path)': a symbolic link to '\(folder)', which holds it (a loop)")
        case .loop(nil):
            return Diagnostic(.warning, "skipped '\(problem.path)': a symbolic link that leads to itself")
        }
    }

    /// The files `run(_:)` would run after `--filter` and `--shard`.
    public func select(_ files: [String]) -> [String] {
        var selected = files
        if let filter = options.filter { selected = selected.filter { $0.contains(filter) } }
        if let shard = options.shard { selected = shard.select(selected) }
        return selected
    }

    /// Runs `files` with `options.jobs` workers; results come back in the order of `files`.
    public func run(_ files: [String]) -> [Result] {
        let results = LockedValue<[Result?]>(Array(repeating: nil, count: files.count))
        let next = Atomic<Int>(0)
        let failed = Atomic<Bool>(false)
        // NB: a scenario of a store object runs on the main thread, the others on the workers.
        let onMain = MainQueue.isCurrent && options.jobs > 1 ? files.indices.filter { loadsStoreObject(files[$0]) } : []
        let elsewhere = onMain.isEmpty ? Array(files.indices) : files.indices.filter { !onMain.contains($0) }
        let runOne = { @Sendable (index: Int) -> Bool in
            if options.bail, failed.load(ordering: .relaxed) { return false }
            let result = run(files[index])
            options.onResult?(result)
            if !result.passed { failed.store(true, ordering: .relaxed) }
            results.withLock { $0[index] = result }
            return true
        }
        let workers = max(1, min(options.jobs, elsewhere.count))
        let runElsewhere = { @Sendable (_: Int) in
            while true {
                let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard position < elsewhere.count, runOne(elsewhere[position]) else { return }
            }
        }
        MainQueue.concurrentPerform(
            iterations: workers,
            onMain: {
                for index in onMain { guard runOne(index) else { return } }
            }, runElsewhere)
        // NB: with --bail, scenarios never started are left out of the results.
        return results.withLock { $0.compactMap { $0 } }
    }

    /// Whether the scenario at `path` loads a store object, whose library may bind it to the main
    /// actor (a TCA `Store`): such a scenario runs on the main thread.
    func loadsStoreObject(_ path: String) -> Bool {
        guard let bytes = try? FileSystem.read(path) else { return false }
        let names = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            guard case .load(let name, _, _)? = (try? CommandParser.parse(line))?.command else { return nil as String? }
            return name
        }
        return catalog.needsMainThread(loading: names)
    }

    /// Runs one scenario file (and rewrites it first with `--update`).
    public func run(_ path: String) -> Result {
        let start = ContinuousClock.now
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            // NB: a file that cannot be read is a usage error (status 2), not a failed scenario.
            return Result(
                path: path,
                failures: [Diagnostic(error, at: SourceLocation(file: path, line: 1), kind: .usage)])
        }
        var (runner, _) = replay(bytes, path: path)
        var wasUpdated = false
        if options.update {
            do {
                // NB: the files the scenario read (`read FILE`) first, each rewritten once, and
                // only while it holds what the scenario read: scenarios that run side by side
                // may read one file, and one's rewrite moves the other's lines.
                let read = runner.diffBlocks.filter { $0.file != path && !$0.passed }
                for file in Set(read.map(\.file)).sorted() {
                    let blocks = read.filter { $0.file == file }
                    let outcome = Self.rewriting.locked { () -> Swift.Result<Bool, ShellError> in
                        do throws(ShellError) {
                            let before = try FileSystem.read(file)
                            guard before == runner.filesRead[file],
                                let after = ScenarioUpdate.rewrite(before, blocks: blocks), after != before
                            else { return .success(false) }
                            try FileSystem.writeAtomically(String(decoding: after, as: UTF8.self), to: file)
                            return .success(true)
                        } catch {
                            return .failure(error)
                        }
                    }
                    if try outcome.get() { wasUpdated = true }
                }
                let own = runner.diffBlocks.filter { $0.file == path }
                if let updated = ScenarioUpdate.rewrite(bytes, blocks: own), updated != bytes {
                    try FileSystem.writeAtomically(String(decoding: updated, as: UTF8.self), to: path)
                    wasUpdated = true
                }
                if wasUpdated { (runner, _) = replay(try FileSystem.read(path), path: path) }
            } catch {
                return Result(
                    path: path,
                    failures: [Diagnostic(error, at: SourceLocation(file: path, line: 1))])
            }
        }
        let elapsed = ContinuousClock.now - start
        return Result(
            path: path, failures: runner.failures, wasUpdated: wasUpdated,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// Held while a file that scenarios read is rewritten.
    private static let rewriting = LockedValue(())

    private func replay(_ bytes: [UInt8], path: String) -> (ScriptRunner, Session) {
        var scriptOptions = ScriptRunner.Options()
        scriptOptions.exhaustive = options.exhaustive
        scriptOptions.collectsDiffBlocks = options.update
        scriptOptions.failsWithRunningEffects = true
        scriptOptions.updateAdvice =
            options.updateCommand.map { "run '\($0)'" } ?? "set update in ScenarioRunner.Options"
        let session = Session(catalog: catalog)
        let runner = ScriptRunner(session: session, options: scriptOptions, output: nil)
        runner.beforeEachLine = options.beforeEachLine
        runner.run(bytes, file: path)
        return (runner, session)
    }
}

/// `--update`: the scenario's bytes with the expected lines of each diff block that failed
/// rewritten from what happened; every other line, and every block that passed, is kept byte for
/// byte.
enum ScenarioUpdate {
    static func rewrite(_ bytes: [UInt8], blocks: [ScriptRunner.DiffBlock]) -> [UInt8]? {
        var replacements: [Int: ScriptRunner.DiffBlock] = [:]
        for block in blocks where !block.passed {
            replacements[block.commandLine] = block
        }
        guard !replacements.isEmpty else { return nil }
        // NB: a byte order mark, which the reader skips, is kept too.
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var output: [UInt8] = bytes.starts(with: byteOrderMark) ? byteOrderMark : []
        // NB: no length limit here: every line is kept byte for byte, however long.
        var reader = LineReader(bytes: bytes, maximumLineLength: .max)
        var tooLong = false
        var lines: [ArraySlice<UInt8>] = []
        while let line = reader.nextLine(tooLong: &tooLong) { lines.append(line) }
        var index = 0
        while index < lines.count {
            let line = lines[index]
            index += 1
            output += line
            output.append(0x0A)
            guard let block = replacements[index] else { continue }
            let carriageReturn = line.last == 0x0D ? [UInt8(0x0D)] : []
            // NB: the block's expected lines follow its command; `index` is the first one's.
            let written = lines[index..<min(lines.count, index + block.expectedLines.count)]
            let expected = ExpectedDiff(block.expected)
            for updated in updatedLines(of: block, expected) {
                switch updated {
                case .kept(let line): output += written[index + line]
                case .written, .replacing:
                    output += Array(expected.text(of: updated, actual: block.actual).utf8) + carriageReturn
                }
                output.append(0x0A)
            }
            index += written.count
        }
        if bytes.last != 0x0A, output.last == 0x0A { output.removeLast() }
        return output
    }

    /// The lines a failed block is rewritten to: what happened, with each run of lines that a
    /// `...` still stands for written as that `...`, and the expected lines found kept as written
    /// (a line with `*` that still matches stays as it is).
    private static func updatedLines(of block: ScriptRunner.DiffBlock, _ expected: ExpectedDiff)
        -> [ExpectedDiff.UpdatedLine]
    {
        guard expected.hasEllipsis || !expected.patterns.isEmpty else {
            return block.actual.indices.map { .written(actual: $0) }
        }
        return expected.alignment(with: block.actual).updated
    }
}
