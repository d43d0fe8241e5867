import FluxCore
import FluxShellFixtures
import Foundation
import IdentifiedCollections
import OrderedCollections
import Tagged
import Testing

@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// An app's store holding the types apps hold, attached to: its actions print, the shell's run
/// in it, and undo puts its values back, as for a store the shell loads itself.
struct LiveEcosystemTests {
    struct Track: Identifiable, Equatable, Sendable {
        var id: Tagged<Track, Int>
        var title: String
    }

    struct SyncFailure: Error, Sendable {}

    enum Phase: Equatable, Sendable {
        case idle
        case playing(since: Date)
    }

    struct PlayerState: State {
        var tracks: IdentifiedArrayOf<Track> = []
        var tags: Set<String> = []
        var recent: OrderedSet<Int> = []
        var selection = IndexSet()
        var elapsed: Duration = .zero
        var link: URL?
        var phase: Phase = .idle
        var failure: (any Error)?
        var extra: any Sendable = 0
    }

    /// A framework's generic wrapper of a feature's actions, as TCA apps nest them.
    enum Wrapped<Child: Sendable>: Sendable {
        case child(Child)
    }

    enum PlayerAction: Action {
        case add(id: Tagged<Track, Int>, title: String)
        case tag(String)
        case select(IndexSet)
        case advance(Duration)
        case open(URL?)
        case play(at: Date)
        case fail
        case feature(Wrapped<Int>)
    }

    struct PlayerMutation: Mutation {
        func mutate(action: PlayerAction, state: inout PlayerState) {
            switch action {
            case .add(let id, let title):
                state.tracks.append(Track(id: id, title: title))
                state.recent.append(id.rawValue)
            case .tag(let tag): state.tags.insert(tag)
            case .select(let selection): state.selection = selection
            case .advance(let by): state.elapsed += by
            case .open(let link): state.link = link
            case .play(let date): state.phase = .playing(since: date)
            case .fail: state.failure = SyncFailure()
            case .feature(.child(let value)): state.extra = value
            }
        }
    }

    @Test func theTypesAppsHoldPrintDiffAndComeBack() throws {
        let flux = Flux(state: PlayerState(), mutation: PlayerMutation())
        let shell = Transcript(session: try Session(attachingTo: [LiveStore(flux, as: "player")], wake: {}))
        flux.dispatcher.dispatch(.add(id: 7, title: "Intro"))
        flux.dispatcher.dispatch(.fail)
        flux.dispatcher.dispatch(.feature(.child(3)))
        var output = OutputBuffer()
        for step in shell.session.takeAppSteps() { Renderer().write(step, to: &output) }
        let lines = output.text.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(3) == [
                "<= add id: 7 title: Intro", #"+ tracks[0]: {"id":7,"title":"Intro"}"#, "+ recent[0]: 7",
            ])
        #expect(lines.contains("<= fail"))
        #expect(lines.contains { $0.hasPrefix("~ failure: null -> ") })
        #expect(lines.contains { $0.hasPrefix("<= feature") })
        #expect(lines.last == "~ extra: 0 -> 3")
        #expect(shell.run("dispatch select [1,3]") == ["+ selection[0]: 1", "+ selection[1]: 3"])
        #expect(shell.run("dispatch advance 1.5") == ["~ elapsed: 0 -> 1.5"])
        #expect(shell.run(#"dispatch open "https://example.com/a""#) == [#"~ link: null -> "https://example.com/a""#])
        #expect(
            shell.run(#"dispatch play at: "2026-11-24T10:00:00Z""#) == [
                #"~ phase: "idle" -> {"playing":{"since":"2026-11-24T10:00:00Z"}}"#
            ])
        #expect(flux.store.state.selection == IndexSet([1, 3]))
        #expect(flux.store.state.link == URL(string: "https://example.com/a"))
        #expect(
            shell.run("undo 4") == [
                "- selection[0]: 1", "- selection[1]: 3", "~ elapsed: 1.5 -> 0",
                #"~ link: "https://example.com/a" -> null"#,
                #"~ phase: {"playing":{"since":"2026-11-24T10:00:00Z"}} -> "idle""#,
                #"(undid step 7: play at: "2026-11-24T10:00:00Z", which this shell dispatched)"#,
                #"(undid step 6: open "https://example.com/a", which this shell dispatched)"#,
                "(undid step 5: advance 1.5, which this shell dispatched)",
                "(undid step 4: select [1,3], which this shell dispatched)",
            ])
        #expect(flux.store.state.selection.isEmpty && flux.store.state.link == nil && flux.store.state.phase == .idle)
        #expect(shell.run("state recent") == ["[7]"])
    }
}
