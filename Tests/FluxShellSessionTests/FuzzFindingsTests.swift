import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellLanguage
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// What the command fuzzer (`Fuzz/`, `make fuzz`) found: lines the engine takes, whose printed form
/// does not parse back to the same command (`CommandText` is the parser's inverse).
struct FuzzFindingsTests {
    /// A path whose first key is printed in brackets (`a-b`, `1a` are not bare names), with more
    /// after it: `state a-b.c` prints as `state ["a-b"].c`, which does not parse ("usage: state
    /// [PATH]"); `watch a-b.c` prints as `watch ["a-b"].c`, which parses as two paths.
    @Test(arguments: ["state a-b.c", "state 1a[0]", "why a-b.c", "expect a-b.c == 1", "watch a-b.c"])
    func aPathWhoseFirstKeyIsInBracketsPrintsAsALineThatParsesBack(_ line: String) throws {
        let command = try #require(try CommandParser.parse(line).command)
        let printed = command.description
        #expect((try? CommandParser.parse(printed).command) == command, "\(printed)")
    }

    /// A path typed with its first key in brackets, and more after it, reads as the same path
    /// written bare, in every command that takes a path.
    @Test func aPathThatStartsWithABracketedKeyIsOnePath() {
        let shell = Transcript()
        shell.run("load todos")
        shell.run("dispatch add milk")
        #expect(shell.run(#"state ["todos"][0].title"#) == [#""milk""#])
        #expect(shell.run(#"expect ["todos"][0].title == "milk""#) == [])
        #expect(shell.run(#"why ["todos"][0].title"#) == shell.run("why todos[0].title"))
        #expect(shell.run(#"watch ["todos"][0].done"#) == [])
        #expect(shell.run("dispatch rename id: 1 title: x") == ["(1 more change)"])
        #expect(shell.run("dispatch toggle id: 1") == ["~ todos[0].done: false -> true"])
        // A JSON literal is still one: an array argument, then a word.
        #expect(shell.run(#"state ["todos"] .title"#).first?.hasPrefix("error: usage: state") == true)
    }

    /// An alias given in quotes is taken (`load todos as "my list"`), and `save` writes it without
    /// them (`load todos as my list`, `use my list`): the scenario does not replay.
    @Test func aQuotedAliasIsSavedAsLinesThatReplay() throws {
        let shell = Transcript()
        shell.run(#"load todos as "my list""#)
        shell.run("load counter")
        shell.run("dispatch add milk")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("alias-\(UUID().uuidString).scenario")
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(shell.run("save \(file.path)").count == 1)
        let saved = try String(contentsOf: file, encoding: .utf8)
        let replay = Transcript()
        for line in saved.split(separator: "\n") {
            guard line.hasPrefix("load ") || line.hasPrefix("use ") || line.hasPrefix("dispatch ") else { continue }
            #expect(replay.run(String(line)).allSatisfy { !$0.hasPrefix("error:") }, "\(line)")
        }
        #expect(replay.run(#"use "my list""#) == [])
        #expect(replay.run("state todos[0].title") == [#""milk""#])
    }
}
