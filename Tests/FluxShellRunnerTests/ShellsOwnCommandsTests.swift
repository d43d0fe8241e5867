import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellLanguage
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxStores

/// The shell's own commands (reference: "The shell's own commands"): `read` runs a command file
/// in the session with its errors located there, `output` sends results to a file and back,
/// `format` switches text and JSON, `timer` times each command; each bad use is refused with
/// nothing changed.
struct ShellsOwnCommandsTests {
    /// A folder of its own for each test, removed after.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("own-\(UUID().uuidString)").path

        init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Writes `text` to the file `name` in the folder; returns its path.
        @discardableResult
        func write(_ name: String, _ text: String) -> String {
            let file = path + "/" + name
            _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
            return file
        }

        func read(_ name: String) -> String? {
            FileManager.default.contents(atPath: path + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    struct Run {
        var out: [String] = []
        var err: [String] = []
        var failures = 0
        var session: Session?
    }

    /// Runs `script` as piped mode does (a printer that takes `output` and `format`).
    static func run(_ script: String, file: String = "<stdin>", takesOutputCommands: Bool = true) -> Run {
        var run = Run()
        let session = Session(catalog: .builtIn)
        var out: [String] = []
        var err: [String] = []
        let printer = Printer(
            renderer: Renderer(), streams: .lines(standardOutput: { out.append($0) }, standardError: { err.append($0) })
        )
        printer.takesOutputCommands = takesOutputCommands
        let runner = ScriptRunner(session: session, options: ScriptRunner.Options(), output: printer)
        runner.run(Array(script.utf8), file: file)
        (run.out, run.err, run.failures, run.session) = (out, err, runner.failures.count, session)
        return run
    }

    @Test func readRunsTheFileInTheSessionWithItsExpectedLinesCheckedAndItsErrorsLocatedThere() {
        let folder = Folder()
        let setup = folder.write(
            "setup.txt",
            "load todos\ndispatch add title: milk\n+ todos[0]: {\"id\":1,\"title\":\"tea\",\"done\":false}\n~ nextID: 1 -> 2\ndispatch toggle id: 9\n"
        )
        let run = Self.run("read \(setup)\nstate todos.count\n")
        #expect(run.out.contains("1"), "\(run.out)")
        #expect(run.failures == 2, "\(run.err)")
        #expect(run.err.contains { $0.hasPrefix("\(setup):2: error: the diff of 'dispatch add title: milk' differs") })
        #expect(run.err.contains { $0.hasPrefix("\(setup):5: error: no todo has id 9") })
    }

    @Test func aFileThatReadsItselfOrIsMissingIsRefusedAndTheRestRuns() {
        let folder = Folder()
        let loop = folder.write("loop.txt", "dispatch increment\nread \(folder.path)/loop.txt\n")
        let run = Self.run("load counter\nread \(loop)\nread \(folder.path)/none.txt\nstate count\n")
        #expect(run.out.last == "1", "\(run.out)")
        #expect(
            run.err.contains { $0.contains(":2: error: '\(folder.path)/loop.txt' is being read already") }, "\(run.err)"
        )
        #expect(
            run.err.contains { $0.hasPrefix("<stdin>:3: error: cannot read '\(folder.path)/none.txt': no such file") })
        // Two files that read each other end too.
        let a = folder.write("a.txt", "dispatch increment\nread \(folder.path)/b.txt\n")
        folder.write("b.txt", "dispatch increment\nread \(folder.path)/a.txt\n")
        let cycle = Self.run("load counter\nread \(a)\n")
        #expect(cycle.err.count == 1, "\(cycle.err)")
    }

    @Test func aChainOfFilesEndsAtItsDepthLimit() {
        let folder = Folder()
        for depth in 0..<20 {
            folder.write("f\(depth).txt", "dispatch increment\nread \(folder.path)/f\(depth + 1).txt\n")
        }
        folder.write("f20.txt", "dispatch increment\n")
        let run = Self.run("load counter\nread \(folder.path)/f0.txt\nstate count\n")
        #expect(run.err.contains { $0.contains("error: read goes 16 files deep here") }, "\(run.err)")
        #expect(run.out.last == "16", "\(run.out)")
    }

