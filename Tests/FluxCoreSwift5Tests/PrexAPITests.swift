import FluxCore
import XCTest

// Written as a Swift 5 app using Prex writes it: no Sendable annotations, a plain class view.

struct CounterState: State, Equatable {
    var count: Int = 0
    var title: String = "counter"
}

enum CounterAction: Action {
    case increment
    case rename(String)
}

struct CounterMutation: Mutation {
    func mutate(action: CounterAction, state: inout CounterState) {
        switch action {
        case .increment: state.count += 1
        case .rename(let title): state.title = title
        }
    }
}

final class CounterView: View {
    var counts: [Int?] = []
    var titles: [String?] = []
    var olds: [CounterState?] = []

    func reflect(change: StateChange<CounterState>) {
        counts.append(change.count?.new)
        titles.append(change.changedProperty(for: \.title)?.value)
        olds.append(change.old)
    }
}

/// Prex's public API beyond its README (SPEC §1): `change.new`/`old`, `presenter.reflect()`,
/// `store.addListener(callback:)`/`removeListener(with:)`, `dispatcher.register(handler:)`.
final class PrexAPITests: XCTestCase {
    func testChangeNamesTheNewAndOldStatesAndValues() {
        let change = StateChange(old: CounterState(count: 1), new: CounterState(count: 2))
        XCTAssertEqual(change.new.count, 2)
        XCTAssertEqual(change.old?.count, 1)
        XCTAssertEqual(change.count?.new, 2)
        XCTAssertEqual(change.count?.old, 1)
        XCTAssertNil(change.title)
    }

    func testForcedReflectionHasNoOldStateAndEveryPropertyChanged() {
        let view = CounterView()
        let presenter = Presenter(view: view, state: CounterState(count: 3), mutation: CounterMutation())
        presenter.reflect()
        XCTAssertEqual(view.counts, [3])
        XCTAssertEqual(view.titles, ["counter"])
        XCTAssertEqual(view.olds, [nil])
        presenter.dispatch(.increment)
        XCTAssertEqual(view.counts, [3, 4])
        XCTAssertEqual(view.titles, ["counter", nil])
        XCTAssertEqual(view.olds.last??.count, 3)
    }

    func testListenersAndLabeledHandlers() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        var heard: [Int] = []
        let listener = flux.store.addListener(callback: { change in heard.append(change.new.count) })
        var handled: [CounterAction] = []
        let handler = flux.dispatcher.register(handler: { action in handled.append(action) })
        flux.dispatcher.dispatch(.increment)
        flux.store.removeListener(with: listener)
        flux.dispatcher.unregister(handler)
        flux.dispatcher.dispatch(.increment)
        XCTAssertEqual(heard, [1])
        XCTAssertEqual(handled.count, 1)
        XCTAssertEqual(flux.store.state.count, 2)
        // The README's trailing closure still means register(_:).
        let plain = flux.dispatcher.register { _ in handled.append(.rename("again")) }
        flux.dispatcher.dispatch(.increment)
        flux.dispatcher.unregister(plain)
        XCTAssertEqual(handled.count, 2)
    }
}
