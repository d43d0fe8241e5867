import FluxCore
import XCTest

final class MiddlewareTests: XCTestCase {
    func testMiddlewarePassesReplacesAndStops() {
        let flux = Flux(state: TodoState(), mutation: TodoMutation())
        flux.dispatcher.use(
            AnyMiddleware(willDispatch: { action, _ in
                switch action {
                case .add("secret"): return .stop
                case .add(let title): return .replace(.add(title.uppercased()))
                default: return .pass
                }
            }))

        flux.dispatcher.dispatch(.add("milk"))
        flux.dispatcher.dispatch(.add("secret"))
        flux.dispatcher.dispatch(.setFilter("done"))

        XCTAssertEqual(flux.store.state.titles, ["MILK"])
        XCTAssertEqual(flux.store.state.filter, "done")
    }

    func testStoppedActionReachesNoLaterMiddlewareNorHandler() {
        let dispatcher = Dispatcher<CounterAction>()
        var log: [String] = []
        dispatcher.use(AnyMiddleware(willDispatch: { _, _ in log.append("one"); return .stop }))
        dispatcher.use(AnyMiddleware(willDispatch: { _, _ in log.append("two"); return .pass }))
        dispatcher.register { _ in log.append("handler") }

        dispatcher.dispatch(.increment)

        XCTAssertEqual(log, ["one"])
    }

    func testRequestResponseFollowUpIsDeliveredAfterTheRequest() {
        let flux = Flux(state: TodoState(), mutation: TodoMutation())
        var log: [String] = []
        flux.dispatcher.use(
            AnyMiddleware(
                willDispatch: { action, _ in log.append("will \(action)"); return .pass },
                didDispatch: { action, dispatcher in
                    log.append("did \(action)")
                    if action == .setFilter("fetch") { dispatcher.dispatch(.add("fetched")) }
                }))

        flux.dispatcher.dispatch(.setFilter("fetch"))

        XCTAssertEqual(flux.store.state.titles, ["fetched"])
        XCTAssertEqual(
            log,
            [
                #"will setFilter("fetch")"#, #"did setFilter("fetch")"#,
                #"will add("fetched")"#, #"did add("fetched")"#,
            ])
    }

    func testFollowUpFromATask() async {
        let flux = Flux(state: TodoState(), mutation: TodoMutation())
        let changes = flux.store.changes
        flux.dispatcher.use(
            AnyMiddleware(didDispatch: { action, dispatcher in
                if action == .setFilter("load") {
                    Task { dispatcher.dispatch(.add("loaded")) }
                }
            }))

        flux.dispatcher.dispatch(.setFilter("load"))

        var titles: [[String]] = []
        for await change in changes {
            titles.append(change.newState.titles)
            if titles.count == 2 { break }
        }
        XCTAssertEqual(titles, [[], ["loaded"]])
    }

    func testAsyncSequenceDeliversChangesInOrder() async {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let changes = flux.store.changes

        flux.dispatcher.dispatch(.increment)
        flux.dispatcher.dispatch(.increment)
        flux.dispatcher.dispatch(.decrement)

        var counts: [Int] = []
        for await change in changes {
            counts.append(change.newState.count)
            if counts.count == 3 { break }
        }
        XCTAssertEqual(counts, [1, 2, 1])
    }
}
