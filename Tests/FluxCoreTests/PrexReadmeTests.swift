import FluxCore
import XCTest

/// The three test patterns and the API examples of the Prex README, as our own tests.
final class PrexReadmeTests: XCTestCase {
    func testPresenterCallsReflectOfViewWhenStateChanged() {
        let view = MockView()
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let presenter = Presenter(view: view, flux: flux)
        var counts: [Int?] = []
        view.refrectParameters = { change in
            counts.append(change.changedProperty(for: \.count)?.value)
        }

        flux.dispatcher.dispatch(.increment)

        XCTAssertEqual(counts, [1])
        XCTAssertEqual(presenter.state.count, 1)
    }

    func testIncrementMethodOfPresenterDispatchesIncrement() {
        let view = MockView()
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let presenter = Presenter(view: view, flux: flux)
        var received: [CounterAction] = []
        let subscription = flux.dispatcher.register { action in
            received.append(action)
        }

        presenter.increment()
        flux.dispatcher.unregister(subscription)
        presenter.increment()

        XCTAssertEqual(received, [.increment])
        XCTAssertEqual(flux.store.state.count, 2)
    }

    func testMutation() {
        var state = CounterState()
        let mutation = CounterMutation()

        mutation.mutate(action: .increment, state: &state)
        XCTAssertEqual(state.count, 1)

        mutation.mutate(action: .decrement, state: &state)
        XCTAssertEqual(state.count, 0)
    }

    func testDynamicMemberLookupReadsTheChangedValue() {
        let view = MockView()
        let presenter = Presenter(view: view, state: CounterState(), mutation: CounterMutation())
        var seen: [ValueChange<Int>] = []
        view.refrectParameters = { change in
            if let count = change.count { seen.append(count) }
        }

        presenter.increment()
        presenter.increment()

        XCTAssertEqual(seen.map(\.value), [1, 2])
        XCTAssertEqual(seen.map(\.oldValue), [0, 1])
    }

    func testPresenterExtensionGuardsDecrementAtZero() {
        let view = MockView()
        let presenter = Presenter(view: view, state: CounterState(), mutation: CounterMutation())
        var reflections = 0
        view.refrectParameters = { _ in reflections += 1 }

        presenter.decrement()
        XCTAssertEqual(presenter.state.count, 0)
        XCTAssertEqual(reflections, 0)

        presenter.increment()
        presenter.decrement()
        XCTAssertEqual(presenter.state.count, 0)
        XCTAssertEqual(reflections, 2)
    }

    func testPresenterSubclass() {
        let view = MockView()
        let presenter = CounterPresenter(view: view)
        var last: Int?
        view.refrectParameters = { last = $0.count?.value }

        presenter.incrementTwice()

        XCTAssertEqual(last, 2)
        XCTAssertEqual(presenter.state.count, 2)
    }

    func testSharedFluxIsInjectedIntoPresenters() {
        let first = MockView()
        let second = MockView()
        let firstPresenter = Presenter(view: first, flux: Flux.shared)
        let secondPresenter = Presenter(view: second, flux: SharedFlux.counter)
        let start = Flux.shared.store.state.count
        var secondSaw: Int?
        second.refrectParameters = { secondSaw = $0.count?.value }

        firstPresenter.increment()

        XCTAssertEqual(secondSaw, start + 1)
        XCTAssertEqual(secondPresenter.state.count, start + 1)
    }

    func testChangedPropertyIsNilForUnchangedValues() {
        let view = TodoView()
        let presenter = Presenter(view: view, state: TodoState(), mutation: TodoMutation())

        presenter.dispatch(.add("milk"))
        presenter.dispatch(.setFilter("done"))

        XCTAssertEqual(view.titles, [["milk"], nil])
        XCTAssertEqual(view.filters, [nil, "done"])
    }

    func testEquatableStateAnnouncesNoChangeWhenNothingChanged() {
        let view = TodoView()
        let presenter = Presenter(view: view, state: TodoState(), mutation: TodoMutation())

        presenter.dispatch(.noop)
        presenter.dispatch(.setFilter("all"))

        XCTAssertEqual(view.reflections, 0)
    }

    func testPresenterHoldsItsViewWeakly() {
        weak var released: MockView?
        var presenter: Presenter<CounterAction, CounterState>?
        do {
            let view = MockView()
            released = view
            presenter = Presenter(view: view, state: CounterState(), mutation: CounterMutation())
        }
        XCTAssertNil(released)
        presenter?.increment()
        XCTAssertEqual(presenter?.state.count, 1)
    }

    func testReleasedPresenterStopsObservingTheSharedStore() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let view = MockView()
        var reflections = 0
        view.refrectParameters = { _ in reflections += 1 }
        var presenter: Presenter<CounterAction, CounterState>? = Presenter(view: view, flux: flux)
        presenter?.increment()
        presenter = nil

        flux.dispatcher.dispatch(.increment)

        XCTAssertEqual(reflections, 1)
        XCTAssertEqual(flux.store.state.count, 2)
    }
}

final class TodoView: View {
    var titles: [[String]?] = []
    var filters: [String?] = []
    var reflections = 0

    func reflect(change: StateChange<TodoState>) {
        reflections += 1
        titles.append(change.titles?.value)
        filters.append(change.filter?.value)
    }
}