    @Test func outputSendsResultsToAFileAndBackErrorsStayOnStandardError() throws {
        let folder = Folder()
        let run = Self.run(
            "load counter\noutput \(folder.path)/results.txt\ndispatch increment\ndispatch nope\noutput\nstate count\n")
        #expect(folder.read("results.txt") == "~ count: 0 -> 1\n")
        #expect(run.out == ["1"], "\(run.out)")
        #expect(run.err.count == 1 && run.err[0].contains("unknown action 'nope'"), "\(run.err)")
        // A file that cannot be made leaves the results where they were.
        let refused = Self.run(
            "load counter\noutput \(folder.path)/kept.txt\noutput \(folder.path)/no/such/folder/x.txt\ndispatch increment\n"
        )
        #expect(refused.failures == 1)
        #expect(
            refused.err.first?.contains("cannot create '\(folder.path)/no/such/folder/x.txt'") == true, "\(refused.err)"
        )
        #expect(folder.read("kept.txt") == "~ count: 0 -> 1\n")
    }

    @Test func formatSwitchesBetweenTextAndJSON() {
        let run = Self.run("load counter\nformat json\ndispatch increment\nformat text\ndispatch increment\n")
        #expect(
            run.out == [
                #"{"line":3,"command":"dispatch","action":"increment","changes":[{"op":"~","path":"count","old":0,"new":1}]}"#,
                "~ count: 1 -> 2",
            ], "\(run.out)")
    }

    @Test func timerPrintsEachCommandsTimeAfterItsOutput() {
        let run = Self.run("load counter\ntimer on\ndispatch increment\nstate count\ntimer off\ndispatch increment\n")
        #expect(run.out.count == 5, "\(run.out)")
        #expect(run.out[0] == "~ count: 0 -> 1")
        #expect(run.out[1].hasPrefix("time: ") && run.out[1].hasSuffix(" ms"), "\(run.out)")
        #expect(run.out[2] == "1")
        #expect(run.out[3].hasPrefix("time: "))
        #expect(run.out[4] == "~ count: 1 -> 2")
    }

    /// At the prompt errors are not located, but one in a file `read` ran names its line there.
    @Test func anErrorInAReadFileNamesItsLineEvenAtThePrompt() {
        let folder = Folder()
        let file = folder.write("steps.txt", "load counter\ndispatch nope\n")
        var err: [String] = []
        let printer = Printer(
            renderer: Renderer(locatesErrors: false),
            streams: .lines(standardOutput: { _ in }, standardError: { err.append($0) }))
        var options = ScriptRunner.Options()
        options.acceptsExpectedLines = false
        let runner = ScriptRunner(session: Session(catalog: .builtIn), options: options, output: printer)
        runner.run(Array("read \(file)\ndispatch nope\n".utf8), file: "<stdin>")
        #expect(err.first?.hasPrefix("\(file):2: error: unknown action 'nope'") == true, "\(err)")
        #expect(err.last?.hasPrefix("error: ") == true, "\(err)")
    }

    @Test func anAppsAgentDoesNotReadFiles() {
        var options = ScriptRunner.Options()
        options.readsFiles = false
        var err: [String] = []
        let printer = Printer(
            renderer: Renderer(), streams: .lines(standardOutput: { _ in }, standardError: { err.append($0) }))
        let runner = ScriptRunner(session: Session(catalog: .builtIn), options: options, output: printer)
        runner.run(Array("read /etc/hostname\n".utf8), file: "<attach>")
        #expect(err.first?.contains("read runs a file where the session runs, here in the app") == true, "\(err)")
    }

    @Test func theConnectionsPrinterRefusesOutputAndFormat() {
        let run = Self.run("output x.txt\nformat json\ntimer on\n", takesOutputCommands: false)
        #expect(run.failures == 2)
        #expect(run.err.allSatisfy { $0.contains("changes how the shell writes its results") }, "\(run.err)")
    }

    @Test(arguments: [
        ("read", "usage: read FILE"), ("read a b", "usage: read FILE"), ("output a b", "usage: output [FILE]"),
        ("format yaml", "usage: format text|json"), ("timer", "usage: timer on|off"),
    ])
    func badUsesAreRefused(line: String, message: String) {
        let run = Self.run(line + "\n")
        #expect(run.failures == 1)
        #expect(run.err.first?.contains(message) == true, "\(run.err)")
    }

    @Test func theSessionAloneRefusesThemWithTheReason() {
        let shell = Transcript()
        #expect(shell.run("timer on").first?.contains("timer is the shell's own command") == true)
    }

    @Test func theCommandsPrintBackAsTyped() throws {
        for line in [
            "read setup.txt", "output out.txt", "output", "format json", "format text", "timer on", "timer off",
        ] {
            let command = try #require(try CommandParser.parse(Substring(line)).command)
            #expect(command.description == line)
        }
    }
}
