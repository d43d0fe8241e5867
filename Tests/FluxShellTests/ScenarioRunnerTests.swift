@_spi(Engine) import FluxShell
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
                "\(file.path):2: error: the diff of 'dispatch add 2' differs from the expected lines",
                "    expected        | actual",
                "  ≠ ~ count: 0 -> 3 | ~ count: 0 -> 2",
                "  (run 'fluxsh test --update' to accept what happened)",
                "\(file.path):4: error: expected this command to fail, but it succeeded (remove the '! ' if it should succeed)",
            ])
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

    // MARK: - `...` in expected diff blocks (SPEC §7)

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
                "\(path):2: error: the diff of 'dispatch add title: x' differs from the expected lines: '~ nextID: 1 -> 3' was not found",
                "    expected         | actual",
                #"    ...              | + todos[0]: {"id":1,"title":"x","done":false}"#,
                "  ≠ ~ nextID: 1 -> 3 | ~ nextID: 1 -> 2",
                "  (run 'fluxsh test --update' to accept what happened)",
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
}
