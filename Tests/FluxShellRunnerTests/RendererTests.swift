import FluxCore
import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellLanguage
@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// What the one renderer prints for each mode: warnings in text and JSON (never compared as diff
/// lines), errors with and without `FILE:LINE:`, colors only when asked.
struct RendererTests {
    struct Echo: State { var count = 0 }
    enum EchoAction: Action { case ping }
    struct EchoMutation: Mutation, Sendable {
        func mutate(action: EchoAction, state: inout Echo) { state.count += 1 }
    }
    /// Every `ping` makes another: an effect that never stops.
    static let catalog = StoreCatalog([
        StoreDefinition("echo", state: Echo(), mutation: EchoMutation(), effect: { _, _ in [.ping] })
    ])

    /// Runs `script` through a runner; returns standard output, standard error and the failures.
    private func run(_ script: String, renderer: Renderer) -> (out: [String], err: [String], failures: Int) {
        let session = Session(catalog: Self.catalog)
        session.followUpLimit = 2
        var out: [String] = []
        var err: [String] = []
        let runner = ScriptRunner(
            session: session, options: ScriptRunner.Options(),
            output: Printer(
                renderer: renderer,
                streams: .lines(standardOutput: { out.append($0) }, standardError: { err.append($0) })))
        runner.run(Array(script.utf8), file: "s.scenario")
        return (out, err, runner.failures.count)
    }

    @Test func aWarningPrintsAfterTheDiffButIsNotADiffLine() {
        let script = "load echo\ndispatch ping\n~ count: 0 -> 1\n=> ping\n~ count: 1 -> 2\n=> ping\n~ count: 2 -> 3\n"
        let text = run(script, renderer: Renderer())
        #expect(text.failures == 0, "\(text.err)")
        #expect(text.out.last == "warning: effects dispatched more than 2 follow-up actions; the rest were dropped")
        let json = run(script, renderer: Renderer(format: .json))
        #expect(json.failures == 0)
        #expect(
            json.out.last?.hasSuffix(
                #""warnings":["warning: effects dispatched more than 2 follow-up actions; the rest were dropped"]}"#)
                == true)
    }

