import FluxCore
import FluxShellFixtures
import OrderedCollections
import Testing

@testable import FluxShellJSON
@testable import FluxShellLive
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// A dictionary's keys in paths (docs/reference.md, Paths): `Dictionary` and `OrderedDictionary`
/// both print their keys as `budget["zeta"]`, typed either way; `.count` is always the count.
struct DictionaryPathTests {
    struct Ledger: State {
        var budget: OrderedDictionary<String, Int> = ["alpha": 1]
        var quantities: [String: Int] = ["count": 7, "pears": 2]
        var hours = Hours()
    }

    struct Hours: Equatable {
        var open = 8
        var count = 1
    }

    enum Change: Action {
        case plan(String, Int)
        case stock(String, Int)
        case drop(String)
    }

    struct Book: Mutation, Sendable {
        func mutate(action: Change, state: inout Ledger) {
            switch action {
            case .plan(let name, let amount): state.budget[name] = amount
            case .stock(let name, let amount): state.quantities[name] = amount
            case .drop(let name):
                state.budget[name] = nil
                state.quantities[name] = nil
            }
        }
    }

    func shell() -> Transcript {
        let shell = Transcript(
            catalog: StoreCatalog([StoreDefinition("ledger", state: Ledger(), mutation: Book())]))
        shell.run("load ledger")
        return shell
    }

    @Test func bothDictionariesPrintTheirKeysAsKeys() {
        let shell = shell()
        #expect(shell.run("dispatch plan zeta 3") == [#"+ budget["zeta"]: 3"#])
        #expect(shell.run("dispatch plan zeta 4") == [#"~ budget["zeta"]: 3 -> 4"#])
        #expect(shell.run("dispatch stock apples 5") == [#"+ quantities["apples"]: 5"#])
        #expect(shell.run("dispatch stock count 8") == [#"~ quantities["count"]: 7 -> 8"#])
        #expect(shell.run("dispatch drop alpha") == [#"- budget["alpha"]: 1"#])
        // An ordered dictionary of one key that becomes another is a removal and an insertion,
        // not one change of the whole (as an enum that moves to another case is).
        #expect(shell.run("dispatch drop zeta") == [#"- budget["zeta"]: 4"#])
        shell.run("dispatch plan a 1")
        #expect(shell.run("dispatch plan b 2").first == #"+ budget["b"]: 2"#)
    }

    @Test func keysReadEitherWayAndCountIsAlwaysTheCount() {
        let shell = shell()
        shell.run("dispatch plan zeta 3")
        #expect(shell.run(#"state budget["zeta"]"#) == ["3"])
        #expect(shell.run("state budget.zeta") == ["3"])
        #expect(shell.run("state budget.count") == ["2"])
        // The key "count" and the count: `["count"]` is the key, `.count` the count.
        #expect(shell.run(#"state quantities["count"]"#) == ["7"])
        #expect(shell.run("state quantities.count") == ["2"])
        #expect(shell.run(#"expect quantities["count"] == 7"#) == [])
        #expect(shell.run("expect quantities.count == 2") == [])
        #expect(shell.run(#"expect budget["zeta"] == $budget.zeta"#) == [])
        // A struct's own `count` member is the member.
        #expect(shell.run("state hours.count") == ["1"])
        #expect(shell.run(#"state hours["open"]"#) == ["8"])
    }

    @Test func aKeyThatIsNotThereIsALocatedErrorThatChangesNothing() {
        let shell = shell()
        #expect(
            shell.run(#"state budget["count"]"#) == [
                "error: no key 'count' in budget (budget.count is its number of keys)"
            ])
        #expect(
            shell.run(#"state quantities["pear"]"#) == ["error: no key 'pear' in quantities (did you mean 'pears'?)"])
        #expect(shell.run("state") == self.shell().run("state"))
    }

    @Test func watchAndWhyFollowAKeyWrittenEitherWay() {
        let shell = shell()
        #expect(shell.run(#"watch budget["omega"]"#) == [])
        #expect(shell.run("dispatch stock kiwis 1") == ["(1 more change)"])
        #expect(shell.run("dispatch plan omega 9") == [#"+ budget["omega"]: 9"#])
        shell.run("unwatch")
        shell.run("dispatch stock count 8")
        #expect(
            shell.run(#"why quantities["count"]"#) == ["  3  stock count 8", #"     ~ quantities["count"]: 7 -> 8"#])
        #expect(shell.run("why quantities.count") == ["  1  stock kiwis 1", #"     + quantities["kiwis"]: 1"#])
    }

    @Test(arguments: [#"budget["zeta"]"#, #"quantities["count"]"#, "quantities.count", #"a["b c"].d[0]"#])
    func printedPathsParseBack(_ text: String) throws {
        let path = try ValuePath.parse(text[...])
        #expect(path.description == text)
        #expect(try ValuePath.parse(path.description[...]) == path)
    }

    /// The same place, however its key is written; `.count` of a dictionary only is its count.
    @Test func aKeyNamesOnePlaceWhicheverWayItIsWritten() throws {
        #expect(try ValuePath.parse("budget.zeta") == ValuePath.parse(#"budget["zeta"]"#))
        let printed = ValueReader.read(Ledger())
        #expect(try ValuePath.parse("quantities.count").lookup(in: printed) == .int(2))
        #expect(try ValuePath.parse(#"quantities["count"]"#).lookup(in: printed) == .int(7))
        #expect(ValueReader().read(Ledger(), at: try ValuePath.parse("quantities.count").segments[...]) == .int(2))
        #expect(
            ValueReader().read(Ledger(), at: try ValuePath.parse(#"quantities["count"]"#).segments[...]) == .int(7))
    }
}
