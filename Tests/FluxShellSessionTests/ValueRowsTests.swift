import FluxCore
import FluxShellFixtures
import Foundation
import IdentifiedCollections
import OrderedCollections
import PropertyBased
import Tagged
import Testing

@testable import FluxShellExplore
@testable import FluxShellJSON
@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// The reference's “Printed values” through a session: the ecosystem's types in a store's state and
/// its actions' arguments, their diffs, paths by identity, `why` and `watch`, and explore's
/// arguments. (The rules on values alone: `PrintedValueRulesTests` in the values' tests.)
struct ValueRowsTests {
    struct Member: Identifiable, Equatable, Sendable {
        let id: Tagged<Member, UUID>
        var name: String
    }

    indirect enum Tree: Equatable, Sendable {
        case leaf(Int)
        case node(Tree, label: String)
    }

    /// A framework's generic action wrapper, as TCA's `PresentationAction` is.
    enum Presentation<Child: Sendable>: Sendable {
        case dismiss
        indirect case presented(Child)
    }

    // MARK: - Through the shell

    struct Planner: State {
        var members: IdentifiedArrayOf<Member> = []
        var length: Duration = .seconds(300)
        var skipped = IndexSet()
        var owner: Tagged<Member, UUID>? = nil
        var notes: Presentation<Tree> = .dismiss
        var distance = Measurement(value: 0, unit: UnitLength.meters)
        var zone = TimeZone(identifier: "UTC")!
    }

    enum PlannerAction: Action {
        case addMember(id: Tagged<Member, UUID>, name: String)
        case rename(id: Tagged<Member, UUID>, name: String)
        case remove(id: Tagged<Member, UUID>)
        case setLength(Duration)
        case skip(IndexSet)
        case replace(IdentifiedArrayOf<Member>)
        case notes(Presentation<Tree>)
        case setDistance(Measurement<UnitLength>)
        case setZone(TimeZone)
    }

    struct PlannerMutation: Mutation, Sendable {
        func mutate(action: PlannerAction, state: inout Planner) {
            switch action {
            case .addMember(let id, let name): state.members.append(Member(id: id, name: name))
            case .rename(let id, let name): state.members[id: id]?.name = name
            case .remove(let id): state.members.remove(id: id)
            case .setLength(let length): state.length = length
            case .skip(let days): state.skipped.formUnion(days)
            case .replace(let members): state.members = members
            case .notes(let notes): state.notes = notes
            case .setDistance(let distance): state.distance = distance
            case .setZone(let zone): state.zone = zone
            }
        }
    }

    static let catalog = StoreCatalog([StoreDefinition("planner", state: Planner(), mutation: PlannerMutation())])

    private func planner() -> Transcript {
        let shell = Transcript(catalog: Self.catalog)
        shell.run("load planner")
        return shell
    }

    static func id(_ number: Int) -> String { String(format: "00000000-0000-0000-0000-%012d", number) }

