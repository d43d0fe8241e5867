import Dispatch
import FluxCore
import XCTest

final class DispatcherTests: XCTestCase {
    func testHandlersRunInRegistrationOrder() {
        let dispatcher = Dispatcher<CounterAction>()
        var calls: [String] = []
        for name in ["a", "b", "c", "d"] {
            dispatcher.register { _ in calls.append(name) }
        }

        dispatcher.dispatch(.increment)

        XCTAssertEqual(calls, ["a", "b", "c", "d"])
    }

    func testBetweenDeliveriesHoldsOffAnotherThreadsAction() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let delivered = DispatchSemaphore(value: 0)
        let dispatcher = flux.dispatcher
        let seen = flux.dispatcher.betweenDeliveries { () -> Int in
            DispatchQueue.global().async {
                dispatcher.dispatch(.increment)
                delivered.signal()
            }
            // NB: a bound, not a wait for work: the other thread's action must not be delivered
            // while the closure runs, however long it runs.
            XCTAssertEqual(delivered.wait(timeout: .now() + 0.2), .timedOut)
            return flux.store.state.count
        }
        XCTAssertEqual(seen, 0)
        delivered.wait()
        XCTAssertEqual(flux.store.state.count, 1)
    }

    func testBetweenDeliveriesFromAHandlerRunsAtOnce() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        var counts: [Int] = []
        flux.dispatcher.register { [dispatcher = flux.dispatcher, store = flux.store] _ in
            dispatcher.betweenDeliveries { counts.append(store.state.count) }
        }
        flux.dispatcher.dispatch(.increment)
        flux.dispatcher.dispatch(.increment)
        XCTAssertEqual(counts, [1, 2])
    }

    func testUnregisterReleasesTheHandler() {
        let dispatcher = Dispatcher<CounterAction>()
        weak var released: Recorder<CounterAction>?
        var subscription: Subscription<CounterAction>?
        do {
            let recorder = Recorder<CounterAction>()
            released = recorder
            subscription = dispatcher.register { recorder.append($0) }
        }
        XCTAssertNotNil(released)

        dispatcher.unregister(subscription!)

        XCTAssertNil(released)
        XCTAssertEqual(dispatcher.handlerCount, 0)
    }

    func testActionDispatchedDuringDeliveryIsQueuedNotRecursive() {
        let dispatcher = Dispatcher<TodoAction>()
        var log: [String] = []
        dispatcher.register { action in
            log.append("first \(action)")
            if action == .add("request") { dispatcher.dispatch(.add("response")) }
        }
        dispatcher.register { action in log.append("second \(action)") }

        dispatcher.dispatch(.add("request"))

        XCTAssertEqual(
            log,
            [
                #"first add("request")"#, #"second add("request")"#,
                #"first add("response")"#, #"second add("response")"#,
            ])
    }

    func testIsDeliveringFollowUpHoldsOnlyForQueuedActions() {
        let dispatcher = Dispatcher<TodoAction>()
        var log: [String] = []
        dispatcher.use(
            AnyMiddleware(
                willDispatch: { action, dispatcher in
                    log.append("will \(action) \(dispatcher.isDeliveringFollowUp)")
                    return .pass
                },
                didDispatch: { action, dispatcher in
                    log.append("did \(action) \(dispatcher.isDeliveringFollowUp)")
                    if action == .add("request") { dispatcher.dispatch(.add("response")) }
                }))
        dispatcher.register { action in
            log.append("handler \(action) \(dispatcher.isDeliveringFollowUp)")
            if action == .add("response") { dispatcher.dispatch(.noop) }
        }

        dispatcher.dispatch(.add("request"))
        XCTAssertFalse(dispatcher.isDeliveringFollowUp)
        dispatcher.dispatch(.setFilter("done"))

        XCTAssertEqual(
            log,
            [
                #"will add("request") false"#, #"handler add("request") false"#, #"did add("request") false"#,
                #"will add("response") true"#, #"handler add("response") true"#, #"did add("response") true"#,
                "will noop true", "handler noop true", "did noop true",
                #"will setFilter("done") false"#, #"handler setFilter("done") false"#,
                #"did setFilter("done") false"#,
            ])
        XCTAssertFalse(dispatcher.isDeliveringFollowUp)
    }

    func testHandlerUnregisteredDuringDeliverySeesNoLaterAction() {
        let dispatcher = Dispatcher<CounterAction>()
        var log: [String] = []
        var second: Subscription<CounterAction>?
        dispatcher.register { _ in
            log.append("first")
            if let second { dispatcher.unregister(second) }
        }
        second = dispatcher.register { _ in log.append("second") }
        dispatcher.register { _ in log.append("third") }

        dispatcher.dispatch(.increment)
        dispatcher.dispatch(.increment)

        XCTAssertEqual(log, ["first", "third", "first", "third"])
        XCTAssertEqual(dispatcher.handlerCount, 2)
    }

    func testHandlerRegisteredDuringDeliverySeesTheNextAction() {
        let dispatcher = Dispatcher<CounterAction>()
        var log: [String] = []
        var registered = false
        dispatcher.register { _ in
            log.append("first")
            if !registered {
                registered = true
                dispatcher.register { _ in log.append("late") }
            }
        }

        dispatcher.dispatch(.increment)
        dispatcher.dispatch(.increment)

        XCTAssertEqual(log, ["first", "late", "first", "late"])
    }

    func testSeveralStoresShareOneDispatcher() {
        let dispatcher = Dispatcher<CounterAction>()
        let left = Flux(state: CounterState(), mutation: CounterMutation(), dispatcher: dispatcher)
        let right = Flux(state: CounterState(), mutation: CounterMutation(), dispatcher: dispatcher)

        dispatcher.dispatch(.increment)
        right.dispatcher.dispatch(.increment)

        XCTAssertEqual(left.store.state.count, 2)
        XCTAssertEqual(right.store.state.count, 2)
    }

    func testConcurrentDispatchLosesDuplicatesAndReordersNothing() {
        let threads = 8
        let perThread = 10_000
        let dispatcher = Dispatcher<Tagged>()
        let recorder = Recorder<Tagged>()
        let flux = Flux(state: CounterState(), mutation: TaggedMutation(), dispatcher: dispatcher)
        dispatcher.register { recorder.append($0) }

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for sequence in 0..<perThread {
                dispatcher.dispatch(Tagged(thread: thread, sequence: sequence))
            }
        }

        let items = recorder.items
        XCTAssertEqual(items.count, threads * perThread)
        XCTAssertEqual(flux.store.state.count, threads * perThread)
        for thread in 0..<threads {
            let sequences = items.filter { $0.thread == thread }.map(\.sequence)
            XCTAssertEqual(sequences, Array(0..<perThread), "thread \(thread) lost or reordered")
        }
    }

    func testConcurrentReadersSeeWholeStates() {
        let flux = Flux(state: TodoState(), mutation: TodoMutation())
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for index in 0..<2_000 {
                if worker == 0 {
                    flux.dispatcher.dispatch(.add("\(index)"))
                } else {
                    let titles = flux.store.state.titles
                    XCTAssertEqual(titles.last, titles.isEmpty ? nil : "\(titles.count - 1)")
                }
            }
        }
        XCTAssertEqual(flux.store.state.titles.count, 2_000)
    }
}

struct Tagged: Action, Equatable {
    var thread: Int
    var sequence: Int
}

struct TaggedMutation: Mutation {
    func mutate(action: Tagged, state: inout CounterState) {
        state.count += 1
    }
}
