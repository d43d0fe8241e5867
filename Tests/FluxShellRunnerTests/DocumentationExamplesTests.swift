import Foundation
import Testing

@testable import FluxShellLanguage
@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// The API documentation's examples that are parts of a store of the reader's own, run: the Swift
/// of the article is this file's, word for word, and its session prints what the article shows.
/// (The sessions that start with a `$` line run in Tests/Docs/docs_test.py.)
struct DocumentationExamplesTests {
    /// The project's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The fenced blocks of `language` in the article at `path`, each as its lines.
    static func blocks(_ language: String, in path: String) throws -> [[String]] {
        let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```" + language {
                current = []
            } else if line.hasPrefix("```"), let block = current {
                blocks.append(block)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Runs the prompt lines (`store> COMMAND`) of a session block as piped input with `--echo`
    /// and compares what is printed with the block, up to a `...` line, after which the article
    /// shows no more. Errors are compared as a prompt shows them, without `<stdin>:N: `.
    static func check(
        _ block: [String], catalog: StoreCatalog, store: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        var documented: [String] = []
        var script = ""
        for line in block {
            if line == "..." { break }
            if let prompt = line.wholeMatch(of: /[a-z][A-Za-z0-9-]*> (.*)/) {
                script += prompt.output.1 + "\n"
                documented.append("> " + prompt.output.1)
            } else {
                documented.append(line)
            }
        }
        // As `--store NAME` loads it: before the first line.
        let session = Session(catalog: catalog)
        _ = try session.execute(try #require(try CommandParser.parse("load \(store)").command))
        var printed: [String] = []
        var options = ScriptRunner.Options()
        options.echo = true
        let runner = ScriptRunner(
            session: session, options: options,
            output: Printer(
                renderer: Renderer(),
                streams: .lines(
                    standardOutput: { printed.append($0) },
                    standardError: { printed.append($0.replacing(#/^<stdin>:[0-9]+: /#, with: "")) })))
        runner.run(Array(script.utf8), file: "<stdin>")
        #expect(Array(printed.prefix(documented.count)) == documented, sourceLocation: sourceLocation)
    }

    @Test func effectsOverTime() throws {
        let article = "Sources/FluxShell/FluxShell.docc/EffectsOverTime.md"
        let swift = try Self.blocks("swift", in: article)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let definition = try #require(swift.first).joined(separator: "\n")
        #expect(source.contains("        " + definition.replacingOccurrences(of: "\n", with: "\n        ")))

        try Self.check(
            try #require(Self.blocks("text", in: article).first), catalog: StoreCatalog([Search.definition]),
            store: "search")
    }
}

/// The feature that EffectsOverTime.md registers: a search that waits 300 ms before it answers.
struct Search {
    struct State: Equatable {
        var query = ""
        var isSearching = false
        var results: [String] = []
    }

    enum Action: Equatable {
        case queryChanged(String)
        case searchStarted
        case searchResponse([String])
    }

    static func results(for query: String) -> [String] {
        ["flux", "flutter", "redux"].filter { $0.hasPrefix(query) }
    }

    func reduce(into state: inout State, action: Action) -> [Action] {
        switch action {
        case .queryChanged(let query): state.query = query
        case .searchStarted: state.isSearching = true
        case .searchResponse(let results):
            state.isSearching = false
            state.results = results
        }
        return []
    }

    /// The article's registration, word for word.
    // swift-format-ignore
    static var definition: StoreDefinition {
        StoreDefinition("search", state: Search.State(), reduce: { _ = Search().reduce(into: &$0, action: $1) },
            effect: { action, state, context in
                guard case .queryChanged(let query) = action else { return [] }
                try await context.environment.clock.sleep(for: .milliseconds(300))
                context.send(.searchStarted)
                return [.searchResponse(Search.results(for: query))]
            })
    }
}
