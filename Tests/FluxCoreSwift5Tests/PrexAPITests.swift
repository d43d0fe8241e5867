import Dispatch
import FluxCore
import Foundation
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

/// Prex's public API beyond its README (“FluxCore” in the reference): `change.new`/`old`,
/// `presenter.reflect()`, `store.addListener(callback:)`/`removeListener(with:)`,
/// `dispatcher.register(handler:)`.
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

/// Prex's type names as its users spell them in declarations (“FluxCore” in the reference).
final class CountingPresenter: Presenter<CounterAction, CounterState> {
    // An override of `state`, as a Prex subclass writes it: the view sees what it returns.
    override var state: CounterState {
        var state = super.state
        state.title = "\(state.title) (\(state.count))"
        return state
    }
}

final class PrexTypeNameTests: XCTestCase {
    func testSubscriptionsAreGenericOverWhatTheySubscribeTo() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        var heard = 0
        let listener: Subscription<CounterState> = flux.store.addListener(callback: { _ in heard += 1 })
        let handler: Subscription<CounterAction> = flux.dispatcher.register(handler: { _ in heard += 10 })
        flux.dispatcher.dispatch(.increment)
        flux.store.removeListener(with: listener)
        flux.dispatcher.unregister(handler)
        flux.dispatcher.dispatch(.increment)
        XCTAssertEqual(heard, 11)
        XCTAssertEqual(flux.store.state.count, 2)
    }

    func testChangedPropertyIsAPropertyChange() {
        let change = StateChange(old: CounterState(count: 1), new: CounterState(count: 2))
        let count: StateChange<CounterState>.PropertyChange<Int>? = change.changedProperty(for: \.count)
        XCTAssertEqual(count?.value, 2)
        let title: StateChange<CounterState>.PropertyChange<String>? = change.title
        XCTAssertNil(title)
    }

    func testAPresenterSubclassOverridesState() {
        let view = CounterView()
        let presenter = CountingPresenter(view: view, state: CounterState(count: 2), mutation: CounterMutation())
        XCTAssertEqual(presenter.state.title, "counter (2)")
        presenter.reflect()
        XCTAssertEqual(view.titles, ["counter (2)"])
    }
}

/// As in Prex, a store listens to its dispatcher for as long as the store lives (“FluxCore” in the
/// reference).
final class StoreLifetimeTests: XCTestCase {
    final class Tally {
        var mutations = 0
    }

    /// A mutation holding an object, to see when the mutation is released.
    struct CountingMutation: Mutation {
        final class Box {
            let tally: Tally
            init(tally: Tally) { self.tally = tally }
        }
        let box: Box

        func mutate(action: CounterAction, state: inout CounterState) {
            box.tally.mutations += 1
            CounterMutation().mutate(action: action, state: &state)
        }
    }

    func testAStoreKeptWithoutItsFluxSeesEveryAction() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let store = flux.store
        let dispatcher = flux.dispatcher
        var heard: [Int] = []
        let listener = store.addListener(callback: { heard.append($0.new.count) })
        // NB: declared, then assigned: `weak let` needs Swift 6.2, and the package builds from 6.1.
        weak var releasedFlux: Flux<CounterAction, CounterState>?
        releasedFlux = flux
        _ = consume flux
        XCTAssertNil(releasedFlux)

        dispatcher.dispatch(.increment)
        dispatcher.dispatch(.increment)

