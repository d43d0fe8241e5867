import FluxCore
import FluxShell
import FluxShellTestSupport
import FluxShellTesting
import FluxStores
import Foundation
import Testing

/// The library entry point, as a user's own package would use it: every scenario of the
/// project's `Scenarios/` folder replayed inside `swift test`.
struct ScenarioRunnerTests {
    static let folder = Fluxsh.packageRoot.appendingPathComponent("Scenarios").path

    @Test(arguments: try ScenarioRunner.discover([folder]))
    func scenarioPasses(_ path: String) {
        let result = ScenarioRunner(catalog: .builtIn).run(path)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
    }

    @Test func failuresReadAsTheCommandLinePrintsThem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString).scenario")
        try "load counter\ndispatch add 2\n~ count: 0 -> 3\n! dispatch add 1\n".write(
            to: file, atomically: true, encoding: .utf8)
        let result = ScenarioRunner(catalog: .builtIn).run(file.path)
        #expect(!result.passed)
        #expect(
            result.report == [
                "\(file.path):2: error: the diff of 'dispatch add 2' differs from the expected lines at count: 2 where the expected line has 3",
                "    expected        | actual",
                "  ≠ ~ count: 0 -> 3 | ~ count: 0 -> 2",
                // NB: a count that differs looks like no date, id or random number: no word of pinning.
                "  (set update in ScenarioRunner.Options to accept what happened)",
                "\(file.path):4: error: expected this command to fail, but it succeeded: what it did is taken back (remove the '! ' if it should succeed)",
            ])
        // NB: what a failed `#expect(result.passed)` shows of the result, before the report.
        #expect("\(result)" == "FAIL \(file.path) (2 failures)")
        var options = ScenarioRunner.Options()
        options.updateCommand = "cartsh test --update"
        let shell = ScenarioRunner(catalog: .builtIn, options: options).run(file.path)
        #expect(shell.report[3] == "  (run 'cartsh test --update' to accept what happened)")
    }

    /// Found in review: a `!` with no command after it passed silently.
    @Test func aBangWithoutACommandIsAnError() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bang-\(UUID().uuidString).scenario")
        try "load counter\n! \n!\t# only a note\n! dispatch nope\n".write(to: file, atomically: true, encoding: .utf8)
        let result = ScenarioRunner(catalog: .builtIn).run(file.path)
        #expect(
            result.report == [
                "\(file.path):2: error: '!' must be followed by a command",
                "\(file.path):3: error: '!' must be followed by a command",
            ])
    }

    /// Expected lines after a command that failed are reported once, as following a failed
    /// command, not as following no command; after a stray diff line, the old report stands.
    @Test func expectedLinesAfterAFailedCommandSayItFailed() throws {
        let path = try scenario(
            "load counter\ndispatch nope\n~ count: 0 -> 1\n~ count: 1 -> 2\n! dispatch add x\n~ count: 0 -> 1\n# a note\n~ count: 5 -> 6\n",
            "failed")
        #expect(
            ScenarioRunner(catalog: .builtIn).run(path).report == [
                "\(path):2: error: unknown action 'nope' for store 'counter' (type 'actions' for the list)",
                "\(path):3: error: expected diff lines follow the command at line 2, which failed: there is no diff to compare (a command that fails changes nothing, so it prints no diff)",
                "\(path):6: error: expected diff lines follow the command at line 5, which failed: there is no diff to compare (a command that fails changes nothing, so it prints no diff)",
                "\(path):8: error: diff line '~ count: 5 -> 6' does not follow a dispatch, undo, redo or reset (expected diff lines go right after the command that changes state)",
            ])
    }

    /// The line under a failed block whose value differs: how to pin a value that changes from
    /// run to run.
    static let pinningHint =
        "  (if it changes from run to run, pin it: read dates, ids and random numbers from the session's environment"
        + " (env.now, env.uuid(), env.random in make: { env in … }, or an effect's context.environment),"
        + " or use catalog.pinningDependencies() with swift-dependencies; or write * for it in the expected line)"

    // MARK: - `...` in expected diff blocks (“Scenarios” in the reference)

    /// Writes `text` to a new scenario file and returns its path.
    private func scenario(_ text: String, _ name: String = "ellipsis") throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(name)-\(UUID().uuidString).scenario")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func ellipsisPinsOnlyTheLinesThatMatter() throws {
        let path = try scenario(
            """
            load todos
            dispatch add title: x
            ...
            ~ nextID: 1 -> 2
            dispatch add title: y
            + todos[1]: {"id":2,"title":"y","done":false}
            ...
            dispatch toggle 1
            ...
            ~ todos[0].done: false -> true
            ...
            load search
            dispatch search query: prex
            ~ search.query: "" -> "prex"
            ...
            => searchResponse page: 1 total: 1 repositories: [{"fullName":"marty-suzuki/Prex","stars":2280}]
            ...
            + search.repositories[0]: {"fullName":"marty-suzuki/Prex","stars":2280}

            """)
        let result = ScenarioRunner(catalog: .builtIn).run(path)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
    }

    @Test func aFailingEllipsisBlockNamesThePinnedLineNotFound() throws {
        let path = try scenario("load todos\ndispatch add title: x\n...\n~ nextID: 1 -> 3\n")
        let result = ScenarioRunner(catalog: .builtIn).run(path)
        #expect(
            result.report == [
                "\(path):2: error: the diff of 'dispatch add title: x' differs from the expected lines at nextID: 2 where the expected line has 3",
                "    expected         | actual",
                #"    ...              | + todos[0]: {"id":1,"title":"x","done":false}"#,
                "  ≠ ~ nextID: 1 -> 3 | ~ nextID: 1 -> 2",
                Self.pinningHint,
                "  (set update in ScenarioRunner.Options to accept what happened)",
            ])
        let extra = try scenario(
            "load todos\ndispatch add title: x\n...\n+ todos[0]: {\"id\":1,\"title\":\"x\",\"done\":false}\n")
        #expect(
            ScenarioRunner(catalog: .builtIn).run(extra).report.first
                == "\(extra):2: error: the diff of 'dispatch add title: x' differs from the expected lines: '~ nextID: 1 -> 2' was not expected"
        )
    }

    @Test func anEllipsisOutsideABlockIsALocatedError() throws {
        let path = try scenario(
            "...\nload counter\n  ...\ndispatch increment\n~ count: 0 -> 1\n\n...\nstate count\n...\n")
        let result = ScenarioRunner(catalog: .builtIn).run(path)
        let message =
            "error: '...' is not inside an expected diff block"
            + " (it stands for diff lines among the expected lines right after a dispatch, undo, redo or reset)"
        #expect(result.report == [1, 3, 7, 9].map { "\(path):\($0): " + message })
    }

    @Test func theInteractiveShellRefusesAnEllipsisLikeOtherExpectedLines() {
        var options = ScriptRunner.Options()
        options.acceptsExpectedLines = false
        var errors: [String] = []
        let runner = ScriptRunner(
            session: Session(catalog: .builtIn), options: options,
            output: Printer(
                renderer: Renderer(), streams: .lines(standardOutput: { _ in }, standardError: { errors.append($0) })))
        runner.run(Array("load counter\ndispatch increment\n...\n".utf8), file: "<stdin>")
        #expect(
            errors == [
                "<stdin>:3: error: expected diff lines are checked in scripts and scenarios, not at the prompt"
                    + " (type a command; the shell prints its diff)"
            ])
    }

    @Test func exhaustiveModeTakesAnEllipsisOnlyBlockAsExpectedLines() throws {
        var options = ScenarioRunner.Options()
        options.exhaustive = true
        let pinned = try scenario("load todos\ndispatch add title: x\n...\ndispatch toggle 1\n...\n")
        let result = ScenarioRunner(catalog: .builtIn, options: options).run(pinned)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
        let unpinned = try scenario("load todos\ndispatch add title: x\n...\ndispatch toggle 1\n")
        #expect(
            ScenarioRunner(catalog: .builtIn, options: options).run(unpinned).report.first
                == "\(unpinned):4: error: 'dispatch toggle 1' has no expected diff lines (exhaustive mode); it printed:"
        )
    }

    @Test func updateKeepsABlockThatStillMatchesByteForByte() throws {
        var options = ScenarioRunner.Options()
        options.update = true
        // NB: indented and with trailing blanks: rewriting the block from what happened would
        // lose both. The second block fails, so the file is rewritten around the first.
        let matching = "load todos\ndispatch add title: x\n  ...  \n\t~ nextID: 1 -> 2 \n"
        let path = try scenario(matching + "dispatch toggle 1\n~ todos[0].done: false -> false\n")
        let result = ScenarioRunner(catalog: .builtIn, options: options).run(path)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
        #expect(result.wasUpdated)
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == matching
                + "dispatch toggle 1\n~ todos[0].done: false -> true\n")
        // A file whose blocks all match is not written at all.
        let unchanged = try scenario(matching)
        #expect(!ScenarioRunner(catalog: .builtIn, options: options).run(unchanged).wasUpdated)
        #expect(try String(contentsOfFile: unchanged, encoding: .utf8) == matching)
    }

    @Test func updateKeepsEllipsesWhereTheyStillMatchAndTheFileThenPasses() throws {
        var options = ScenarioRunner.Options()
        options.update = true
        let path = try scenario(
            """
            load search
            dispatch search query: prex\r
            ~ query: "" -> "swift"\r
              ...\r
            ~ page: 0 -> 2\r
            + repositories[3]: {}\r
            ...\r
            expect page == 1

            """)
        let result = ScenarioRunner(catalog: .builtIn, options: options).run(path)
        #expect(result.wasUpdated)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
        // The changed query and page take their pinned lines' places (written from what
        // happened, with the command's line ending); the first `...` still stands for the
        // fetch and its answer and keeps its indentation; the repository pinned at an index
        // that did not change is gone, and the last `...` now stands for the one added.
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == """
                load search
                dispatch search query: prex\r
                ~ query: "" -> "prex"\r
                  ...\r
                ~ page: 0 -> 1\r
                ...\r
                expect page == 1

                """)
        #expect(ScenarioRunner(catalog: .builtIn).run(path).passed)
    }

    @Test func discoverRejectsMissingPathsAndShardsPartitionTheFiles() throws {
        #expect(throws: ShellError.self) { try ScenarioRunner.discover(["/no/such/folder"]) }
        let files = (1...10).map { "s\($0)" }
        var seen: [String] = []
        for index in 1...3 { seen += try Shard(index: index, count: 3).select(files) }
        #expect(seen.sorted() == files.sorted())
        #expect(throws: ShellError.self) { try Shard(parsing: "0/3") }
        #expect(throws: ShellError.self) { try Shard(parsing: "x") }
    }

    /// Under `swift test`, each failure is an issue at the scenario's own line, not the test's.
    @Test func aFailureIsRecordedAtTheScenariosLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("issues-\(UUID().uuidString).scenario")
        try "load counter\ndispatch increment\n~ count: 0 -> 2\nexpect count == 5\n".write(
            to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let issues = ScenarioRunner(catalog: .builtIn).run(file.path).issues
        #expect(issues.map(\.location.filePath) == [file.standardizedFileURL.path, file.standardizedFileURL.path])
        #expect(issues.map(\.location.line) == [2, 4])
        #expect(issues[1].comment.rawValue == "error: expectation failed: count == 5 (actual: 1)")
        // Recorded, they are the test's issues, at those lines.
        let recorded = Locked<[Int]>([])
        withKnownIssue {
            #expect(!ScenarioRunner(catalog: .builtIn).run(file.path).recordIssues())
        } matching: { issue in
            guard issue.sourceLocation?.filePath == file.standardizedFileURL.path else { return false }
            recorded.set(recorded.get() + [issue.sourceLocation?.line ?? 0])
            return true
        }
        #expect(recorded.get() == [2, 4])
        try "load counter\ndispatch increment\n~ count: 0 -> 1\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(ScenarioRunner(catalog: .builtIn).run(file.path).recordIssues())
    }

    /// One scenario reached by two names (a relative and a `./` path, a link, its folder) is
    /// found once, under the first name.
    @Test func aScenarioReachedByTwoNamesIsFoundOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.scenario")
        try "load counter\n".write(to: file, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("b.scenario")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let dotted = folder.path + "/./a.scenario"
        #expect(try ScenarioRunner.discover([file.path, dotted, folder.path, link.path]) == [file.path])
        let other = folder.appendingPathComponent("c.scenario")
        try "load todos\n".write(to: other, atomically: true, encoding: .utf8)
        #expect(try ScenarioRunner.discover([folder.path]) == [file.path, other.path])
    }

    // MARK: - `*` for values nothing can pin

    /// Notes whose reducer reads the clock: each note's `createdAt`, and `stampedAt`, are what
    /// `Date()` gave, another value in every run.
    struct Note: Equatable, Sendable {
        var id: Int
        var text: String
        var createdAt: Date
        var stampedAt: Date?
    }

    struct Notes: State {
        var notes: [Note] = []
        var nextID = 1
    }

    enum NotesAction: Action {
        case add(text: String)
        case stamp(id: Int)
    }

    struct NotesMutation: Mutation, Sendable {
        func mutate(action: NotesAction, state: inout Notes) {
            switch action {
            case .add(let text):
                state.notes.append(Note(id: state.nextID, text: text, createdAt: Date()))
                state.nextID += 1
            case .stamp(let id):
                guard let index = state.notes.firstIndex(where: { $0.id == id }) else { return }
                state.notes[index].stampedAt = Date()
            }
        }
    }

    static let notes = StoreCatalog([StoreDefinition("notes", state: Notes(), mutation: NotesMutation())])

    /// A scenario whose expected lines say `*` for the dates passes, run after run.
    @Test func aStarMatchesTheDateAReducerReads() throws {
        let path = try scenario(
            """
            load notes
            dispatch add text: milk
            + notes[0]: {"id":1,"text":"milk","createdAt":*,"stampedAt":null}
            ~ nextID: 1 -> 2
            dispatch stamp id: 1
            ~ notes[0].stampedAt: null -> *
            dispatch add text: eggs
            ...
            + notes[1]: {"id":2,"text":"eggs","createdAt":*,"stampedAt":*}
            ...
            expect notes[0] == {"id":1,"text":"milk","createdAt":*,"stampedAt":*}
            expect notes[*] == {"id":*,"text":*,"createdAt":*,"stampedAt":*}
            expect notes[1].createdAt == *
            undo 3
            - notes[0]: *
            - notes[1]: *
            ~ nextID: 3 -> 1

            """, "notes")
        var options = ScenarioRunner.Options()
        options.exhaustive = true
        for _ in 0..<3 {
            let result = ScenarioRunner(catalog: Self.notes, options: options).run(path)
            #expect(result.passed, "\(result.report.joined(separator: "\n"))")
        }
    }

    /// A concrete date where the reducer read the clock: the failure names the path, deeper than
    /// the line's when the line adds a whole note, and says how to pin it.
    @Test func aConcreteValueThatDiffersNamesItsPathAndHowToPinIt() throws {
        let path = try scenario(
            """
            load notes
            dispatch add text: milk
            + notes[0]: {"id":1,"text":"milk","createdAt":"2001-01-01T00:00:00Z","stampedAt":null}
            ~ nextID: 1 -> 2
            dispatch stamp id: 1
            ~ notes[0].stampedAt: null -> "2001-01-01T00:00:00Z"

            """, "notes")
        let report = ScenarioRunner(catalog: Self.notes).run(path).report
        let hint = Self.pinningHint
        let added = try #require(report.firstIndex { $0.hasPrefix("\(path):2: error: ") })
        #expect(
            report[added].hasPrefix(
                "\(path):2: error: the diff of 'dispatch add text: milk' differs from the expected lines at notes[0].createdAt: \""
            ))
        #expect(report[added].hasSuffix(#" where the expected line has "2001-01-01T00:00:00Z""#), "\(report[added])")
        #expect(report[(added + 1)...].prefix(while: { $0.hasPrefix("  ") }).contains(hint))
        let stamped = try #require(report.firstIndex { $0.hasPrefix("\(path):5: error: ") })
        #expect(
            report[stamped].hasPrefix(
                "\(path):5: error: the diff of 'dispatch stamp id: 1' differs from the expected lines at notes[0].stampedAt: \""
            ))
    }

    /// `--update` rewrites the lines that no longer match and keeps each `*`: in a line that
    /// still matches, and in a line for the same path whose other values changed.
    @Test func updateKeepsTheStars() throws {
        let path = try scenario(
            """
            load notes
            dispatch add text: milk
            + notes[0]: {"id":1,"text":"tea","createdAt":*,"stampedAt":null}
            ~ nextID: 1 -> 9
            dispatch stamp id: 1
            ~ notes[0].stampedAt: null -> *

            """, "notes")
        var options = ScenarioRunner.Options()
        options.update = true
        let result = ScenarioRunner(catalog: Self.notes, options: options).run(path)
        #expect(result.wasUpdated)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == """
                load notes
                dispatch add text: milk
                + notes[0]: {"id":1,"text":"milk","createdAt":*,"stampedAt":null}
                ~ nextID: 1 -> 2
                dispatch stamp id: 1
                ~ notes[0].stampedAt: null -> *

                """)
        #expect(ScenarioRunner(catalog: Self.notes).run(path).passed)
    }

    /// A `*` where no value can stand, in an expected line, `dispatch` or `expect`: an error at
    /// its line and column, the command not run, and `--update` leaves the file as it was.
    @Test func aStarWhereNoValueCanStandIsALocatedErrorThatChangesNothing() throws {
        let text = """
            load notes
            dispatch add text: milk
            + notes[0]: {"id":1,"text":"milk","createdAt":*x,"stampedAt":null}
            ~ nextID: 1 -> 2
            dispatch add text: *
            dispatch add [{"text":*}]
            expect nextID != *
            expect nextID < {"a":*}
            expect notes.count == 1

            """
        let path = try scenario(text, "notes")
        var options = ScenarioRunner.Options()
        options.update = true
        let result = ScenarioRunner(catalog: Self.notes, options: options).run(path)
        #expect(!result.wasUpdated)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        let dispatched =
            "only matches a value, in an expected diff line or expect: it cannot be dispatched"
            + #" (give the value itself; "*" in quotes is the string)"#
        let compared = #"(e.g. expect todos[0] == {"id":1,"createdAt":*}; "*" in quotes is the string)"#
        #expect(
            result.report == [
                "\(path):3: error: invalid value at column 48 of an expected line with '*': expected ',' or '}' in object"
                    + #" ('*' stands for a whole value: '~ PATH: OLD -> *', or inside JSON, {"id":1,"createdAt":*}; "*" is the string)"#,
                "\(path):5: error: '*' at column 20 " + dispatched,
                "\(path):6: error: '*' at column 23 " + dispatched,
                "\(path):7: error: '*' at column 18 matches any value: only '==' compares with it, not '!=' "
                    + compared,
                "\(path):8: error: '*' at column 22 matches any value: only '==' compares with it, not '<' " + compared,
            ])
    }

    /// In quotes, `*` is a string: dispatched, compared and matched as itself.
    @Test func aStarInQuotesIsAString() throws {
        let path = try scenario(
            """
            load todos
            dispatch add title: "*"
            + todos[0]: {"id":1,"title":"*","done":false}
            ~ nextID: 1 -> 2
            expect todos[0].title == "*"
            ! expect todos[0].title == "x*"
            expect todos[*].title == "*"

            """)
        let result = ScenarioRunner(catalog: .builtIn).run(path)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
    }
}
