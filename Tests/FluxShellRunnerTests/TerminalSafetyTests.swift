import FluxShellFixtures
import Testing

@testable import FluxShellJSON
@testable import FluxShellRunner
@testable import FluxShellSystem

/// No text of a store's or a file's reaches a terminal as a code it would obey (C0 and C1
/// controls) or shows reversed (bidirectional controls): each is written as an escape.
struct TerminalSafetyTests {
    /// `\u009d0;T\u009c` sets a terminal's title (OSC … ST, in C1 form); `\u202e` shows what
    /// follows it reversed.
    static let title = #"\u009d0;T\u009c \u202egnp.exe \u2066x\u2069 \u061c\u200e\u200f"#

    @Test func c1AndBidiControlsInAStringPrintEscapedEverywhere() {
        let shell = Transcript()
        shell.run("load todos")
        #expect(
            shell.run(#"dispatch add title: "\#(Self.title)""#) == [
                #"+ todos[0]: {"id":1,"title":"\#(Self.title)","done":false}"#, "~ nextID: 1 -> 2",
            ])
        #expect(shell.run("state todos[0].title") == [#""\#(Self.title)""#])
        #expect(shell.run("history") == [#"  1  add title: "\#(Self.title)""#])
        #expect(shell.run("why todos[0].title").allSatisfy { !$0.unicodeScalars.contains(where: JSONText.isHidden) })
        #expect(shell.run("why todos[0].title").contains { $0.contains(Self.title) })
    }

    /// Escaped, the text reads back as itself.
    @Test func anEscapedControlReadsBackAsItself() throws {
        let text = "\u{9D}0;T\u{9C} \u{202E}gnp.exe é✓ \u{7F}\u{1B}"
        let quoted = JSONText.quoted(text)
        #expect(quoted == #""\u009d0;T\u009c \u202egnp.exe é✓ \u007f\u001b""#)
        #expect(try JSONParser.parse(quoted[...]) == .string(text))
    }

    /// A scenario's file name is shown with its controls escaped, on its PASS/FAIL line and where
    /// its failures are located.
    @Test func aScenarioNameWithControlsIsShownEscaped() {
        let name = "evil\u{1B}]0;t\u{07}\n\u{202E}oiranecs.scenario"
        let failure = Diagnostic(ShellError("expectation failed"), at: SourceLocation(file: name, line: 3))
        let lines = Renderer().report([ScenarioRunner.Result(path: name, failures: [failure])])
        #expect(lines.first == #"FAIL evil\u{1B}]0;t\u{7}\u{A}\u{202E}oiranecs.scenario"#)
        #expect(lines.contains(#"evil\u{1B}]0;t\u{7}\u{A}\u{202E}oiranecs.scenario:3: error: expectation failed"#))
        #expect(lines.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 || JSONText.isHidden($0) } })
    }
}