        XCTAssertEqual(store.state.count, 2)
        XCTAssertEqual(heard, [1, 2])
        store.removeListener(with: listener)
    }

    func testAStoreThatIsGoneMutatesNothingAndReleasesItsMutation() {
        let dispatcher = Dispatcher<CounterAction>()
        let tally = Tally()
        weak var releasedStore: Store<CounterState>?
        weak var releasedMutation: CountingMutation.Box?
        do {
            let box = CountingMutation.Box(tally: tally)
            releasedMutation = box
            let flux = Flux(state: CounterState(), mutation: CountingMutation(box: box), dispatcher: dispatcher)
            releasedStore = flux.store
            dispatcher.dispatch(.increment)
            XCTAssertEqual(dispatcher.handlerCount, 1)
        }
        XCTAssertNil(releasedStore)
        XCTAssertNil(releasedMutation)
        XCTAssertEqual(dispatcher.handlerCount, 0)

        dispatcher.dispatch(.increment)

        XCTAssertEqual(tally.mutations, 1)
    }

    func testARecorderLikeMiddlewareHoldingTheStoreLeaksNothing() {
        // A middleware that holds the store (as a recorder does) lives in the dispatcher.
        struct Holding: Middleware {
            let store: Store<CounterState>
            func willDispatch(_ action: CounterAction, on dispatcher: Dispatcher<CounterAction>)
                -> MiddlewareDecision<CounterAction>
            { .pass }
        }
        weak var releasedStore: Store<CounterState>?
        weak var releasedDispatcher: Dispatcher<CounterAction>?
        do {
            let flux = Flux(state: CounterState(), mutation: CounterMutation())
            flux.dispatcher.use(Holding(store: flux.store))
            flux.dispatcher.dispatch(.increment)
            releasedStore = flux.store
            releasedDispatcher = flux.dispatcher
        }
        XCTAssertNil(releasedDispatcher)
        XCTAssertNil(releasedStore)
    }

    func testAStoreReleasedByItsOwnObserverDuringDeliveryLeavesTheDispatcher() {
        let dispatcher = Dispatcher<CounterAction>()
        var kept: Store<CounterState>? = Flux(
            state: CounterState(), mutation: CounterMutation(), dispatcher: dispatcher
        ).store
        weak var releasedStore: Store<CounterState>?
        releasedStore = kept
        var counts: [Int] = []
        kept?.observe { change in
            counts.append(change.new.count)
            kept = nil  // the last reference, dropped while the dispatcher delivers
        }
        dispatcher.dispatch(.increment)
        XCTAssertNil(releasedStore)
        XCTAssertEqual(dispatcher.handlerCount, 0)
        dispatcher.dispatch(.increment)
        XCTAssertEqual(counts, [1])
    }

    func testReplacingTheStateReflectsAsAnyChange() {
        // What a shell attached to the app does for undo, redo and reset.
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let view = CounterView()
        let presenter = Presenter(view: view, flux: flux, executor: .immediate)
        var heard: [Int] = []
        let listener = flux.store.addListener(callback: { heard.append($0.new.count) })
        presenter.dispatch(.increment)

        let change = flux.store.replace(with: CounterState(count: 7, title: "restored"))

        XCTAssertEqual(change?.old?.count, 1)
        XCTAssertEqual(view.counts, [1, 7])
        XCTAssertEqual(view.titles, [nil, "restored"])
        XCTAssertEqual(heard, [1, 7])
        // An equal state announces nothing.
        XCTAssertNil(flux.store.replace(with: CounterState(count: 7, title: "restored")))
        XCTAssertEqual(view.counts, [1, 7])
        flux.store.removeListener(with: listener)
    }

    func testAReleasedPresenterReflectsNothingMore() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        let view = CounterView()
        var presenter: Presenter? = Presenter(view: view, flux: flux, executor: .immediate)
        presenter?.dispatch(.increment)
        presenter = nil

        flux.dispatcher.dispatch(.increment)

        XCTAssertEqual(view.counts, [1])
        XCTAssertEqual(flux.store.state.count, 2)
    }

    func testStoresReleasedWhileAnotherThreadDispatches() {
        let dispatcher = Dispatcher<CounterAction>()
        let keeper = Flux(state: CounterState(), mutation: CounterMutation(), dispatcher: dispatcher)
        let rounds = 2_000
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for _ in 0..<rounds {
                if thread == 0 {
                    dispatcher.dispatch(.increment)
                } else {
                    let flux = Flux(state: CounterState(), mutation: CounterMutation(), dispatcher: dispatcher)
                    flux.dispatcher.dispatch(.increment)
                }
            }
        }
        XCTAssertEqual(keeper.store.state.count, 2 * rounds)
        XCTAssertEqual(dispatcher.handlerCount, 1)
    }
}

/// Where a view and an observer are called (“FluxCore” in the reference): Prex's main thread,
/// VueFlux's executors.
final class ExecutorTests: XCTestCase {
    /// A view that records the thread and value of every reflection.
    final class ThreadRecordingView: View {
        var reflections: [(count: Int, onMainThread: Bool)] = []
        var onReflect: (() -> Void)?

        func reflect(change: StateChange<CounterState>) {
            reflections.append((change.new.count, Thread.isMainThread))
            onReflect?()
        }
    }

    func testDispatchOnTheMainThreadReflectsAtOnce() {
        XCTAssertTrue(Thread.isMainThread)
        let view = ThreadRecordingView()
        let presenter = Presenter(view: view, state: CounterState(), mutation: CounterMutation())
        presenter.dispatch(.increment)
        // No run of the main queue in between: the reflection happened inside dispatch.
        XCTAssertEqual(view.reflections.map(\.count), [1])
        XCTAssertEqual(view.reflections.map(\.onMainThread), [true])
    }

