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
        dispatcher.use(
            AnyMiddleware(willDispatch: { _, _ in
                log.append("one")
                return .stop
            }))
        dispatcher.use(
            AnyMiddleware(willDispatch: { _, _ in
                log.append("two")
                return .pass
            }))
        dispatcher.register { _ in log.append("handler") }

        dispatcher.dispatch(.increment)

        XCTAssertEqual(log, ["one"])
    }

    func testRequestResponseFollowUpIsDeliveredAfterTheRequest() {
        let flux = Flux(state: TodoState(), mutation: TodoMutation())
        var log: [String] = []
        flux.dispatcher.use(
            AnyMiddleware(
                willDispatch: { action, _ in
                    log.append("will \(action)")
                    return .pass
                },
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

        let titles = await first(2, of: changes) { $0.newState.titles }
        XCTAssertEqual(titles, [[], ["loaded"]])
    }

    func testAsyncSequenceDeliversChangesInOrder() async {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let changes = flux.store.changes

        flux.dispatcher.dispatch(.increment)
        flux.dispatcher.dispatch(.increment)
        flux.dispatcher.dispatch(.decrement)

        let counts = await first(3, of: changes) { $0.newState.count }
        XCTAssertEqual(counts, [1, 2, 1])
    }

    /// The first `count` changes of `changes`, or fewer when they do not come within 10 s: a
    /// missing change fails the test instead of hanging it.
    ///
    /// NB: the sleep bounds the wait; it does not wait for the work, which ends the wait as soon
    /// as the changes arrive.
    private func first<S: Sendable, T: Sendable>(
        _ count: Int, of changes: AsyncStream<StateChange<S>>, _ value: @escaping @Sendable (StateChange<S>) -> T
    ) async -> [T] {
        await withTaskGroup(of: [T]?.self) { group in
            group.addTask {
                var values: [T] = []
                for await change in changes {
                    values.append(value(change))
                    if values.count == count { break }
                }
                return values
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? []
        }
    }
}
