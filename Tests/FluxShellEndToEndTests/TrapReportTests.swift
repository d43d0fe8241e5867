import FluxShellTestSupport
import Foundation
import Testing

/// A store that traps in piped mode ends the process, but the output of the lines before it
/// reaches standard output first, standard error ends with
/// `<stdin>:LINE: error: the store trapped: MESSAGE`, and the status is 1: through the
/// planted-shell, whose stores trap on purpose.
struct TrapReportTests {
    private let shell = Fluxsh.executable("planted-shell")

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    @Test func aFatalErrorIsReportedAtItsLineAfterTheOutputBeforeIt() throws {
        let result = try Fluxsh.run(
            [], stdin: "load level\ndispatch set 3\n# a comment\ndispatch set 5\n\ndispatch set 25\ndispatch set 7\n",
            program: shell)
        #expect(result.status == 1)
        #expect(result.stdout == "~ value: 0 -> 3\n~ value: 3 -> 5\n")
        let last = lines(result.stderr).last ?? ""
        #expect(last.hasPrefix("<stdin>:6: error: the store trapped: planted_shell/main.swift:"), "\(result.stderr)")
        #expect(last.hasSuffix(": Fatal error: A: above twenty"), "\(result.stderr)")
    }

    @Test func aRuntimeCheckIsReportedWithItsMessage() throws {
        let result = try Fluxsh.run(
            ["--store", "quotient"], stdin: "dispatch add 1\ndispatch add 2\ndispatch divide by: 0\n", program: shell)
        #expect(result.status == 1)
        #expect(result.stdout == "~ value: 100 -> 101\n~ value: 101 -> 103\n")
        let last = lines(result.stderr).last ?? ""
        #expect(last.hasPrefix("<stdin>:3: error: the store trapped: Swift/IntegerTypes.swift:"), "\(result.stderr)")
        #expect(last.hasSuffix(": Fatal error: Division by zero"), "\(result.stderr)")
    }

    /// A check of a release build prints no message: the signal says what happened.
    @Test func aTrapWithoutMessageIsReportedBySignal() throws {
        let result = try Fluxsh.run(
            [], stdin: "load depth\ndispatch add 1\ndispatch add 2\ndispatch halt\ndispatch add 3\n", program: shell)
        #expect(result.status == 1)
        #expect(result.stdout == "~ value: 0 -> 1\n~ value: 1 -> 3\n")
        #expect(
            lines(result.stderr).last
                == "<stdin>:4: error: the store trapped: illegal instruction (SIGILL), a failed runtime check: an overflow, a force-unwrapped nil, an index out of range, … (a debug build names it)"
        )
    }

    @Test(.disabled(if: Fluxsh.underThreadSanitizer, "the sanitizer reports a stack overflow itself"))
    func aStackOverflowIsReported() throws {
        let result = try Fluxsh.run(
            [], stdin: "load depth\ndispatch add 1\ndispatch add 2\n\ndispatch descend\ndispatch add 3\n",
            program: shell)
        #expect(result.status == 1)
        #expect(result.stdout == "~ value: 0 -> 1\n~ value: 1 -> 3\n")
        #expect(result.stderr == "<stdin>:5: error: the store trapped: stack overflow (SIGSEGV)\n")
    }

    /// More output than the buffer holds before it is written: all of it, in order, then the trap.
    @Test func everyLineOfALongRunComesBeforeTheTrap() throws {
        let count = 5000
        let script = "load quotient\n" + String(repeating: "dispatch add 1\n", count: count) + "dispatch divide by: 0\n"
        let result = try Fluxsh.run([], stdin: script, program: shell)
        #expect(result.status == 1)
        let output = lines(result.stdout)
        // NB: compared as a Bool, so that a failure does not print thousands of lines.
        let inOrder = output == (0..<count).map { "~ value: \(100 + $0) -> \(101 + $0)" }
        #expect(inOrder, "\(output.count) lines, the last \(output.last ?? "none")")
        #expect(lines(result.stderr).last?.hasPrefix("<stdin>:\(count + 2): error: the store trapped: ") == true)
    }

    /// With `--format json` the error is also standard output's last object, as every error is.
    @Test(.disabled(if: Fluxsh.underThreadSanitizer, "the sanitizer reports a stack overflow itself"))
    func jsonEndsWithTheTrapAsAnObject() throws {
        let result = try Fluxsh.run(
            ["--format", "json"], stdin: "load depth\ndispatch add 1\ndispatch descend\n", program: shell)
        #expect(result.status == 1)
        #expect(
            lines(result.stdout) == [
                #"{"line":1,"command":"load","store":"depth","alias":"depth"}"#,
                #"{"line":2,"command":"dispatch","action":"add 1","changes":[{"op":"~","path":"value","old":0,"new":1}]}"#,
                #"{"line":3,"error":"the store trapped: stack overflow (SIGSEGV)"}"#,
            ])
        #expect(result.stderr == "<stdin>:3: error: the store trapped: stack overflow (SIGSEGV)\n")
        let fatal = try Fluxsh.run(
            ["--format", "json", "--store", "level"], stdin: "dispatch set 21\n", program: shell)
        #expect(fatal.status == 1)
        let object = lines(fatal.stdout).last ?? ""
        #expect(
            object.hasPrefix(#"{"line":1,"error":"the store trapped: planted_shell/main.swift:"#), "\(fatal.stdout)")
        #expect(object.hasSuffix(#": Fatal error: A: above twenty"}"#), "\(fatal.stdout)")
        #expect(lines(fatal.stderr).last?.hasPrefix("<stdin>:1: error: the store trapped: planted_shell/") == true)
    }
}