    @Test func errorsAreLocatedExceptAtThePromptAndColoredOnlyWhenAsked() {
        let located = run("load echo\ndispatch pong\n", renderer: Renderer())
        #expect(located.err == ["s.scenario:2: error: unknown action 'pong' for store 'echo' (did you mean 'ping'?)"])
        let prompt = run("load echo\ndispatch pong\n", renderer: Renderer(colors: true, locatesErrors: false))
        #expect(
            prompt.err == ["\u{1B}[31merror: unknown action 'pong' for store 'echo' (did you mean 'ping'?)\u{1B}[0m"])
        let colored = run("load echo\ndispatch ping\n", renderer: Renderer(colors: true))
        #expect(colored.out.first == "\u{1B}[33m~ count: 0 -> 1\u{1B}[0m")
        #expect(colored.out.contains("\u{1B}[2m=> ping\u{1B}[0m"))
    }

    /// On a terminal (a ``Renderer/width``), a diff line wider than it prints its values below
    /// its head, indented, over several lines when one does not fit; `why` indents them under
    /// its steps; a narrow line, JSON and a renderer without a width keep one line per change.
    /// On a terminal, `help` is cut at spaces, never inside a word, each row's summary going on
    /// under its own column; piped, it is one line a row.
    @Test func helpWrapsAtWordsOnATerminalOnly() throws {
        let shell = Transcript()
        let result = try shell.session.execute(.help(topic: nil))
        // Joined back at spaces, the wrapped text is the piped text, word for word.
        func words(_ lines: [String]) -> [Substring] { lines.flatMap { $0.split(separator: " ") } }
        let piped = Renderer().lines(of: result)
        let narrow = Renderer(width: 100).lines(of: result)
        #expect(narrow.count > piped.count)
        #expect(narrow.allSatisfy { $0.count <= 100 }, "\(narrow)")
        // Narrower than twice the first column, the rest of a row is indented by four.
        let narrower = Renderer(width: 50).lines(of: result)
        #expect(narrower.allSatisfy { $0.count <= 50 } && words(narrower) == words(piped), "\(narrower)")
        #expect(words(narrow) == words(piped))
        let row = try #require(narrow.firstIndex { $0.hasPrefix("  dispatch ACTION [ARG...]") })
        let column = narrow[row].range(of: "Dispatches")!.lowerBound.utf16Offset(in: narrow[row])
        #expect(narrow[row + 1].prefix { $0 == " " }.count == column, "\(narrow[row...row + 1])")
    }

    /// On a terminal, an error is cut at spaces too, each piece in the error's color; the location
    /// stays out of it, and a pipe gets one line.
    @Test func anErrorWrapsAtWordsOnATerminalOnly() {
        let text =
            "unknown action 'incremnet' for store 'counter' (did you mean 'increment'? type 'actions' for the list)"
        let diagnostic = Diagnostic(ShellError(text), at: SourceLocation(file: "a.scenario", line: 3))
        #expect(Renderer().lines(of: diagnostic) == ["a.scenario:3: error: " + text])
        let narrow = Renderer(width: 40).lines(of: diagnostic)
        #expect(narrow.count > 1 && narrow.allSatisfy { $0.count <= 40 }, "\(narrow)")
        #expect(narrow.joined(separator: " ") == "a.scenario:3: error: " + text)
        let colored = Renderer(colors: true, width: 40).lines(of: diagnostic)
        #expect(colored.first?.hasPrefix("a.scenario:3: \u{1B}[31merror:") == true, "\(colored)")
        #expect(colored.dropFirst().allSatisfy { $0.hasPrefix("\u{1B}[31m") && $0.hasSuffix("\u{1B}[0m") })
    }

    @Test func wideValuesPrintOverSeveralLinesOnATerminalOnly() {
        let shell = Transcript()
        shell.run("load todos")
        let long = String(repeating: "x", count: 60)
        func lines(_ line: String, width: Int?, colors: Bool = false) -> [String] {
            guard let command = try? CommandParser.parse(line).command, let result = try? shell.session.execute(command)
            else { return ["error"] }
            return Renderer(colors: colors, width: width).lines(of: result)
        }
        #expect(
            lines("dispatch add short", width: 80) == [
                "+ todos[0]: {\"id\":1,\"title\":\"short\",\"done\":false}", "~ nextID: 1 -> 2",
            ])
        #expect(
            lines("dispatch add \(long)", width: 60) == [
                "+ todos[1]:", "  {", "    \"id\": 2,", "    \"title\": \"\(long)\",", "    \"done\": false", "  }",
                "~ nextID: 2 -> 3",
            ])
        #expect(
            lines("dispatch rename 2 done", width: 70) == ["~ todos[1].title:", "  \"\(long)\"", "  ->", "  \"done\""])
        #expect(
            lines("undo", width: 70, colors: true) == [
                "\u{1B}[33m~ todos[1].title:\u{1B}[0m", "\u{1B}[33m  \"done\"\u{1B}[0m", "\u{1B}[33m  ->\u{1B}[0m",
                "\u{1B}[33m  \"\(long)\"\u{1B}[0m",
            ])
        #expect(lines("redo", width: nil) == ["~ todos[1].title: \"\(long)\" -> \"done\""])
        #expect(
            lines("why todos[1].title", width: 40) == [
                "  2  add \(long)", "     + todos[1]:", "       {", "         \"id\": 2,",
                "         \"title\": \"\(long)\",",
                "         \"done\": false", "       }", "  3  rename 2 done", "     ~ todos[1].title:",
                "       \"\(long)\"", "       ->",
                "       \"done\"",
            ])
        #expect(
            lines("state todos[0]", width: 30) == [
                "{", "  \"id\": 1,", "  \"title\": \"short\",", "  \"done\": false", "}",
            ])
        #expect(lines("state todos[0]", width: 80) == ["{\"id\":1,\"title\":\"short\",\"done\":false}"])
    }
}
