import FluxShell
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
        try "load counter\ndispatch add 2\n~ count: 0 -> 3\n! dispatch add 1\n".write(to: file, atomically: true, encoding: .utf8)
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
