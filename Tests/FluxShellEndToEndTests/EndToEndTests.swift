import FluxShellTestSupport
import Foundation
import Testing

@Suite(.serialized)
struct EndToEndTests {
    @Test func pipedModePrintsDiffsAndReportsErrorsWithLineNumbers() throws {
        let result = try Fluxsh.run(
            ["--store", "counter"], stdin: "dispatch increment\n\ndispatch incremnt\nstate count\n")
        #expect(result.stdout == "~ count: 0 -> 1\n1\n")
        #expect(
            result.stderr
                == "<stdin>:3: error: unknown action 'incremnt' for store 'counter' (did you mean 'increment'?)\n")
        #expect(result.status == 1)
    }

    /// A line over 16 MiB is reported at its line and the run fails, even when later lines pass.
    @Test func anOverlongLineFailsTheRun() throws {
        var input = Data("load counter\n".utf8)
        input.append(Data(repeating: UInt8(ascii: "x"), count: 16 * 1024 * 1024 + 10))
        input.append(Data("\ndispatch increment\n".utf8))
        let result = try Fluxsh.run([], stdinData: input)
        // NB: compared as Bools, so a failure does not print 16 MiB of input.
        #expect(result.stdout == "~ count: 0 -> 1\n")
        let reported = result.stderr == "<stdin>:2: error: line longer than 16 MiB, skipped\n"
        #expect(reported, "stderr begins \(result.stderr.prefix(120))")
        #expect(result.status == 1)
    }

    @Test func echoAndBail() throws {
        let echoed = try Fluxsh.run(["--echo"], stdin: "load counter\ndispatch add 2\n")
        #expect(echoed.stdout == "> load counter\n> dispatch add 2\n~ count: 0 -> 2\n")
        #expect(echoed.status == 0)
        let bailed = try Fluxsh.run(["--bail", "--store", "counter"], stdin: "dispatch nope\ndispatch increment\n")
        #expect(bailed.stdout == "")
        #expect(bailed.status == 1)
    }

    @Test func jsonFormatPrintsOneObjectPerCommand() throws {
        let result = try Fluxsh.run(
            ["--format", "json"], stdin: "load counter\ndispatch increment\ndispatch nope\nstate count\n")
        #expect(
            result.stdout == """
                {"line":1,"command":"load","store":"counter","alias":"counter"}
                {"line":2,"command":"dispatch","action":"increment","changes":[{"op":"~","path":"count","old":0,"new":1}]}
                {"line":3,"error":"unknown action 'nope' for store 'counter' (type 'actions' for the list)"}
                {"line":4,"command":"state","path":"count","value":1}

                """)
        #expect(result.status == 1)
    }

    /// JSON names the action as its values print, also when typed otherwise (a date with an
    /// offset), and as typed when that is already its printed form.
    @Test func jsonNamesTheActionAsItPrints() throws {
        let result = try Fluxsh.run(
            ["--format", "json", "--store", "library"],
            stdin: "dispatch add title: A added: \"2026-11-22T11:00:00+01:00\"\ndispatch visit\n")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines.first?.contains(#""action":"add title: A added: \"2026-11-22T10:00:00Z\"""#) == true,
            "\(result.stdout)")
        #expect(
            lines.last?.hasPrefix(#"{"line":2,"command":"dispatch","action":"visit","changes":["#) == true,
            "\(result.stdout)")
    }

    /// Sets and dictionaries iterate in another order in every process; what fluxsh prints of
    /// them must not (“Printed values” in the reference).
    @Test func setsAndDictionariesPrintTheSameBytesInEveryProcess() throws {
        var script = "load library\ndispatch add title: A added: \"2026-11-22T10:00:00Z\"\n"
        for tag in ["kiwi", "apple", "Zed", "éclair", "banana", "10", "9", "cherry", "date", "fig"] {
            script += "dispatch tag book: \"00000000-0000-0000-0000-000000000001\" tag: \"\(tag)\"\n"
        }
        for shelf in [40, 3, 17, 250, 8] { script += "dispatch setShelf id: \(shelf) name: s\(shelf)\n" }
        script += "state tags\nstate shelves\nstate books[0].tags\n"
        let runs = try (0..<3).map { _ in try Fluxsh.run([], stdin: script) }
        #expect(runs[0].status == 0)
        #expect(runs[0].stderr == "")
        #expect(runs[0].stdout.contains(#"["10","9","Zed","apple","banana","cherry","date","fig","kiwi","éclair"]"#))
        #expect(
            runs[0].stdout.contains(
                #"{"1":"Fiction","2":"History","3":"s3","8":"s8","10":"Science","17":"s17","40":"s40","250":"s250"}"#))
        #expect(runs[1].stdout == runs[0].stdout)
        #expect(runs[2].stdout == runs[0].stdout)
    }

    @Test func storesListsNamesWithSummaries() throws {
        let result = try Fluxsh.run(["stores"])
        let names = result.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(names == ["counter", "todos", "search", "library"])
        #expect(result.status == 0)
    }

    @Test func usageErrorsExitWithTwo() throws {
        #expect(try Fluxsh.run(["--frobnicate"]).status == 2)
        let unknownStore = try Fluxsh.run(["--store", "nope"])
        #expect(unknownStore.status == 2)
        #expect(unknownStore.stderr == "error: unknown store 'nope' (available: counter, todos, search, library)\n")
        let missing = try Fluxsh.run(["run", "/nonexistent/file"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: cannot read '/nonexistent/file': no such file\n")
        #expect(try Fluxsh.run(["test", "/nonexistent"]).status == 2)
        #expect(try Fluxsh.run(["--version"]).stdout == "fluxsh 0.1.0\n")
    }

    /// A user's shell names itself and the FluxShell it is built on; the top-level help lists the
    /// shell's own options; explore takes only the options it uses.
    @Test func versionHelpAndExploreOptionsSayWhatTheyDo() throws {
        let planted = try Fluxsh.run(["--version"], program: Fluxsh.executable("planted-shell"))
        #expect(planted.stdout == "planted-shell (FluxShell 0.1.0)\n")
        let help = try Fluxsh.run(["--help"]).stdout
        #expect(help.contains("--store NAME") && help.contains("--format text|json") && help.contains("--bail"))
        // The usage line shows the shell itself first, then its subcommands.
        #expect(
            help.contains(
                "USAGE: fluxsh [--store NAME]... [--format text|json] [--no-color] [--echo] [--bail]\n       fluxsh <subcommand>\n"
            ))
        // explore --format json: the whole report as one object (“fluxsh explore” in the reference).
        let json = try Fluxsh.run([
            "explore", "counter", "--runs", "2", "--steps", "5", "--seed", "3", "--format", "json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.split(separator: "\n").count == 1)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(report?["seed"] as? Int == 3 && report?["actions"] as? Int == 10 && report?["failure"] is NSNull)
        #expect((report?["coverage"] as? [Any])?.count == 4)
        let exploreHelp = try Fluxsh.run(["explore", "--help"]).stdout
        #expect(!exploreHelp.contains("--echo") && !exploreHelp.contains("--bail") && exploreHelp.contains("--format"))
        // Each default is stated once, by the parser.
        #expect(!exploreHelp.contains("(default 1;") && exploreHelp.contains("(default: 1)"))
        // Each mode offers only the options it uses: `test` and `stores` print no command to echo.
        let testHelp = try Fluxsh.run(["test", "--help"]).stdout
        #expect(!testHelp.contains("--echo") && testHelp.contains("--bail") && testHelp.contains("--no-color"))
        let storesHelp = try Fluxsh.run(["stores", "--help"]).stdout
        #expect(!storesHelp.contains("--echo") && !storesHelp.contains("--bail") && storesHelp.contains("--format"))
        #expect(try Fluxsh.run(["test", "--echo"]).status == 2)
    }

    /// `invariants` says so when no loaded store declares any (it used to print nothing); piped
    /// standard input cannot be rewritten by `test --update`, so its diff errors do not suggest it.
    @Test func pipedInvariantsAndDiffErrorsSayWhatToDo() throws {
        let none = try Fluxsh.run([], stdin: "load counter\ninvariants\n")
        #expect(none.stdout == "(no loaded store declares invariants)\n")
        let json = try Fluxsh.run(["--format", "json"], stdin: "load counter\ninvariants\n")
        #expect(json.stdout.hasSuffix(#"{"line":2,"command":"invariants","passed":true,"invariants":0}"# + "\n"))
        let piped = try Fluxsh.run([], stdin: "load counter\ndispatch increment\n~ count: 0 -> 2\n")
        #expect(piped.status == 1)
        #expect(
            piped.stderr.hasSuffix("  (put the actual lines after the command in the script to accept what happened)\n")
        )
        #expect(!piped.stderr.contains("--update"))
    }

    @Test func runExecutesFilesInOneSessionAndChecksExpectations() throws {
        let folder = try temporaryFolder()
        try "load counter\ndispatch add 2\n~ count: 0 -> 2\n".write(
            to: folder.appendingPathComponent("a.txt"), atomically: true, encoding: .utf8)
        try "dispatch increment\n~ count: 2 -> 4\nexpect count == 3\n".write(
            to: folder.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        let result = try Fluxsh.run(["run", "a.txt", "b.txt"], in: folder)
        #expect(result.stdout == "~ count: 0 -> 2\n~ count: 2 -> 3\n")
        #expect(
            result.stderr == """
                b.txt:1: error: the diff of 'dispatch increment' differs from the expected lines at count: 3 where the expected line has 4
                    expected        | actual
                  ≠ ~ count: 2 -> 4 | ~ count: 2 -> 3
                  (run 'fluxsh test --update' to accept what happened)

                """)
        #expect(result.status == 1)
    }

    @Test func badBytesNeverCrashOrChangeState() throws {
        var input = Data("load counter\ndispatch add 1\n".utf8)
        input.append(contentsOf: [0xFF, 0xFE, 0x0A])  // invalid UTF-8
        input.append(contentsOf: Array("dispatch add \0\n".utf8))  // a NUL byte
        input.append(contentsOf: Array(("dispatch add " + String(repeating: "[", count: 100_000) + "\n").utf8))
        input.append(contentsOf: Array(("dispatch add " + String(repeating: "x", count: 1 << 20) + "\n").utf8))
        input.append(contentsOf: Array(("state " + String(repeating: "a.", count: 100_000) + "a\n").utf8))
        input.append(contentsOf: Array("dispatch add \"unterminated\nstate count\n".utf8))
        let result = try Fluxsh.run([], stdinData: input)
        #expect(result.status == 1)
        #expect(result.stdout == "~ count: 0 -> 1\n1\n")
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.count == 6)
        #expect(errors.first == "<stdin>:3: error: this line is not valid UTF-8 (save the file as UTF-8)")
    }

    @Test func testRunnerReportsFailuresWithLocationsAndCounts() throws {
        let folder = try temporaryFolder()
        try "load counter\ndispatch increment\n~ count: 0 -> 1\n".write(
            to: folder.appendingPathComponent("good.scenario"), atomically: true, encoding: .utf8)
        try "load counter\ndispatch increment\n~ count: 0 -> 5\nexpect count == 9\n".write(
            to: folder.appendingPathComponent("bad.scenario"), atomically: true, encoding: .utf8)
        let result = try Fluxsh.run(["test", "--jobs", "2", "."], in: folder)
        #expect(
            result.stdout == """
                FAIL ./bad.scenario
                PASS ./good.scenario

                ./bad.scenario:2: error: the diff of 'dispatch increment' differs from the expected lines at count: 1 where the expected line has 5
                    expected        | actual
                  ≠ ~ count: 0 -> 5 | ~ count: 0 -> 1
                  (run 'fluxsh test --update' to accept what happened)
                ./bad.scenario:4: error: expectation failed: count == 9 (actual: 1)

                1 passed, 1 failed

                """)
        #expect(result.status == 1)
        let empty = try temporaryFolder()
        let none = try Fluxsh.run(["test", "."], in: empty)
        #expect(none.status == 2)
        #expect(none.stderr == "error: no scenario found in . (scenario files end in .scenario)\n")
    }

    /// Each subcommand's options can be found from the command line.
    @Test func subcommandHelpIsTheSubcommands() throws {
        for arguments in [["test", "--help"], ["help", "test"]] {
            let help = try Fluxsh.run(arguments)
            #expect(help.stdout.hasPrefix("OVERVIEW: Replays .scenario files"), "\(arguments)")
            #expect(help.stdout.contains("--exhaustive"))
            #expect(help.status == 0)
        }
        let run = try Fluxsh.run(["run", "--help"])
        #expect(run.stdout.hasPrefix("OVERVIEW: Runs command files"))
    }

    /// A folder linked from inside itself is walked once; `save` into a folder says so.
    @Test func foldersAreWalkedOnceAndAreNotSavedOver() throws {
        let folder = try temporaryFolder()
        try "load counter\n".write(to: folder.appendingPathComponent("a.scenario"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("sub/loop").path, withDestinationPath: folder.path)
        let tested = try Fluxsh.run(["test", "."], in: folder)
        #expect(tested.stdout == "PASS ./a.scenario\n1 passed, 0 failed\n", "\(tested.stderr)")
        let saved = try Fluxsh.run([], stdin: "load counter\nsave sub\n", in: folder)
        #expect(
            saved.stderr
                == "<stdin>:2: error: cannot write 'sub': it is a directory (give a file name, e.g. sub/session.scenario)\n"
        )
        #expect(saved.status == 1)
    }

    /// Some editors save UTF-8 with a byte order mark; it is not part of the first command.
    @Test func aByteOrderMarkBeforeTheFirstLineIsIgnored() throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("bom.scenario")
        try "\u{FEFF}load counter\ndispatch increment\n~ count: 0 -> 1\n".write(
            to: file, atomically: true, encoding: .utf8)
        let tested = try Fluxsh.run(["test", "bom.scenario"], in: folder)
        #expect(tested.stdout == "PASS bom.scenario\n1 passed, 0 failed\n", "\(tested.stderr)")
        try "\u{FEFF}load counter\ndispatch increment\n~ count: 0 -> 9\n".write(
            to: file, atomically: true, encoding: .utf8)
        let updated = try Fluxsh.run(["test", "--update", "bom.scenario"], in: folder)
        #expect(updated.status == 0)
        #expect(try Data(contentsOf: file) == Data("\u{FEFF}load counter\ndispatch increment\n~ count: 0 -> 1\n".utf8))
        let piped = try Fluxsh.run([], stdin: "\u{FEFF}load counter\ndispatch increment\n")
        #expect(piped.stdout == "~ count: 0 -> 1\n")
        #expect(piped.status == 0)
    }

    /// `--update` rewrites the expected lines of a file the scenario reads (`read FILE`) where
    /// they are, and the scenario's own; every other line stays.
    @Test func updateRewritesTheExpectedLinesOfAFileTheScenarioReads() throws {
        let folder = try temporaryFolder()
        let setup = folder.appendingPathComponent("setup.fluxsh")
        try "# two\ndispatch add 2\n~ count: 0 -> 5\n".write(to: setup, atomically: true, encoding: .utf8)
        let scenario = folder.appendingPathComponent("s.scenario")
        try "load counter\nread setup.fluxsh\ndispatch increment\n~ count: 2 -> 9\n".write(
            to: scenario, atomically: true, encoding: .utf8)
        let failed = try Fluxsh.run(["test", "--no-color", "s.scenario"], in: folder)
        #expect(failed.status == 1 && (failed.stdout + failed.stderr).contains("setup.fluxsh:2: error:"))
        let updated = try Fluxsh.run(["test", "--no-color", "--update", "s.scenario"], in: folder)
        #expect(updated.status == 0, "\(updated.stdout)\(updated.stderr)")
        #expect(try String(contentsOf: setup, encoding: .utf8) == "# two\ndispatch add 2\n~ count: 0 -> 2\n")
        #expect(
            try String(contentsOf: scenario, encoding: .utf8)
                == "load counter\nread setup.fluxsh\ndispatch increment\n~ count: 2 -> 3\n")
        let again = try Fluxsh.run(["test", "--no-color", "s.scenario"], in: folder)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
    }

    @Test func updateRewritesOnlyExpectedDiffLines() throws {
        let folder = try temporaryFolder()
        let original =
            "# keep me  \r\nload counter\r\ndispatch increment\r\n~ count: 0 -> 9\r\n  expect count == 1   \r\ndispatch increment\r\n"
        let file = folder.appendingPathComponent("s.scenario")
        try original.write(to: file, atomically: true, encoding: .utf8)
        let result = try Fluxsh.run(["test", "--update", "s.scenario"], in: folder)
        #expect(result.stdout == "PASS s.scenario (updated)\n1 passed, 0 failed\n")
        #expect(
            try String(contentsOf: file, encoding: .utf8)
                == "# keep me  \r\nload counter\r\ndispatch increment\r\n~ count: 0 -> 1\r\n  expect count == 1   \r\ndispatch increment\r\n"
        )
    }

    /// Piped input checks `...` in expected diff blocks as scenarios do (“Scenarios” in the reference).
    @Test func pipedModeChecksEllipsisLines() throws {
        let passing = try Fluxsh.run(["--store", "todos"], stdin: "dispatch add title: x\n...\n~ nextID: 1 -> 2\n")
        #expect(passing.stderr == "")
        #expect(passing.status == 0)
        let failing = try Fluxsh.run(
            ["--store", "todos"], stdin: "...\ndispatch add title: x\n~ nextID: 1 -> 2\n...\n")
        #expect(
            failing.stderr.hasPrefix(
                "<stdin>:1: error: '...' is not inside an expected diff block"
                    + " (it stands for diff lines among the expected lines right after a dispatch, undo, redo or reset)\n"
                    + "<stdin>:2: error: the diff of 'dispatch add title: x' differs from the expected lines:"
                    + #" '+ todos[0]: {"id":1,"title":"x","done":false}' was not expected"# + "\n"),
            "\(failing.stderr)")
        #expect(failing.status == 1)
    }

    @Test func saveWritesAScenarioThatPassesExhaustively() throws {
        let folder = try temporaryFolder()
        let session = """
            load todos
            load counter
            dispatch add title: milk
            dispatch add 3
            dispatch toggle 1
            undo
            use todos
            save saved.scenario
            """
        let result = try Fluxsh.run([], stdin: session, in: folder)
        #expect(result.stderr == "")
        #expect(result.stdout.hasSuffix("saved 4 state-changing commands to saved.scenario\n"))
        let replay = try Fluxsh.run(["test", "--exhaustive", "saved.scenario"], in: folder)
        #expect(replay.stdout == "PASS saved.scenario\n1 passed, 0 failed\n")
        #expect(replay.status == 0)
        let unwritable = try Fluxsh.run(
            ["--store", "counter"], stdin: "save /nonexistent/dir/x.scenario\n", in: folder)
        #expect(
            unwritable.stderr
                == "<stdin>:1: error: cannot write '/nonexistent/dir/x.scenario': folder '/nonexistent/dir' does not exist\n"
        )
    }

    @Test func junitReportAndShards() throws {
        let folder = try temporaryFolder()
        for index in 0..<5 {
            try "load counter\ndispatch add \(index)\nexpect count == \(index == 3 ? 99 : index)\n".write(
                to: folder.appendingPathComponent("s\(index).scenario"), atomically: true, encoding: .utf8)
        }
        let report = folder.appendingPathComponent("report.xml")
        let result = try Fluxsh.run(["test", "--junit", report.path, "."], in: folder)
        #expect(result.status == 1)
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(xml.contains(#"<testsuite name="scenarios" tests="5" failures="1""#))
        #expect(
            xml.contains(#"<failure message="./s3.scenario:3: error: expectation failed: count == 99 (actual: 3)""#))
        var seen: [String] = []
        for shard in 1...3 {
            let output = try Fluxsh.run(["test", "--shard", "\(shard)/3", "."], in: folder).stdout
            seen += output.split(separator: "\n").filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") }.map {
                String($0.dropFirst(5))
            }
        }
        #expect(seen.sorted() == (0..<5).map { "./s\($0).scenario" })
        #expect(try Fluxsh.run(["test", "--shard", "4/3", "."], in: folder).status == 2)
    }

    @Test func testRunnerSpeaksJSONAndBails() throws {
        let folder = try temporaryFolder()
        try "load counter\nexpect count == 1\n".write(
            to: folder.appendingPathComponent("a.scenario"), atomically: true, encoding: .utf8)
        try "load counter\n".write(to: folder.appendingPathComponent("b.scenario"), atomically: true, encoding: .utf8)
        let json = try Fluxsh.run(["test", "--format", "json", "."], in: folder)
        #expect(
            json.stdout == """
                {"path":"./a.scenario","passed":false,"updated":false,"failures":[{"line":2,"error":"expectation failed: count == 1 (actual: 0)"}]}
                {"path":"./b.scenario","passed":true,"updated":false,"failures":[]}
                {"passed":1,"failed":1}

                """)
        #expect(json.status == 1)
        let bailed = try Fluxsh.run(["test", "--bail", "--jobs", "1", "--junit", "report.xml", "."], in: folder)
        #expect(bailed.stdout.hasPrefix("FAIL ./a.scenario\n"))
        #expect(
            bailed.stdout.hasSuffix("1 scenario not run: --bail stopped at the first failure\n0 passed, 1 failed\n"))
        #expect(bailed.status == 1)
        let xml = try String(contentsOf: folder.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(xml.contains(#"tests="2" failures="1" errors="0" skipped="1""#))
        #expect(xml.contains(#"<skipped message="not run: --bail stopped at the first failure"/>"#))
        let bailedJSON = try Fluxsh.run(["test", "--bail", "--jobs", "1", "--format", "json", "."], in: folder)
        #expect(bailedJSON.stdout.hasSuffix(#"{"passed":0,"failed":1,"notRun":1}"# + "\n"))
        // A failed block's lines, as written and as printed, are in the JSON too.
        try "load counter\ndispatch increment\n~ count: 0 -> 2\nexpect count == 5\n".write(
            to: folder.appendingPathComponent("a.scenario"), atomically: true, encoding: .utf8)
        let diff = try Fluxsh.run(["test", "--format", "json", "--junit", "report.xml", "a.scenario"], in: folder)
        let object = try JSONSerialization.jsonObject(with: Data(diff.stdout.split(separator: "\n")[0].utf8))
        let failures = (object as? [String: Any])?["failures"] as? [[String: Any]]
        #expect(failures?.count == 2)
        #expect(failures?[0]["expected"] as? [String] == ["~ count: 0 -> 2"])
        #expect(failures?[0]["actual"] as? [String] == ["~ count: 0 -> 1"])
        #expect(failures?[1]["expected"] == nil)
        // One <failure> for the scenario's two failures, as the JUnit schema has it.
        let two = try String(contentsOf: folder.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(two.components(separatedBy: "<failure ").count == 2)
        #expect(two.contains("(and 1 more failure)\" type=\"ScenarioFailure\">"))
        #expect(two.contains("a.scenario:4: error: expectation failed: count == 5 (actual: 1)"))
    }

    @Test func quitStopsReadingInput() throws {
        let result = try Fluxsh.run(["--store", "counter"], stdin: "dispatch increment\nquit\ndispatch increment\n")
        #expect(result.stdout == "~ count: 0 -> 1\n")
        #expect(result.status == 0)
    }

    /// No arguments start the shell without the argument parser: what it prints, and how it
    /// ends, are those of `shell` given explicitly, as the parser made them.
    @Test func noArgumentsRunTheShellAsTheParserWould() throws {
        for script in [
            "quit\n", "load counter\ndispatch increment\nstate count\n", "dispatch nothing\nload nowhere\n",
            "load todos\n> dispatch add x\nhelp\n",
        ] {
            let bare = try Fluxsh.run([], stdin: script)
            let parsed = try Fluxsh.run(["shell"], stdin: script)
            #expect(bare.stdout == parsed.stdout, "\(script)")
            #expect(bare.stderr == parsed.stderr, "\(script)")
            #expect(bare.status == parsed.status, "\(script)")
        }
    }

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fluxsh-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
