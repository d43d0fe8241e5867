import FluxShellTestSupport
import Foundation
import Testing

/// “Scenarios” in the reference: a scenario or script whose store traps fails with the line that
/// trapped and the fatal error; `test` runs every other scenario, prints its summary and JUnit
/// report; `run` reports the file and line and exits 1. Through the planted-shell, whose stores
/// trap on purpose.
struct TrapSurvivalTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("trap-survival-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func write(_ text: String, _ name: String, in folder: URL) throws {
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    @Test(arguments: [1, 2]) func aScenarioThatTrapsFailsAndTheOthersStillRun(jobs: Int) throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        try write("load level\ndispatch set 3\nexpect value == 3\n", "a.scenario", in: here)
        try write(
            "load quotient\ndispatch add 1\n~ value: 100 -> 101\n# the next line divides by zero\ndispatch divide by: 0\n",
            "b.scenario", in: here)
        try write("load level\ndispatch set 25\n", "c.scenario", in: here)
        try write("load level\ndispatch set 4\nexpect value == 5\n", "d.scenario", in: here)
        try write("load level\ndispatch set 5\n~ value: 0 -> 5\n", "e.scenario", in: here)
        let shell = Fluxsh.executable("planted-shell")
        let result = try Fluxsh.run(
            ["test", ".", "--jobs", String(jobs), "--no-color", "--junit", "report.xml"], in: here, program: shell)
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(5)) == [
                "PASS ./a.scenario", "FAIL ./b.scenario", "FAIL ./c.scenario", "FAIL ./d.scenario", "PASS ./e.scenario",
            ])
        #expect(
            result.stdout.contains(
                "./b.scenario:5: error: the process trapped here: Swift/IntegerTypes.swift:")
                && result.stdout.contains(
                    "Fatal error: Division by zero (a store's mutation, validation or effect stopped the program)")
        )
        #expect(result.stdout.contains("./c.scenario:2: error: the process trapped here: planted_shell/main.swift:"))
        #expect(result.stdout.contains("Fatal error: A: above twenty"))
        #expect(result.stdout.contains("./d.scenario:3: error: expectation failed: value == 5 (actual: 4)"))
        #expect(lines.suffix(2) == ["2 passed, 3 failed", ""])
        // The fatal errors are in the report, not on standard error.
        #expect(result.stderr.isEmpty)
        let junit = try String(contentsOf: here.appendingPathComponent("report.xml"), encoding: .utf8)
        #expect(junit.contains(#"tests="5" failures="3""#))
        let json = try Fluxsh.run(["test", ".", "--jobs", String(jobs), "--format", "json"], in: here, program: shell)
        #expect(json.stdout.hasSuffix(#"{"passed":2,"failed":3}"# + "\n"))
        #expect(
            json.stdout.contains(
                #"{"path":"./c.scenario","passed":false,"updated":false,"failures":[{"line":2,"error":"the process trapped here: "#
            ))
        // Nothing is left in the temporary folder.
        let left = try FileManager.default.contentsOfDirectory(atPath: here.path).filter {
            $0 != "report.xml" && !$0.hasSuffix(".scenario")
        }
        #expect(left.isEmpty)
    }

    @Test func aScriptThatTrapsIsReportedAtItsLineAfterTheOutputBeforeIt() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        try write("load quotient\ndispatch add 1\n\ndispatch divide by: 0\ndispatch add 2\n", "script.txt", in: here)
        let shell = Fluxsh.executable("planted-shell")
        let result = try Fluxsh.run(["run", "script.txt"], in: here, program: shell)
        #expect(result.status == 1)
        #expect(result.stdout == "~ value: 100 -> 101\n")
        #expect(
            result.stderr.hasSuffix(
                "Fatal error: Division by zero (a store's mutation, validation or effect stopped the program)\n"))
        #expect(result.stderr.contains("script.txt:4: error: the process trapped here: Swift/IntegerTypes.swift:"))
        let json = try Fluxsh.run(["run", "script.txt", "--format", "json"], in: here, program: shell)
        #expect(json.status == 1)
        #expect(
            json.stdout.hasSuffix(
                #"Fatal error: Division by zero (a store's mutation, validation or effect stopped the program)"}"#
                    + "\n"))
        #expect(json.stdout.contains(#"{"line":4,"error":"the process trapped here: "#))
    }
}