    func testBackgroundDispatchReflectsLaterOnTheMainThreadInOrder() {
        let view = ThreadRecordingView()
        let presenter = Presenter(view: view, state: CounterState(), mutation: CounterMutation())
        let reflected = expectation(description: "three reflections")
        reflected.expectedFulfillmentCount = 3
        view.onReflect = { reflected.fulfill() }
        let dispatched = DispatchSemaphore(value: 0)
        onAnotherThread {
            presenter.dispatch(.increment)
            presenter.dispatch(.increment)
            presenter.reflect()
            dispatched.signal()
        }
        dispatched.wait()
        // The background thread is done, and the main thread has not run its queue since.
        XCTAssertEqual(view.reflections.count, 0)
        XCTAssertEqual(presenter.state.count, 2)
        wait(for: [reflected], timeout: 10)
        XCTAssertEqual(view.reflections.map(\.count), [1, 2, 2])
        XCTAssertEqual(view.reflections.map(\.onMainThread), [true, true, true])
    }

    func testImmediateReflectsOnTheDispatchingThread() {
        let view = ThreadRecordingView()
        // Spelled out: FluxCore's `Executor` wins over the concurrency library's protocol.
        let executor: Executor = .immediate
        let presenter = Presenter(
            view: view, state: CounterState(), mutation: CounterMutation(), executor: executor)
        XCTAssertEqual(presenter.executor.description, "immediate")
        let dispatched = DispatchSemaphore(value: 0)
        onAnotherThread {
            presenter.dispatch(.increment)
            dispatched.signal()
        }
        dispatched.wait()
        XCTAssertEqual(view.reflections.map(\.count), [1])
        XCTAssertEqual(view.reflections.map(\.onMainThread), [false])
    }

    func testQueueExecutorCallsAnObserverOnItsQueueInOrder() {
        let queue = DispatchQueue(label: "observer")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "observer")
        XCTAssertEqual(Executor.queue(queue).description, "queue(observer)")
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        var seen: [(count: Int, queue: String?)] = []
        let done = expectation(description: "five changes")
        done.expectedFulfillmentCount = 5
        let subscription = flux.store.observe(on: .queue(queue)) { change in
            seen.append((change.new.count, DispatchQueue.getSpecific(key: key)))
            done.fulfill()
        }
        for _ in 0..<5 { flux.dispatcher.dispatch(.increment) }
        wait(for: [done], timeout: 10)
        queue.sync {
            XCTAssertEqual(seen.map(\.count), [1, 2, 3, 4, 5])
            XCTAssertEqual(seen.map(\.queue), Array(repeating: "observer", count: 5))
        }
        flux.store.removeObserver(subscription)
    }

    func testStoreObserversAreImmediateByDefaultAndMainThreadOnRequest() {
        let flux = Flux(state: CounterState(), mutation: CounterMutation())
        var immediate: [Bool] = []
        var main: [Bool] = []
        let onMain = expectation(description: "main-thread observer")
        flux.store.observe { _ in immediate.append(Thread.isMainThread) }
        flux.store.observe(on: .mainThread) { _ in
            main.append(Thread.isMainThread)
            onMain.fulfill()
        }
        let dispatched = DispatchSemaphore(value: 0)
        onAnotherThread {
            flux.dispatcher.dispatch(.increment)
            dispatched.signal()
        }
        dispatched.wait()
        XCTAssertEqual(immediate, [false])
        wait(for: [onMain], timeout: 10)
        XCTAssertEqual(main, [true])
    }

    func testAPendingReflectionForAViewThatWentAwayIsDropped() {
        var view: ThreadRecordingView? = ThreadRecordingView()
        weak var released: ThreadRecordingView?
        released = view
        let presenter = Presenter(view: view!, state: CounterState(), mutation: CounterMutation())
        let dispatched = DispatchSemaphore(value: 0)
        onAnotherThread {
            presenter.dispatch(.increment)
            dispatched.signal()
        }
        dispatched.wait()
        view = nil
        XCTAssertNil(released)
        let drained = expectation(description: "main queue ran")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(presenter.state.count, 1)
    }
}

/// Runs `body` on a new thread, as a network callback would run.
///
/// A presenter is not `Sendable` (a subclass would have to restate it), so the closure is
/// handed over in a box; each test waits for the thread before it reads what it did.
private func onAnotherThread(_ body: @escaping () -> Void) {
    final class Handover: @unchecked Sendable {
        // NB: @unchecked Sendable is safe: the closure is set in `init` and only called on the
        // new thread; each test waits for that thread before it reads what the closure did.
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
    let handover = Handover(body)
    Thread.detachNewThread { handover.body() }
}
