import FluxStores
import Testing

@_spi(Engine) @testable import FluxShell

/// Small defects found by trying bad input, each fixed and kept fixed.
struct SmallDefectsTests {
    @Test func theDuplicateAliasHintNamesAnAliasThatIsFree() {
        let shell = Transcript()
        shell.run("load counter as x")
        shell.run("load counter as x2")
        #expect(
            shell.run("load counter as x") == [
                "error: a store named 'x' is already loaded (load counter as x3)"
            ])
    }

    @Test func historySaysWhenTheFirstStepsWereUndoneThenReplaced() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch increment")
        shell.run("dispatch increment")
        shell.run("undo 2")
        shell.run("dispatch increment")
        #expect(shell.run("history") == ["     (steps 1-2 were undone, then replaced)", "  3  increment"])
    }

    @Test func aNumberTooSmallForADoubleIsOutOfRangeNotZero() {
        let shell = Transcript()
        shell.run("load counter")
        #expect(shell.run("dispatch add 1e-400") == ["error: number 1e-400 is out of range"])
        #expect(shell.run("dispatch add 0e-400") == ["(no changes)"])
        #expect(shell.run("state count") == ["0"])
    }

    /// An error quotes what was typed; the control characters in it (a terminal's title, a reset)
    /// are written as escapes, never sent to the terminal.
    @Test func anErrorShowsTheControlCharactersItQuotes() {
        let shell = Transcript()
        shell.run("load counter")
        #expect(
            shell.run("dispatch a\u{1B}]0;pwned\u{07}b") == [
                #"error: unknown action 'a\u{1B}]0;pwned\u{7}b' for store 'counter' (type 'actions' for the list)"#
            ])
    }
}
