import FluxShellFixtures
import FluxStores
import Testing

@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// An error quotes a long piece of what was typed short: its first characters, its length and
/// its column, never the whole of it.
struct DiagnosticTests {
    @Test func aLongWordIsQuotedByItsFirstCharactersLengthAndColumn() {
        let shell = Transcript()
        shell.run("load counter")
        let word = String(repeating: "a", count: 10_000)
        let lines = shell.run("dispatch \(word)")
        let excerpt = String(repeating: "a", count: Diagnostic.excerptLength)
        #expect(
            lines == [
                "error: unknown action '\(excerpt)...' [10,000 characters at column 10] for store 'counter' (type 'actions' for the list)"
            ])
    }

    @Test func aLongPathInAnErrorIsCutToo() {
        let shell = Transcript()
        shell.run("load counter")
        let path = "count" + String(repeating: ".x", count: 5_000)
        let lines = shell.run("watch \(path)")
        #expect(lines.count == 1)
        #expect(lines[0].count < 400)
        #expect(lines[0].hasPrefix("error: 'count.x.x.x"))
        #expect(lines[0].contains("...' [10,005 characters at column 7] names nothing in the state of 'counter'"))
    }

    @Test func aLongSentenceKeepsItsStartAndItsEnd() {
        let sentence = Array(repeating: "word", count: 1_000).joined(separator: " ")
        let diagnostic = Diagnostic(.failedLine, "argument 1 of 'set': found \"\(sentence)\" for store 'counter'")
        #expect(diagnostic.message.count < 5 * Diagnostic.excerptLength + 40)
        #expect(diagnostic.message.hasPrefix("argument 1 of 'set': found \"word word"))
        #expect(diagnostic.message.hasSuffix("word\" for store 'counter' [5,048 characters]"))
    }

    @Test func aShortMessageIsLeftAsItIs() {
        let word = String(repeating: "b", count: Diagnostic.excerptLength)
        let message = "unknown action '\(word)' for store 'counter'"
        #expect(Diagnostic(.failedLine, message, hint: "did you mean 'b'?").message == message)
    }

    @Test func theColumnCountsCharactersNotBytes() {
        let word = "é" + String(repeating: "c", count: 300)
        let diagnostic = Diagnostic(.failedLine, "unknown action '\(word)'", line: "dispatch ü \(word)")
        #expect(diagnostic.message.hasSuffix("...' [301 characters at column 12]"))
    }

    @Test func aWordNotInTheLineHasNoColumn() {
        let word = String(repeating: "d", count: 300)
        let diagnostic = Diagnostic(.failedLine, "unknown action '\(word)'", line: "dispatch e")
        #expect(diagnostic.message.hasSuffix("...' [300 characters]"))
    }

    /// Five 10 MB lines print five short errors, each at its line.
    @Test func longLinesInAScriptGiveShortErrors() {
        let long = String(repeating: "z", count: 10_000_000)
        let script = "load counter\n" + Array(repeating: "dispatch \(long)", count: 5).joined(separator: "\n") + "\n"
        var errors: [String] = []
        let runner = ScriptRunner(
            session: Session(catalog: .builtIn), options: ScriptRunner.Options(),
            output: Printer(
                renderer: Renderer(), streams: .lines(standardOutput: { _ in }, standardError: { errors.append($0) })))
        runner.run(Array(script.utf8), file: "long.txt")
        #expect(errors.count == 5)
        #expect(errors.allSatisfy { $0.utf8.count < 400 })
        #expect(errors.last?.hasPrefix("long.txt:6: error: unknown action 'zzz") == true)
        #expect(errors.last?.contains("[10,000,000 characters at column 10]") == true)
    }
}

struct BytesSearchTests {
    @Test(
        arguments: [
            ("abc", "xxabcxx", 2), ("aab", "aaaaab", 3), ("abab", "ababab", 0), ("abac", "ababac", 2),
            ("b", "aaa", nil), ("aaaa", "aaa", nil), ("xy", "", nil),
        ] as [(String, String, Int?)])
    func findsTheFirstOccurrence(_ key: String, _ text: String, _ offset: Int?) {
        var budget = Int.max
        #expect(Array(text.utf8).firstOccurrence(of: Array(key.utf8), budget: &budget) == offset)
    }

    /// From a start, and within a budget of elements read.
    @Test func searchesFromAStartWithinABudget() {
        var budget = Int.max
        #expect([1, 2, 1, 2].firstOccurrence(of: [1, 2], from: 1, budget: &budget) == 2)
        var short = 2
        #expect([0, 0, 0, 1, 2].firstOccurrence(of: [1, 2], budget: &short) == nil)
        #expect(short == 0)
    }
}
