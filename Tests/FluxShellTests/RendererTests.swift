import FluxCore
import Foundation
import Testing

@testable import FluxShell

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
        var options = ScriptRunner.Options()
        options.renderer = renderer
        var out: [String] = []
        var err: [String] = []
        let runner = ScriptRunner(
            session: session, options: options,
            output: .init(standardOutput: { out.append($0) }, standardError: { err.append($0) }))
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
        #expect(json.out.last?.hasSuffix(#""warnings":["warning: effects dispatched more than 2 follow-up actions; the rest were dropped"]}"#) == true)
    }

    @Test func errorsAreLocatedExceptAtThePromptAndColoredOnlyWhenAsked() {
        let located = run("load echo\ndispatch pong\n", renderer: Renderer())
        #expect(located.err == ["s.scenario:2: error: unknown action 'pong' for store 'echo' (did you mean 'ping'?)"])
        let prompt = run("load echo\ndispatch pong\n", renderer: Renderer(colors: true, locatesErrors: false))
        #expect(prompt.err == ["\u{1B}[31merror: unknown action 'pong' for store 'echo' (did you mean 'ping'?)\u{1B}[0m"])
        let colored = run("load echo\ndispatch ping\n", renderer: Renderer(colors: true))
        #expect(colored.out.first == "\u{1B}[33m~ count: 0 -> 1\u{1B}[0m")
        #expect(colored.out.contains("\u{1B}[2m=> ping\u{1B}[0m"))
    }
}