    @Test func diffsFollowThePrintedForm() {
        let shell = planner()
        #expect(
            shell.run("dispatch addMember id: \(Self.id(1)) name: Blob") == [
                #"+ members[0]: {"id":"\#(Self.id(1))","name":"Blob"}"#
            ])
        shell.run("dispatch addMember id: \(Self.id(2)) name: Jr")
        #expect(
            shell.run("dispatch rename id: \(Self.id(1)) name: Blobby") == [#"~ members[0].name: "Blob" -> "Blobby""#])
        #expect(
            shell.run("dispatch remove id: \(Self.id(1))") == [
                #"- members[0]: {"id":"\#(Self.id(1))","name":"Blobby"}"#
            ])
        #expect(shell.run("dispatch setLength 600") == ["~ length: 300 -> 600"])
        #expect(shell.run("dispatch setLength 0.25") == ["~ length: 600 -> 0.25"])
        #expect(shell.run("dispatch skip [3,1]") == ["+ skipped[0]: 1", "+ skipped[1]: 3"])
        #expect(
            shell.run(#"dispatch notes {"presented":{"_0":{"leaf":{"_0":4}}}}"#) == [
                #"~ notes: "dismiss" -> {"presented":{"_0":{"leaf":{"_0":4}}}}"#
            ])
        #expect(shell.run("history").last == #"  8  notes {"presented":{"_0":{"leaf":{"_0":4}}}}"#)
        #expect(
            shell.run(#"dispatch setDistance {"value":1.5,"unit":"km"}"#) == [
                #"~ distance.value: 0 -> 1.5"#, #"~ distance.unit: "m" -> "km""#,
            ])
        #expect(shell.run(#"dispatch setZone "Europe/Paris""#) == [#"~ zone: "GMT" -> "Europe/Paris""#])
        #expect(
            shell.run(#"dispatch setDistance {"value":1,"unit":"parsec"}"#).first?.hasPrefix(
                "error: argument 1 (at unit) of 'setDistance': expected the symbol of a UnitLength (m, km,") == true)
    }

    /// explore makes arguments of every type with a text form, and each action changes the state.
    @Test func exploreGeneratesEveryEcosystemType() throws {
        var options = Explorer.Options(stores: ["planner"], seed: 3)
        options.runs = 60
        let report = try Explorer(catalog: Self.catalog, options: options).explore()
        #expect(report.failure == nil)
        for row in report.coverage {
            #expect(row.dispatched > 0 && row.notGenerated == nil, "\(row.name) never generated")
            #expect(row.changed > 0, "\(row.name) never changed the state")
        }
    }

    @Test func badValuesAreLocatedErrorsAndChangeNothing() {
        let shell = planner()
        let before = shell.run("state")
        #expect(
            shell.run(#"dispatch setLength "ten""#).first?.hasPrefix(
                "error: argument 1 of 'setLength': expected a number of seconds") == true)
        #expect(shell.run("dispatch skip [-1]").first?.hasPrefix("error: argument 1 (at [0]) of 'skip'") == true)
        #expect(
            shell.run("dispatch addMember id: nope name: x").first?.hasPrefix(
                "error: argument 'id' of 'addMember': expected a UUID") == true)
        #expect(shell.run("state") == before)
        #expect(shell.run("history") == ["(no actions dispatched yet)"])
    }

    @Test func pathsByIdentity() {
        let shell = planner()
        shell.run("dispatch addMember id: \(Self.id(1)) name: Blob")
        shell.run("dispatch addMember id: \(Self.id(2)) name: Jr")
        #expect(shell.run("state members[id: \(Self.id(2))].name") == [#""Jr""#])
        #expect(shell.run(#"state members[id: "\#(Self.id(1))"]"#) == [#"{"id":"\#(Self.id(1))","name":"Blob"}"#])
        #expect(shell.run("expect members[id: \(Self.id(2))].name == Jr") == [])
        #expect(shell.run("state members.count") == ["2"])
        let unknown = shell.run("state members[id: \(Self.id(9))]")
        #expect(unknown.first?.hasPrefix("error: no element of members has the id \"\(Self.id(9))\"") == true)
        #expect(unknown.first?.contains(Self.id(1)) == true)
    }

    @Test func whyAndWatchFollowAnIDToItsElement() {
        let shell = planner()
        shell.run("dispatch addMember id: \(Self.id(1)) name: Blob")
        shell.run("dispatch addMember id: \(Self.id(2)) name: Jr")
        shell.run("dispatch rename id: \(Self.id(2)) name: Junior")
        #expect(
            shell.run("why members[id: \(Self.id(2))].name") == [
                "  2  addMember id: \"\(Self.id(2))\" name: Jr",
                #"     + members[1]: {"id":"\#(Self.id(2))","name":"Jr"}"#,
                "  3  rename id: \"\(Self.id(2))\" name: Junior",
                #"     ~ members[1].name: "Jr" -> "Junior""#,
            ])
        shell.run("watch members[id: \(Self.id(1))]")
        #expect(shell.run("dispatch rename id: \(Self.id(1)) name: B") == [#"~ members[0].name: "Blob" -> "B""#])
    }

    @Test func actionsNameGenericArguments() {
        let lines = planner().run("actions")
        #expect(lines.contains("addMember(id: Tagged<ValueRowsTests.Member, UUID>, name: String)"))
        #expect(lines.contains("notes(Presentation<ValueRowsTests.Tree>)"))
        #expect(lines.contains("replace(IdentifiedArray<Tagged<ValueRowsTests.Member, UUID>, ValueRowsTests.Member>)"))
    }
}