/// An edit of the past whose replay traps (a pop once the push under it is skipped) is refused,
/// naming the step and the fatal error, and changes nothing: the replay runs first in a copy of
/// the process, where the trap ends the copy. The same in a scenario that `fluxsh test` runs,
/// alone or beside others.
struct TrapInAnEditTests {
    private let shell = Fluxsh.executable("planted-shell")
    static let steps = "load stack\ndispatch push 1\ndispatch push 2\ndispatch pop\ndispatch pop\n"

    @Test func anEditWhoseReplayTrapsIsRefusedNamingTheStep() throws {
        let result = try Fluxsh.run(
            ["--no-color"], stdin: Self.steps + "skip 1\nhistory\nstate items\nskip 4\nstate items\n", program: shell)
        #expect(result.status == 1)
        #expect(
            result.stderr.hasPrefix(
                "<stdin>:6: error: store 'stack' traps at step 4's pop once the steps before it change: Swift/"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "Fatal error: Can't remove last element from an empty collection (skip or replace step 4 as well, or undo; nothing changed)"
            ), "\(result.stderr)")
        #expect(
            result.stdout.hasSuffix(
                "  1  push 1\n  2  push 2\n  3  pop\n  4  pop\n[]\n+ items[0]: 1\n[1]\n"), "\(result.stdout)")
    }

    @Test(arguments: [1, 2])
    func aScenarioExpectsTheRefusal(jobs: Int) throws {
        let here = FileManager.default.temporaryDirectory.appendingPathComponent("edit-trap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: here, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: here) }
        let lines = [
            "load stack", "dispatch push 1", "+ items[0]: 1", "dispatch pop", "- items[0]: 1", "! skip 1",
            "dispatch push 5", "+ items[0]: 5",
        ]
        try (lines.joined(separator: "\n") + "\n").write(
            to: here.appendingPathComponent("a.scenario"), atomically: true, encoding: .utf8)
        try "load stack\ndispatch push 3\n+ items[0]: 3\n".write(
            to: here.appendingPathComponent("b.scenario"), atomically: true, encoding: .utf8)
        let result = try Fluxsh.run(
            ["test", "--no-color", "--jobs", String(jobs), "a.scenario", "b.scenario"], in: here, program: shell)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed, 0 failed"), "\(result.stdout)")
    }
}
