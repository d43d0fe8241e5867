import FluxShellFixtures
import FluxStores
import Foundation
import Testing

@testable import FluxShellJSON
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

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

    /// The built-in counter wraps around past `Int.max` and `Int.min`, as the reference says.
    @Test func theCounterWrapsAroundAsTheReferenceSays() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch set 9223372036854775807")
        #expect(shell.run("dispatch increment") == ["~ count: 9223372036854775807 -> -9223372036854775808"])
        #expect(shell.run("dispatch add -1") == ["~ count: -9223372036854775808 -> 9223372036854775807"])
    }

    /// A dispatch that changes nothing is a step, as the reference says: listed, saved, undone.
    @Test func aDispatchThatChangesNothingIsAStep() {
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch increment")
        #expect(shell.run("dispatch add 0") == ["(no changes)"])
        #expect(shell.run("history") == ["  1  increment", "  2  add 0"])
        #expect(shell.run("undo") == ["(no changes)"])
        #expect(shell.run("undo") == ["~ count: 1 -> 0"])
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

/// Two spellings of one letter in Unicode (`"é"` and `"e\u{301}"`) print as different bytes, so
/// the shell tells them apart, as the diff, `expect` and a replay read them.
struct UnicodeSpellingTests {
    @Test func anotherSpellingOfTheSameLetterIsAChange() {
        let shell = Transcript()
        shell.run("load todos")
        shell.run(#"dispatch add title: "\u00e9""#)
        #expect(shell.run(#"dispatch rename id: 1 title: "e\u0301""#) == ["~ todos[0].title: \"é\" -> \"e\u{301}\""])
        #expect(shell.run(#"expect todos[0].title == "e\u0301""#) == [])
        #expect(
            shell.run(#"expect todos[0].title == "\u00e9""#) == [
                "error: expectation failed: todos[0].title == \"é\" (actual: \"e\u{301}\")"
            ])
    }

    @Test func printedValuesCompareByTheirBytes() {
        #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(JSONValue.string("\u{E9}") == .string("\u{E9}"))
        #expect(JSONValue.array([.string("a\u{E9}")]) != .array([.string("ae\u{301}")]))
    }

    struct Note: Equatable {
        var title: String
        var letter: Character
        var body: Substring
    }

    /// Whatever `==` says: it takes the two spellings as equal, and an app's own may compare ids.
    struct Tagged: Equatable {
        var id: Int
        var name: String
        static func == (lhs: Tagged, rhs: Tagged) -> Bool { lhs.id == rhs.id }
    }

    @Test func theTypedDiffSeesEachSpelling() {
        let before = Note(title: "caf\u{E9}", letter: "\u{E9}", body: "\u{E9}t\u{E9}")
        let after = Note(title: "cafe\u{301}", letter: "e\u{301}", body: "e\u{301}t\u{E9}")
        #expect(
            ValueDiffer.entries(from: before, to: after).map(\.line) == [
                "~ title: \"café\" -> \"cafe\u{301}\"",
                "~ letter: \"é\" -> \"e\u{301}\"",
                "~ body: \"été\" -> \"e\u{301}té\"",
            ])
        #expect(ValueDiffer.entries(from: before, to: before).isEmpty)
    }

    @Test func aChangeThatAnAppsEqualityIgnoresIsShown() {
        #expect(
            ValueDiffer.entries(from: [Tagged(id: 1, name: "a")], to: [Tagged(id: 1, name: "b")]).map(\.line) == [
                "~ [0].name: \"a\" -> \"b\""
            ])
    }
}

/// An argument that is none of an enum's cases names them all, payload or not.
struct EnumArgumentTests {
    enum Checkout: Equatable, Sendable {
        case browsing
        case paying(amount: Int)
        case done(receipt: String)
    }

    enum ShopAction: Sendable {
        case setCheckout(Checkout)
    }

    static let shop = StoreDefinition(
        "shop", state: Checkout.browsing,
        reduce: { (state: inout Checkout, action: ShopAction) -> Void in
            if case .setCheckout(let checkout) = action { state = checkout }
        })

    @Test func aCaseNameThatIsNoneOfThemListsTheCases() {
        let shell = Transcript(catalog: StoreCatalog([Self.shop]))
        shell.run("load shop")
        let lines = shell.run("dispatch setCheckout payin")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("not one of its values: paying, done, browsing") == true, "\(lines)")
        #expect(lines.first?.contains("did you mean 'paying'?") == true, "\(lines)")
        #expect(
            shell.run(#"dispatch setCheckout {"paying":{"amount":3}}"#) == [
                #"~ .: "browsing" -> {"paying":{"amount":3}}"#
            ])
    }
}

/// A `URL` argument is text that is a URL as written: what Foundation would have to encode first
/// is refused, at its argument, and changes nothing.
struct URLArgumentTests {
    @Test func textThatIsNotAURLIsRefused() {
        let shell = Transcript()
        shell.run("load library")
        let refused = shell.run(#"dispatch add title: "a" added: "2026-01-01T00:00:00Z" link: "not a url with spaces""#)
        #expect(refused.count == 1)
        #expect(
            refused.first?.hasPrefix("error: argument 'link' of 'add': expected a URL string") == true, "\(refused)")
        #expect(refused.first?.contains(#"found "not a url with spaces""#) == true, "\(refused)")
        #expect(shell.run("state books.count") == ["0"])
        let added = shell.run(
            #"dispatch add title: "a" added: "2026-01-01T00:00:00Z" link: "https://example.com/a%20b?q=1""#)
        #expect(added.first?.contains(#""link":"https://example.com/a%20b?q=1""#) == true, "\(added)")
    }
}

/// `save` counts the commands that changed state; one that printed `(no changes)` is saved, since
/// it replays, but not counted.
struct SaveCountTests {
    @Test func aCommandThatChangedNothingIsNotCounted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("save-count-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let shell = Transcript()
        shell.run("load counter")
        shell.run("dispatch increment")
        #expect(shell.run("dispatch set 1") == ["(no changes)"])
        let file = folder.appendingPathComponent("s.scenario").path
        #expect(shell.run("save \(file)") == ["saved 1 state-changing command to \(file)"])
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("dispatch set 1\n"))
    }
}

struct HelpWidthTests {
    /// `help` fits a terminal of 120 columns: one line a command.
    @Test func everyLineOfHelpFits120Columns() {
        let lines = Transcript().run("help")
        #expect(lines.count > 20)
        #expect(lines.filter { $0.count > 120 } == [])
    }
}
