import CustomDump
import FluxCore
import FluxShell
import Foundation
import IdentifiedCollections
import Tagged

/// An app-shaped state (the types of “Printed values” in the reference, 13 members, 10,000 list
/// items), one field of one item changed: FluxShell's typed diff against swift-custom-dump's `diff`
/// (what TCA's `_printChanges` uses), in the same process.
enum DiffBenchmarks {
    struct Item: Equatable {
        var id: Int
        var title: String
        var done: Bool
        var due: Date?
    }

    struct Profile: Equatable {
        var name: String
        var email: String?
    }

    enum Sync: Equatable {
        case idle
        case syncing(since: Date)
        case failed(reason: String, attempts: Int)
    }

    /// Not `Encodable`, not `Equatable`: compared by its bits, printed by its fields.
    struct Session {
        var token: String
        var expires: Date
    }

    struct AppState {
        var items = ChunkedArray((0..<10_000).map { Item(id: $0, title: "item \($0)", done: false, due: nil) })
        var list = (0..<10_000).map { Item(id: $0, title: "item \($0)", done: false, due: nil) }
        var profile = Profile(name: "Ada", email: nil)
        var sync = Sync.failed(reason: "offline", attempts: 2)
        var openedAt = Date(timeIntervalSince1970: 1_795_338_000)
        var tags: Set<String> = ["a", "b", "c"]
        var folders: [Int: String] = [1: "Inbox", 2: "Work"]
        var selected: Int? = 7
        var session = Session(token: "t", expires: Date(timeIntervalSince1970: 0))
        var homepage = URL(string: "https://example.com")!
        var visits = 0
        var rating = 0.5
        var lastError: String?
    }

    static func run() {
        print("\nDiff of one field of one of 10,000 items in a 13-member state (release build)")
        var state = AppState()
        var toggles = 0
        let flux = time("FluxShell, ChunkedArray<Item>, change + diff", iterations: 20_000) {
            let old = state
            state.items[(toggles &* 397) % 10_000].done.toggle()
            toggles += 1
            precondition(ValueDiffer.entries(from: old, to: state).count == 1)
        }
        _ = time("FluxShell, [Item], change + diff", iterations: 2_000) {
            let old = state
            state.list[(toggles &* 397) % 10_000].done.toggle()
            toggles += 1
            precondition(ValueDiffer.entries(from: old, to: state).count == 1)
        }
        let dump = time("swift-custom-dump diff, ChunkedArray<Item>, change + diff", iterations: 20) {
            let old = state
            state.items[(toggles &* 397) % 10_000].done.toggle()
            toggles += 1
            precondition(CustomDump.diff(old, state) != nil)
        }
        print("FluxShell is \(Int(dump / flux))x faster than swift-custom-dump on the same change")
        runIdentified()
    }

    struct Member: Identifiable, Equatable {
        let id: Tagged<Member, UUID>
        var name: String
        var length: Duration
    }

    struct Team {
        var members: IdentifiedArrayOf<Member>
        var plain: [Member]
    }

    /// One member's name changed among 10,000 in an `IdentifiedArrayOf<Member>` (tagged ids, a
    /// `Duration`), against the same change in a plain `[Member]` and swift-custom-dump's `diff`.
    static func runIdentified() {
        print("\nDiff of one name among 10,000 members with tagged ids (release build)")
        let members = (0..<10_000).map { Member(id: .init(UUID()), name: "member \($0)", length: .seconds($0)) }
        var team = Team(members: IdentifiedArrayOf(uniqueElements: members), plain: members)
        var renames = 0
        let identified = time("FluxShell, IdentifiedArrayOf<Member>, change + diff", iterations: 2_000) {
            let old = team
            let id = members[(renames &* 397) % 10_000].id
            team.members[id: id]?.name = "renamed \(renames)"
            renames += 1
            precondition(ValueDiffer.entries(from: old, to: team).count == 1)
        }
        let plain = time("FluxShell, [Member], change + diff", iterations: 2_000) {
            let old = team
            team.plain[(renames &* 397) % 10_000].name = "renamed \(renames)"
            renames += 1
            precondition(ValueDiffer.entries(from: old, to: team).count == 1)
        }
        let dump = time("swift-custom-dump diff, IdentifiedArrayOf<Member>, change + diff", iterations: 10) {
            let old = team
            let id = members[(renames &* 397) % 10_000].id
            team.members[id: id]?.name = "renamed \(renames)"
            renames += 1
            precondition(CustomDump.diff(old, team) != nil)
        }
        print(
            "identified array: \((identified / plain * 100).rounded() / 100)x the plain array; FluxShell \(Int(dump / identified))x faster than swift-custom-dump"
        )
    }

    /// Microseconds per call of `body`, the best of 3 rounds.
    static func time(_ name: String, iterations: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = ContinuousClock.now
            for _ in 0..<iterations { body() }
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds * 1e6 / Double(iterations))
        }
        print(name.padding(to: 64) + "\((best * 10).rounded() / 10) µs/change")
        return best
    }
}
