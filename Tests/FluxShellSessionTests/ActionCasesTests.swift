import FluxCore
import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellJSON
@testable import FluxShellLive
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// Actions built from text by the runtime's description of the enum (“The command language” and
/// “Printed values” in the reference), for an action enum that is not `Codable`, with every payload
/// shape the shell supports.
struct ActionCasesTests {
    final class Handle: Sendable {}
    enum Speed: Sendable { case fast, slow }
    enum Sort: String, Codable, Sendable {
        case byTitle = "by-title"
        case byDate = "by-date"
    }
    enum Role: String, Sendable {
        case admin = "ADMIN"
        case guest
    }
    enum Level: Int, Sendable {
        case low = 1
        case high
    }
    struct Failure: Error {}

    enum Plain: Action {
        case add(Int)
        case toggle(id: Int)
        case rename(id: Int, title: String)
        case mixed(Int, name: String, note: String?)
        case on(Bool)
        case off(Bool)
        case at(Date)
        case link(URL?)
        case ident(UUID)
        case tags(Set<String>)
        case speed(Speed)
        case maybeSpeed(Speed?)
        case role(Role)
        case level(Level)
        case sort(by: Sort)
        case fail(any Error & Sendable)
        case setError((any Error & Sendable)?)
        case run(@Sendable () -> Void)
        case maybeRun((@Sendable () -> Void)?)
        case handle(Handle)
        indirect case twice(Plain)
        case void(Void)
        case note(String)
        case note(title: String, pinned: Bool)
        case ping
        case pong
        case initial(Character)
        case maybeInitial(Character?)
        case big(UInt64)
        case amount(Decimal)
    }

    struct Log: State {
        var last = ""
        var count = 0
    }

    struct Recorder: Mutation, Sendable {
        func mutate(action: Plain, state: inout Log) {
            state.count += 1
            switch action {
            case .fail(let error), .setError(let error?): state.last = "error \(error)"
            case .run, .maybeRun: state.last = "run"
            case .handle: state.last = "handle"
            default: state.last = String(describing: action)
            }
        }
    }

    static let catalog = StoreCatalog([StoreDefinition("plain", state: Log(), mutation: Recorder())])

    func shell() -> Transcript {
        let shell = Transcript(catalog: Self.catalog)
        shell.run("load plain")
        return shell
    }

    struct Command: Action { var name = "" }
    enum Nothing: Action {}
    struct CommandMutation: Mutation, Sendable {
        func mutate(action: Command, state: inout Log) {}
    }
    struct NothingMutation: Mutation, Sendable {
        func mutate(action: Nothing, state: inout Log) {}
    }

