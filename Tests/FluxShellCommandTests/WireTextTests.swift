import Testing

@testable import FluxShellCommand

/// What an app sends, as `fluxsh attach` shows it (reference: "Attaching to a running app"): on a
/// terminal, no control code of the app's is obeyed but the colors the shell asked for.
struct WireTextTests {
    static let title = "\u{1B}]0;owned\u{07}"

    @Test func toAPipeTheTextIsLeftAsSent() {
        let text = "~ count: 0 -> 1" + Self.title
        #expect(WireText(toTerminal: false, colors: true).shown(text) == text)
        #expect(WireText(toTerminal: false, colors: false).shown(text) == text)
    }

    @Test func onATerminalControlCodesAreWrittenOut() {
        #expect(
            WireText(toTerminal: true, colors: false).shown("a" + Self.title + "\u{0}b\tc")
                == #"a\u{1B}]0;owned\u{7}\u{0}b"# + "\tc")
    }

    @Test func colorsPassOnlyWhenAskedForAndOnlyAsColors() {
        let green = "\u{1B}[32m+ tags[0]: \"x\"\u{1B}[0m"
        #expect(WireText(toTerminal: true, colors: true).shown(green) == green)
        #expect(
            WireText(toTerminal: true, colors: false).shown(green) == #"\u{1B}[32m+ tags[0]: "x"\u{1B}[0m"#)
        // An escape that is not a color code (a cursor move, one cut short) is written out.
        #expect(WireText(toTerminal: true, colors: true).shown("\u{1B}[2J\u{1B}[31") == #"\u{1B}[2J\u{1B}[31"#)
        #expect(
            WireText(toTerminal: true, colors: true).shown("\u{1B}[1;31mno\u{1B}]0;t\u{07}")
                == "\u{1B}[1;31mno" + #"\u{1B}]0;t\u{7}"#)
    }
}
