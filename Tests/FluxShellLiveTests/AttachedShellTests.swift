import FluxCore
import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSystem
@testable import FluxShellValues

/// The agent's side of `fluxsh attach`, bytes in and lines out, without a socket.
struct AttachedShellTests {
    /// What the app did goes out as `app` frames written straight from the rendered bytes: the
    /// frames the wire writes for each line, escapes included, and a last line without its
    /// newline left out.
    @Test func appFramesFromRenderedBytesAreTheWiresFrames() {
        let lines = ["~ count: 0 -> 1", "", #"+ title: "a \ b""#, "tab\tand\u{1}and\u{7F}", "é✓ 🙂"]
        var text = OutputBuffer()
        for line in lines { text.appendLine(line) }
        text.append("a line cut short")
        var output = OutputBuffer()
        output.append("before\n")
        AttachWire.Frame.writeApp(linesOf: text, to: &output)
        #expect(output.text == "before\n" + lines.map { AttachWire.Frame.app($0).line + "\n" }.joined())
        let frames = output.text.split(separator: "\n").dropFirst().map { AttachWire.Frame(line: $0) }
        #expect(frames == lines.map { .app($0) })
    }

    /// Every frame is written straight into bytes as one line of compact JSON, members in their
    /// fixed order, strings escaped as the wire escapes them, and reads back as itself.
    @Test func everyFrameIsOneLineOfCompactJSONThatReadsBackAsItself() {
        let odd = "a \"quoted\" \\ back\tslash\u{7}é✓"
        let frames: [(AttachWire.Frame, String)] = [
            (.attached(name: "shop", prompt: "shop> "), #"{"attached":"shop","prompt":"shop> "}"#),
            (.out(odd), #"{"out":"a \"quoted\" \\ back\tslash\u0007é✓"}"#),
            (.err(""), #"{"err":""}"#),
            (.app("<= bump"), #"{"app":"<= bump"}"#),
            (.done(line: -3, failed: true, prompt: "> "), #"{"done":-3,"failed":true,"prompt":"> "}"#),
            (.done(line: 120, failed: false, prompt: ""), #"{"done":120,"failed":false,"prompt":""}"#),
            (.completions(word: "", candidates: []), #"{"word":"","completions":[]}"#),
            (
                .completions(word: "b", candidates: ["bump", odd]),
                #"{"word":"b","completions":["bump","a \"quoted\" \\ back\tslash\u0007é✓"]}"#
            ),
            (.bye("app exited"), #"{"bye":"app exited"}"#),
            (
                .save(file: "s.scenario", line: 7, scenario: "load shop\n", saved: ["Saved 1 command.", ""]),
                #"{"save":"s.scenario","line":7,"scenario":"load shop\n","saved":["Saved 1 command.",""]}"#
            ),
        ]
        for (frame, line) in frames {
            #expect(frame.line == line)
            var output = OutputBuffer()
            output.append("before\n")
            frame.writeLine(to: &output)
            #expect(output.text == "before\n" + line + "\n")
            #expect(AttachWire.Frame(line: line[...]) == frame)
            #expect(AttachWire.Frame(bytes: Array(line.utf8)[...]) == frame)
        }
    }

    /// A line's bytes are read as they came: bytes that are not UTF-8 read as U+FFFD in a
    /// string, and make no frame elsewhere; text after the frame, or no frame, makes none.
    @Test func framesReadFromBytesAsTheyCame() {
        let out = Array(#"{"out":"a"#.utf8) + [0xFF, 0xC3] + Array(#"b"}"#.utf8)
        #expect(AttachWire.Frame(bytes: out[...]) == .out("a\u{FFFD}\u{FFFD}b"))
        #expect(AttachWire.Frame(bytes: (Array(#"{"out":"a"}"#.utf8) + [0xFF])[...]) == nil)
        #expect(AttachWire.Frame(bytes: Array(#"{"out":"a"} {"out":"b"}"#.utf8)[...]) == nil)
        #expect(AttachWire.Frame(bytes: Array(#"{"nope":"a"}"#.utf8)[...]) == nil)
        #expect(AttachWire.Frame(bytes: Array(#"["out","a"]"#.utf8)[...]) == nil)
        #expect(AttachWire.Frame(bytes: [][...]) == nil)
    }

    final class Connection {
        let flux = Flux(state: ShopState(), mutation: ShopMutation(), dispatcher: Dispatcher())
        let shell: AttachedShell

        init(maximumLineLength: Int = LineReader.maximumLineLength) throws {
            shell = try AttachedShell(
                serving: [LiveStore(flux, as: "shop")], name: "shop-app", maximumLineLength: maximumLineLength,
                wake: {})
        }

        /// Sends `text` (in pieces of `piece` bytes); returns the lines sent back.
        func send(_ text: String, piece: Int = .max) -> [String] {
            var output = OutputBuffer()
            let bytes = Array(text.utf8)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                shell.receive(bytes[start..<end], to: &output)
                start = end
            }
            return lines(output)
        }

        func appSteps() -> [String] {
            var output = OutputBuffer()
            shell.writeAppSteps(to: &output)
            return lines(output)
        }

        func end() -> [String] {
            var output = OutputBuffer()
            shell.endOfInput(to: &output)
            return lines(output)
        }

        private func lines(_ output: borrowing OutputBuffer) -> [String] {
            output.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    static let textHello = #"{"fluxsh":1,"format":"text","colors":false,"interactive":false,"file":"<stdin>"}"#

    @Test func aClientThatSendsCommandsOnlyGetsJSON() throws {
        let connection = try Connection()
        #expect(
            connection.send("dispatch bump\nstate bumps\nnope\n") == [
                #"{"line":1,"command":"dispatch","action":"bump","changes":[{"op":"~","path":"bumps","old":0,"new":1}]}"#,
                #"{"line":2,"command":"state","path":"bumps","value":1}"#,
                #"{"line":3,"error":"unknown command 'nope' (type 'help' for the list)"}"#,
            ])
        connection.flux.dispatcher.dispatch(.bump)
        #expect(
            connection.appSteps() == [
                #"{"event":"app","action":"bump","changes":[{"op":"~","path":"bumps","old":1,"new":2}]}"#
            ])
    }

    /// A scenario saved while attached names the shell that saved it, as the shell said in its
    /// hello; a name that is not one word is not taken.
    @Test func aSavedScenarioNamesTheAttachingShell() throws {
        let connection = try Connection()
        let hello =
            #"{"fluxsh":1,"format":"text","colors":false,"interactive":false,"file":"<stdin>","program":"cartsh"}"#
        _ = connection.send(hello + "\n")
        #expect(connection.shell.session.catalog.programName == "cartsh")
        let other = try Connection()
        _ = other.send(hello.replacingOccurrences(of: "cartsh", with: "a\\nb") + "\n")
        #expect(other.shell.session.catalog.programName == "fluxsh")
        #expect(AttachWire.Hello(line: hello[...])?.program == "cartsh")
        var made = AttachWire.Hello()
        made.program = "notesh"
        #expect(AttachWire.Hello(line: made.line[...])?.program == "notesh")
    }

    /// `save` of a shell that writes its saves hands it the scenario, with the line the save was
    /// on and the confirmation to print once written: nothing is written in the app's folder.
    @Test func aSaveIsHandedToTheShellThatWritesItsSaves() throws {
        let connection = try Connection()
        var hello = AttachWire.Hello()
        hello.writesSaves = true
        #expect(AttachWire.Hello(line: hello.line[...])?.writesSaves == true)
        #expect(AttachWire.Hello(line: Self.textHello[...])?.writesSaves == false)
        _ = connection.send(hello.line + "\n")
        let file = "attached-save-\(UInt64.random(in: 0...UInt64.max)).scenario"
        let sent = connection.send("dispatch bump\nsave \(file)\n")
        #expect(!FileManager.default.fileExists(atPath: file))
        let frames = sent.compactMap { AttachWire.Frame(line: $0[...]) }
        #expect(frames.count == 4)
        guard frames.count == 4, case .save(file, 2, let scenario, let saved) = frames[2] else {
            Issue.record("no save frame: \(sent)")
            return
        }
        #expect(saved == ["saved 1 state-changing command to \(file)"])
        #expect(scenario.contains("dispatch bump\n~ bumps: 0 -> 1\n"))
        #expect(frames[3] == .done(line: 2, failed: false, prompt: "shop> "))
        #expect(AttachWire.Frame(line: frames[2].line[...]) == frames[2])
    }

    /// With echo on, what the line printed before `save` handed its scenario over (the echo) goes
    /// out first, in its own frame; the save's confirmation goes in the save frame, once.
    @Test func anEchoBeforeASaveGoesOutBeforeTheSaveFrame() throws {
        let connection = try Connection()
        var hello = AttachWire.Hello()
        hello.writesSaves = true
        hello.echo = true
        _ = connection.send(hello.line + "\n")
        let file = "attached-echo-\(UInt64.random(in: 0...UInt64.max)).scenario"
        let frames = connection.send("dispatch bump\nsave \(file)\n").compactMap { AttachWire.Frame(line: $0[...]) }
        let saved = "saved 1 state-changing command to \(file)"
        guard frames.count == 6, case .save(file, 2, let scenario, [saved]) = frames[4] else {
            Issue.record("unexpected frames: \(frames)")
            return
        }
        #expect(scenario.contains("dispatch bump\n~ bumps: 0 -> 1\n"))
        #expect(
            Array(frames[..<4]) == [
                .out("> dispatch bump"), .out("~ bumps: 0 -> 1"), .done(line: 1, failed: false, prompt: "shop> "),
                .out("> save \(file)"),
            ])
        #expect(frames[5] == .done(line: 2, failed: false, prompt: "shop> "))
        #expect(!frames.contains(.out(saved)))
    }

    /// A shell that keeps a timeline (the devtools page) asks for step numbers: each dispatch's
    /// and each of the app's actions' object ends with its number in `history`; other objects,
    /// and a shell that did not ask, get none.
    @Test func aShellThatAsksForStepNumbersGetsThemOnEachStep() throws {
        let connection = try Connection()
        var hello = AttachWire.Hello()
        hello.format = .json
        hello.numbersSteps = true
        #expect(AttachWire.Hello(line: hello.line[...])?.numbersSteps == true)
        #expect(AttachWire.Hello(line: Self.textHello[...])?.numbersSteps == false)
        _ = connection.send(hello.line + "\n")
        connection.flux.dispatcher.dispatch(.bump)
        let sent = connection.send("dispatch bump\nundo\ndispatch clear\n")
        #expect(
            sent.prefix(3) == [
                #"{"app":"{\"event\":\"app\",\"action\":\"bump\",\"changes\":[{\"op\":\"~\",\"path\":\"bumps\",\"old\":0,\"new\":1}],\"step\":1}"}"#,
                #"{"out":"{\"line\":1,\"command\":\"dispatch\",\"action\":\"bump\",\"changes\":[{\"op\":\"~\",\"path\":\"bumps\",\"old\":1,\"new\":2}],\"step\":2}"}"#,
                #"{"done":1,"failed":false,"prompt":"shop> "}"#,
            ])
        // `undo` makes no step; the next dispatch is step 3 (step 2 was undone and replaced).
        #expect(!sent[3].contains("step"))
        #expect(
            sent.contains {
                $0.contains(#"\"command\":\"dispatch\",\"action\":\"clear\""#) && $0.contains(#"\"step\":3}"#)
            })
        #expect(connection.send("reset\n").first?.contains(#"\"step\":4}"#) == true)
        let plain = try Connection()
        #expect(!plain.send("dispatch bump\n")[0].contains("step"))
    }

    /// Found in review: a line typed as `{"complete":…}` was taken for a request and got no
    /// `done`. A shell sends what its user typed after a space when it begins with `{`: it runs
    /// as a command, is refused, and is done.
    @Test func aTypedLineThatLooksLikeARequestRunsAsACommand() throws {
        let connection = try Connection()
        _ = connection.send(Self.textHello + "\n")
        let typed = #"{"complete":"dispatch bu"}"#
        #expect(AttachWire.typedLine("dispatch bump") == "dispatch bump")
        #expect(
            connection.send(AttachWire.typedLine(typed) + "\n") == [
                #"{"err":"<stdin>:1: error: expected a command, found {\"complete\":\"dispatch bu\"} (try 'help')"}"#,
                #"{"done":1,"failed":true,"prompt":"shop> "}"#,
            ])
    }

    /// Found in review: a local session served to one tab after another kept the first tab's way
    /// of handing saves over; a client that does not write its saves gets its file written.
    @Test func aShellThatDoesNotWriteItsSavesIsNotHandedTheOneBefores() throws {
        let connection = try Connection()
        var hello = AttachWire.Hello()
        hello.writesSaves = true
        _ = connection.send(hello.line + "\n")
        #expect(connection.shell.session.handsSavedScenario != nil)
        let next = AttachedShell(session: connection.shell.session, name: "shop-app")
        var output = OutputBuffer()
        next.receive((Self.textHello + "\n").utf8, to: &output)
        #expect(connection.shell.session.handsSavedScenario == nil)
        connection.shell.session.handsSavedScenario = { _, _ in }
        connection.shell.session.detach()
        #expect(connection.shell.session.handsSavedScenario == nil)
    }

    @Test func aHelloGetsFramedLinesAndADoneAfterEachLine() throws {
        let connection = try Connection()
        #expect(connection.send(Self.textHello + "\n") == [#"{"attached":"shop-app","prompt":"shop> "}"#])
        connection.flux.dispatcher.dispatch(.bump)
        #expect(
            connection.send("dispatch bump\nexpect bumps == 5\n", piece: 3) == [
                #"{"app":"<= bump"}"#, #"{"app":"~ bumps: 0 -> 1"}"#, #"{"out":"~ bumps: 1 -> 2"}"#,
                #"{"done":1,"failed":false,"prompt":"shop> "}"#,
                #"{"err":"<stdin>:2: error: expectation failed: bumps == 5 (actual: 2)"}"#,
                #"{"done":2,"failed":true,"prompt":"shop> "}"#,
            ])
        #expect(connection.send(#"{"complete":"dispatch bu"}"# + "\n") == [#"{"word":"bu","completions":["bump"]}"#])
        #expect(connection.send(#"{"complete":"det"}"# + "\n") == [#"{"word":"det","completions":["detach"]}"#])
        #expect(
            connection.send("detach\nstate\n") == [
                #"{"done":3,"failed":false,"prompt":"shop> "}"#, #"{"bye":"detached"}"#,
            ])
        #expect(connection.shell.isFinished)
        connection.flux.dispatcher.dispatch(.bump)
        #expect(connection.appSteps() == [])
    }

    /// In pieces, or whole in one block with its newline.
    @Test(arguments: [50, Int.max])
    func aLineTooLongIsReportedAndTheNextOneRuns(piece: Int) throws {
        let connection = try Connection(maximumLineLength: 100)
        _ = connection.send(Self.textHello + "\n")
        let long = "dispatch note \"" + String(repeating: "x", count: 200) + "\"\n"
        #expect(
            connection.send(long + "state bumps\r\n", piece: piece) == [
                #"{"err":"<stdin>:1: error: line longer than 0 MiB, skipped"}"#,
                #"{"done":1,"failed":true,"prompt":"shop> "}"#, #"{"out":"0"}"#,
                #"{"done":2,"failed":false,"prompt":"shop> "}"#,
            ])
        #expect(connection.flux.store.state.note == nil)
    }

    @Test func theEndOfInputDropsAHalfLineAndEndsTheSession() throws {
        let connection = try Connection()
        _ = connection.send(Self.textHello + "\n")
        #expect(connection.send("dispatch bu") == [])
        #expect(connection.send("mp") == [])
        #expect(connection.end() == [#"{"bye":"detached"}"#])
        #expect(connection.flux.store.state.bumps == 0)
    }

    @Test func expectedLinesThatFailAtTheEndAreCounted() throws {
        let connection = try Connection()
        _ = connection.send(Self.textHello + "\n")
        #expect(
            connection.send("dispatch bump\n~ bumps: 0 -> 5\n") == [
                #"{"out":"~ bumps: 0 -> 1"}"#, #"{"done":1,"failed":false,"prompt":"shop> "}"#,
                #"{"done":2,"failed":false,"prompt":"shop> "}"#,
            ])
        let end = connection.end()
        #expect(end.first?.hasPrefix(#"{"err":"<stdin>:1: error: the diff of 'dispatch bump' differs"#) == true)
        #expect(end.suffix(2) == [#"{"done":2,"failed":true,"prompt":"shop> "}"#, #"{"bye":"detached"}"#])
    }

    @Test func theAppsActionsWaitForTheShellsFirstLine() throws {
        let connection = try Connection()
        connection.flux.dispatcher.dispatch(.bump)
        #expect(connection.appSteps() == [])
        #expect(
            connection.send(Self.textHello + "\nstate bumps\n") == [
                #"{"attached":"shop-app","prompt":"shop> "}"#, #"{"app":"<= bump"}"#, #"{"app":"~ bumps: 0 -> 1"}"#,
                #"{"out":"1"}"#, #"{"done":1,"failed":false,"prompt":"shop> "}"#,
            ])
    }

    @Test func theAppExitingSaysSoToAFramedShell() throws {
        let connection = try Connection()
        _ = connection.send(Self.textHello + "\n")
        var output = OutputBuffer()
        connection.shell.appExits(to: &output)
        #expect(output.text == #"{"bye":"app exited"}"# + "\n")
        #expect(connection.send("dispatch bump\n") == [])
        #expect(connection.flux.store.state.bumps == 0)
    }
}