    /// A store whose actions cannot be listed says why, not only that.
    @Test func unlistableActionsSayWhy() {
        let shell = Transcript(
            catalog: StoreCatalog([
                StoreDefinition("commands", state: Log(), mutation: CommandMutation()),
                StoreDefinition("nothing", state: Log(), mutation: NothingMutation()),
            ]))
        shell.run("load commands")
        #expect(
            shell.run("actions") == ["(the actions of 'commands' cannot be listed: its action type is not an enum)"])
        shell.run("load nothing")
        #expect(shell.run("actions") == ["(the actions of 'nothing' cannot be listed: its action enum has no cases)"])
    }

    @Test func everyCaseIsListedWithItsParameterTypes() {
        let lines = shell().run("actions")
        #expect(lines.contains("add(Int)"))
        #expect(lines.contains("toggle(id: Int)"))
        #expect(lines.contains("mixed(Int, name: String, note: String?)"))
        #expect(lines.contains("link(URL?)"))
        #expect(lines.contains("tags(Set<String>)"))
        #expect(lines.contains("speed(Speed)    fast | slow"))
        #expect(lines.contains("maybeSpeed(Speed?)    fast | slow"))
        #expect(lines.contains("role(Role)    ADMIN | guest"))
        #expect(lines.contains("sort(by: Sort)    by-title | by-date"))
        #expect(lines.contains("ping") && lines.contains("pong"))
        // An `any Error` takes a string: the description of the error it makes.
        #expect(lines.contains("fail(any Error)"))
        #expect(lines.contains { $0.hasPrefix("run(") && $0.contains("not dispatchable from text") })
        #expect(lines.contains { $0.hasPrefix("handle(Handle)") && $0.contains("not dispatchable from text") })
        // An indirect case is built in a box of the runtime's, like any other.
        #expect(lines.contains("twice(Plain)"))
        #expect(lines.contains("setError((any Error)?)"))
        // An optional without text form still takes null: not marked.
        #expect(lines.contains { $0.hasPrefix("maybeRun(") && !$0.contains("not dispatchable") })
    }

    @Test(arguments: [
        ("add 5", Plain.add(5)),
        ("toggle id: 3", .toggle(id: 3)),
        ("toggle 3", .toggle(id: 3)),
        (#"rename id: 2 title: "Buy milk""#, .rename(id: 2, title: "Buy milk")),
        (#"rename title: "x" id: 2"#, .rename(id: 2, title: "x")),
        ("mixed 1 name: a", .mixed(1, name: "a", note: nil)),
        ("mixed 1 name: a note: b", .mixed(1, name: "a", note: "b")),
        ("on true", .on(true)),
        ("off true", .off(true)),
        ("off false", .off(false)),
        (#"at "2026-11-22T10:00:00+01:00""#, .at(Date(timeIntervalSince1970: 1_795_338_000))),
        (#"link "https://example.com/a""#, .link(URL(string: "https://example.com/a"))),
        ("link null", .link(nil)),
        ("link", .link(nil)),
        (
            "ident 00000000-0000-0000-0000-000000000001",
            .ident(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        ),
        (#"tags ["a"]"#, .tags(["a"])),
        ("speed slow", .speed(.slow)),
        ("maybeSpeed fast", .maybeSpeed(.fast)),
        ("maybeSpeed null", .maybeSpeed(nil)),
        ("role ADMIN", .role(.admin)),
        ("role admin", .role(.admin)),
        ("role guest", .role(.guest)),
        ("level 2", .level(.high)),
        ("level low", .level(.low)),
        ("sort by: byDate", .sort(by: .byDate)),
        ("sort by: by-date", .sort(by: .byDate)),
        ("setError null", .setError(nil)),
        ("setError", .setError(nil)),
        ("ping", .ping),
        ("pong", .pong),
        ("twice ping", .twice(.ping)),
        (#"twice {"twice":{"_0":{"add":{"_0":3}}}}"#, .twice(.twice(.add(3)))),
        ("void", .void(())),
        ("note hello", .note("hello")),
        ("note title: hi pinned: true", .note(title: "hi", pinned: true)),
        (#"initial "é""#, .initial("é")),
        ("initial 👍🏽", .initial("👍🏽")),
        (#"maybeInitial "x""#, .maybeInitial("x")),
        ("maybeInitial null", .maybeInitial(nil)),
        ("maybeInitial", .maybeInitial(nil)),
        ("big 18446744073709551615", .big(.max)),
        ("big 9223372036854775809", .big(9_223_372_036_854_775_809)),
        ("amount 1.0000000000000001", .amount(Decimal(string: "1.0000000000000001")!)),
        ("amount 0.1", .amount(Decimal(string: "0.1")!)),
    ])
    func textBuildsTheCase(_ arguments: String, _ expected: Plain) {
        let shell = shell()
        shell.run("dispatch " + arguments)
        #expect(shell.run("state last") == [JSONText.compact(.string(String(describing: expected)))])
    }

    @Test(arguments: [
        ("fail 5", "argument 1 of 'fail': expected a string (the error's description), found 5"),
        ("run x", "argument 1 of 'run' cannot be given as text: "),
        ("handle x", "argument 1 of 'handle' cannot be given as text: Handle has no text form"),
        ("setError [1]", "argument 1 of 'setError': expected a string (the error's description), found [1]"),
        ("maybeRun x", "argument 1 of 'maybeRun' cannot be given as text: "),
        ("speed medium", "argument 1 of 'speed': not one of its values: fast, slow"),
        ("role ADMN", "argument 1 of 'role': not one of its values: ADMIN, guest (did you mean 'ADMIN'?)"),
        ("level 3", "argument 1 of 'level': not one of its values: low, high"),
        (
            "sort by: by-dat",
            "argument 'by' of 'sort': not one of its values: by-title, by-date (did you mean 'by-date'?)"
        ),
        ("add x", "argument 1 of 'add': expected a whole number, found \"x\""),
        ("toggle id: 1 id: 2", "argument 'id' is given twice"),
        ("rename id: 1", "'rename' needs its argument 'title' (String)"),
        ("add 1 2", "'add' takes 1 argument, got 2"),
        ("at yesterday", "argument 1 of 'at': expected an ISO 8601 date"),
        ("initial ab", "argument 1 of 'initial': expected one character in quotes"),
        ("big 18446744073709551616", "argument 1 of 'big': number 18446744073709551616 is out of range for UInt64"),
        ("big -1", "argument 1 of 'big': number -1 is out of range for UInt64"),
    ])
    func badTextIsRefusedAndChangesNothing(_ arguments: String, _ message: String) {
        let shell = shell()
        shell.run("dispatch add 1")
        let output = shell.run("dispatch " + arguments)
        #expect(output.count == 1 && output[0].hasPrefix("error: " + message), "\(output)")
        #expect(shell.run("state count") == ["1"])
        #expect(shell.run("state last") == [#""add(1)""#])
    }

    @Test func anUnknownCaseOfAnEnumWithPayloadsNamesItsCases() {
        let shell = Transcript()
        shell.run("load library")
        #expect(
            shell.run(#"dispatch setStatus {"nope":{}}"#) == [
                "error: argument 1 of 'setStatus': not one of its cases: idle, syncing, failed (usage: dispatch setStatus idle)"
            ])
        #expect(shell.run("state status") == [#""idle""#])
    }

    /// An `any Error` takes a string: an error whose description it is.
    @Test func aStringMakesAnError() {
        let shell = shell()
        shell.run("dispatch fail offline")
        #expect(shell.run("state last") == [#""error offline""#])
        shell.run(#"dispatch setError "no network""#)
        #expect(shell.run("state last") == [#""error no network""#])
    }

    @Test func anOptionalWithoutTextFormSaysItTakesOnlyNull() {
        let output = shell().run("dispatch maybeRun x")
        #expect(
            output.first?.hasSuffix(
                "has no text form; it takes only null (dispatch 'maybeRun' from Swift (a test, or an effect))") == true,
            "\(output)")
    }
}

/// Messages for arguments whose inner parts are wrong, and usage hints per parameter type.
struct ArgumentMessageTests {
    @Test func aMissingKeyInsideAPositionalArgumentIsNamed() {
        let shell = Transcript()
        shell.run("load library")
        #expect(
            shell.run(#"dispatch setStatus {"failed":{"reason":"x"}}"#)
                == [
                    "error: 'setStatus' needs argument 1 (at failed.attempts): only optional members may be left out"
                        + " (usage: dispatch setStatus idle)"
                ])
        #expect(shell.run("state status") == [#""idle""#])
    }

    @Test func aDictionaryParameterIsShownAsAnObject() {
        let signature = ActionSignature(
            name: "setFolders", parameters: [.init(label: nil, key: "_0", typeName: "[Int: String]")])
        #expect(signature.usage == "dispatch setFolders {}")
        let list = ActionSignature(name: "tag", parameters: [.init(label: nil, key: "_0", typeName: "[String]")])
        #expect(list.usage == "dispatch tag []")
        let nested = ActionSignature(
            name: "rows", parameters: [.init(label: nil, key: "_0", typeName: "[[String: Int]]")])
        #expect(nested.usage == "dispatch rows []")
    }
}

/// History, `save` and JSON show an action's arguments as their values print (“Printed values” in
/// the reference).
struct PrintedInvocationTests {
    @Test func historyShowsArgumentsAsTheyPrint() {
        let shell = Transcript(catalog: ActionCasesTests.catalog)
        shell.run("load plain")
        shell.run(#"dispatch at "2026-11-22T10:00:00+01:00""#)
        shell.run(#"dispatch tags ["b","a","b"]"#)
        shell.run(#"dispatch rename title: "x" id: 2"#)
        shell.run("dispatch add 2.0")
        shell.run("dispatch mixed 1 name: a")
        #expect(
            shell.run("history") == [
                #"  1  at "2026-11-22T09:00:00Z""#,
                #"  2  tags ["a","b"]"#,
                "  3  rename title: x id: 2",
                "  4  add 2",
                "  5  mixed 1 name: a",
            ])
    }
}

/// An effect's follow-up actions reach their own store as the effect made them.
struct FollowUpTests {
    static let catalog = StoreCatalog([
        StoreDefinition(
            "effects", state: ActionCasesTests.Log(), mutation: ActionCasesTests.Recorder(),
            effect: { action, _ in
                guard case .ping = action else { return [] }
                return [.fail(ActionCasesTests.Failure()), .at(Date(timeIntervalSince1970: 0.0004))]
            })
    ])

    @Test func followUpsWithoutTextFormOrWithSubMillisecondsArriveTyped() {
        let shell = Transcript(catalog: Self.catalog)
        shell.run("load effects")
        let lines = shell.run("dispatch ping")
        #expect(lines.contains { $0.hasPrefix("=> fail") }, "\(lines)")
        #expect(lines.contains(#"=> at "1970-01-01T00:00:00Z""#), "\(lines)")
        #expect(shell.run("state count") == ["3"])
        let expected = String(describing: ActionCasesTests.Plain.at(Date(timeIntervalSince1970: 0.0004)))
        #expect(shell.run("state last") == [JSONText.compact(.string(expected))])
    }
}

/// A struct argument is its object form (docs/reference.md, Printed values): optional members may
/// be left out and are `nil`; members with a default value must be given (the runtime does not
/// know a default); the usage line is an example that reads back.
struct StructArgumentTests {
    struct Address: Sendable, Equatable {
        var street: String
        var city: String?
    }

    struct Customer: Sendable, Equatable {
        var name: String
        var address: Address?
        var note: String?
        var vip = false
    }

    struct CodableCustomer: Codable, Sendable, Equatable {
        var name: String
        var address: String?
        var visits: Int
    }

    enum Shop: Action {
        case setCustomer(Customer)
        case setCodable(CodableCustomer)
        case relocate(to: Address)
    }

    struct Desk: State {
        var customer: Customer? = nil
        var codable: CodableCustomer? = nil
        var address: Address? = nil
    }

    struct Clerk: Mutation, Sendable {
        func mutate(action: Shop, state: inout Desk) {
            switch action {
            case .setCustomer(let customer): state.customer = customer
            case .setCodable(let customer): state.codable = customer
            case .relocate(let address): state.address = address
            }
        }
    }

    func shell() -> Transcript {
        let shell = Transcript(catalog: StoreCatalog([StoreDefinition("shop", state: Desk(), mutation: Clerk())]))
        shell.run("load shop")
        return shell
    }

    @Test func optionalMembersMayBeLeftOut() {
        let shell = shell()
        #expect(
            shell.run(#"dispatch setCustomer {"name":"Bob","vip":true}"#)
                == [#"~ customer: null -> {"name":"Bob","address":null,"note":null,"vip":true}"#])
        #expect(
            shell.run(#"dispatch setCustomer {"name":"Ann","vip":false,"address":{"street":"Main"}}"#)
                == [
                    #"~ customer.name: "Bob" -> "Ann""#, #"~ customer.address: null -> {"street":"Main","city":null}"#,
                    "~ customer.vip: true -> false",
                ])
        #expect(
            shell.run(#"dispatch setCodable {"name":"Cy","visits":2}"#)
                == [#"~ codable: null -> {"name":"Cy","address":null,"visits":2}"#])
    }

    @Test func aMemberWithADefaultMustBeGivenAndTheErrorSaysHow() {
        let shell = shell()
        #expect(
            shell.run(#"dispatch setCustomer {"name":"Bob"}"#) == [
                "error: 'setCustomer' needs argument 1 (at vip): only optional members may be left out"
                    + #" (usage: dispatch setCustomer {"name":"text","vip":true})"#
            ])
        #expect(
            shell.run(#"dispatch relocate to: {"city":"Paris"}"#) == [
                "error: 'relocate' needs argument 'to.street': only optional members may be left out"
                    + #" (usage: dispatch relocate to: {"street":"text"})"#
            ])
        #expect(shell.run("state") == self.shell().run("state"))
    }

    /// The usage line of every case reads back: dispatching it is no error.
    @Test(arguments: ["setCustomer", "setCodable", "relocate"])
    func theUsageLineIsAValidExample(_ name: String) throws {
        let shell = shell()
        let line = try #require(shell.session.catalog["shop"]?.actions.first { $0.name == name }?.usage)
        let output = shell.run(line)
        #expect(output.first?.hasPrefix("error") == false, "\(line): \(output)")
    }
}
