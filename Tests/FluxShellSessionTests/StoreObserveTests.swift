import FluxShellFixtures
import FluxShellSession
import Foundation
import Testing

/// Store objects given `observe:`: the library's own hook reports each action it applied, so
/// a store that applies actions later, on a queue of its own, shows each change once, at the
/// command that caused it ("Stores that change on their own" in the reference).
@Suite struct StoreObserveTests {
    /// A store as VueFlux runs one with `.queue(...)`: each action is applied later, on a queue
    /// of the store's, and its subscribers are told after it.
    final class CartStore: @unchecked Sendable {
        // NB: @unchecked Sendable is safe: `current` and `subscribers` are touched under `lock`.
        struct Item {
            var name: String
            var price: Int
        }
        struct State {
            var items: [Item] = []
            var coupon: String?
        }
        enum Action {
            case add(String, Int)
            case applyCoupon(String)
            case clear
            /// What the store does by itself later (a timer, a push): not sent by the shell.
            case expire
        }

        private let lock = NSLock()
        private var current = State()
        private var subscribers: [(Action, State) -> Void] = []
        /// What the middleware does before an action: return the actions to apply instead.
        var middleware: ((Action) -> [Action])?

        var state: State { lock.withLock { current } }

        private let queue = DispatchQueue(label: "cart")

        func dispatch(_ action: Action) {
            queue.async { self.apply(action) }
        }

        func apply(_ action: Action) {
            let actions = middleware?(action) ?? [action]
            for action in actions {
                let (state, subscribers) = lock.withLock { () -> (State, [(Action, State) -> Void]) in
                    switch action {
                    case .add(let name, let price): current.items.append(Item(name: name, price: price))
                    case .applyCoupon(let code): current.coupon = code
                    case .clear: current = State()
                    case .expire: current.coupon = nil
                    }
                    return (current, self.subscribers)
                }
                for subscriber in subscribers { subscriber(action, state) }
            }
        }

        func subscribe(_ subscriber: @escaping (Action, State) -> Void) {
            lock.withLock { subscribers.append(subscriber) }
        }

        func set(_ state: State) {
            let subscribers = lock.withLock {
                current = state
                return self.subscribers
            }
            // NB: the library tells its subscribers of a restore as of any action (a hydrate).
            for subscriber in subscribers { subscriber(.clear, state) }
        }
    }

    final class Made { var stores: [CartStore] = [] }

    /// A shell with the cart registered as its app would, and the carts its loads made.
    static func shell(
        restores: Bool = false, timeLimit: Duration = .seconds(5), hookReports: Bool = true,
        middleware: ((CartStore.Action) -> [CartStore.Action])? = nil
    ) -> (Transcript, Made) {
        let made = Made()
        let shell = StoreForms.shell(
            StoreDefinition(
                "cart",
                make: { () -> CartStore in
                    let store = CartStore()
                    store.middleware = middleware
                    made.stores.append(store)
                    return store
                },
                state: { $0.state }, send: { store, action in store.dispatch(action) },
                restore: restores ? { store, state in store.set(state) } : nil,
                observe: { store, feed in
                    guard hookReports else { return }
                    store.subscribe { action, state in feed.record(action, state: state) }
                }))
        shell.session.effectTimeLimit = timeLimit
        return (shell, made)
    }

    @Test func anActionAppliedLaterOnAQueueIsShownAtItsCommand() {
        let (shell, _) = Self.shell()
        shell.run("load cart")
        for index in 0..<50 {
            #expect(
                shell.run("dispatch add Coffee \(index)") == [
                    "+ items[\(index)]: {\"name\":\"Coffee\",\"price\":\(index)}"
                ])
        }
        #expect(shell.run("dispatch applyCoupon HALF") == ["~ coupon: null -> \"HALF\""])
        #expect(shell.run("state items[49].price") == ["49"])
    }

    @Test func whatTheLibraryAppliesLaterOnItsOwnIsAStepOfItsOwn() {
        let (shell, made) = Self.shell()
        shell.run("load cart")
        shell.run("dispatch applyCoupon HALF")
        made.stores[0].apply(.expire)
        #expect(shell.run("state coupon") == ["<= expire", "~ coupon: \"HALF\" -> null", "null"])
        #expect(shell.run("history") == ["  1  applyCoupon HALF", "  2  expire"])
        // Undone by a new store sent the kept actions, each awaited; the action the library
        // applied on its own is not sent again (a new store would make it on its own), so the
        // state after it is made again by restore: only.
        #expect(shell.run("undo") == ["~ coupon: null -> \"HALF\""])
        #expect(shell.run("redo").first?.hasPrefix("error: store 'cart' cannot make that state again") == true)
    }

    @Test func actionsTheMiddlewareAppliesWithTheCommandsAreItsFollowUps() {
        let (shell, _) = Self.shell { action in
            guard case .add(let name, _) = action, name == "Gift" else { return [action] }
            return [action, .applyCoupon("FREE")]
        }
        shell.run("load cart")
        let added = shell.run("dispatch add Gift 0")
        let cleared = shell.run("dispatch clear")
        #expect(added.first == "+ items[0]: {\"name\":\"Gift\",\"price\":0}")
        // NB: applied right after the command's action, the follow-up is the command's (`=>`); a
        // thread that the system pauses between the two may make it a step of its own (`<=`)
        // before the next command. Either way it prints once, with its diff, before `clear`.
        let followUp = ["applyCoupon FREE", "~ coupon: null -> \"FREE\""]
        #expect(
            Array(added.dropFirst()) == ["=> " + followUp[0], followUp[1]]
                || Array(cleared.prefix(2)) == ["<= " + followUp[0], followUp[1]])
        #expect(cleared.suffix(2) == ["- items[0]: {\"name\":\"Gift\",\"price\":0}", "~ coupon: \"FREE\" -> null"])
    }

    @Test func anActionTheMiddlewareReplacesIsReportedAtItsCommand() {
        let (shell, _) = Self.shell(timeLimit: .seconds(1)) { action in
            guard case .add(_, let price) = action, price < 0 else { return [action] }
            return [.applyCoupon("BANNER")]
        }
        shell.run("load cart")
        #expect(
            shell.run("dispatch add Refund -5") == [
                "=> applyCoupon BANNER", "~ coupon: null -> \"BANNER\"",
                "error: store 'cart': its observe: hook did not report 'add Refund -5' within 1 s (the hook must call feed.record(action, state:) for every action the store applies, changed or not)",
            ])
        #expect(shell.run("state coupon") == ["\"BANNER\""])
    }

    @Test func aHookThatNeverReportsEndsTheCommandWithAnErrorAndTheSessionGoesOn() {
        let (shell, _) = Self.shell(hookReports: false)
        shell.session.effectTimeLimit = .milliseconds(200)
        shell.run("load cart")
        let started = ContinuousClock.now
        #expect(
            shell.run("dispatch clear") == [
                "(no changes)",
                "error: store 'cart': its observe: hook did not report 'clear' within 0.2 s (the hook must call feed.record(action, state:) for every action the store applies, changed or not)",
            ])
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(shell.run("state coupon") == ["null"])
    }

    @Test func aRestoreTheHookReportsIsPartOfTheRestore() {
        let (shell, made) = Self.shell(restores: true)
        shell.run("load cart")
        shell.run("dispatch add Tea 3")
        shell.run("dispatch applyCoupon TEN")
        #expect(shell.run("undo") == ["~ coupon: \"TEN\" -> null"])
        #expect(shell.run("undo") == ["- items[0]: {\"name\":\"Tea\",\"price\":3}"])
        #expect(shell.run("redo 2") == ["+ items[0]: {\"name\":\"Tea\",\"price\":3}", "~ coupon: null -> \"TEN\""])
        #expect(shell.run("history") == ["  1  add Tea 3", "  2  applyCoupon TEN"])
        #expect(made.stores[0].state.coupon == "TEN")
    }

    @Test func reportsFromManyThreadsAtOnceAreEachAStep() {
        let (shell, made) = Self.shell()
        shell.run("load cart")
        let store = made.stores[0]
        DispatchQueue.concurrentPerform(iterations: 200) { index in store.apply(.add("Item", index)) }
        let lines = shell.run("state coupon")
        // NB: each thread reports after it let go of the store's lock: the steps come in the
        // order the reports did, each diff from the state reported before it; none is lost.
        #expect(lines.filter { $0.hasPrefix("<= add Item ") }.count == 200)
        #expect(lines.last == "null")
        #expect(shell.run("history").count == 200)
        #expect(shell.run("dispatch applyCoupon ALL") == [#"~ coupon: null -> "ALL""#])
    }

    /// A store as ReSwift runs one: each action goes through the middleware, then the reducer,
    /// then the subscribers, before `dispatch` returns.
    final class ReduxStore {
        var state = ReduxState()
        var middleware: ((any ReduxAction, _ next: (any ReduxAction) -> Void) -> Void)?
        var subscribers: [(any ReduxAction, ReduxState) -> Void] = []

        func dispatch(_ action: any ReduxAction) {
            let next: (any ReduxAction) -> Void = { action in
                self.state = reduxReducer(action: action, state: self.state)
                for subscriber in self.subscribers { subscriber(action, self.state) }
            }
            guard let middleware else { return next(action) }
            middleware(action, next)
        }
    }

    static func reduxShell(middleware: @escaping (any ReduxAction, (any ReduxAction) -> Void) -> Void) -> Transcript {
        StoreForms.shell(
            StoreDefinition(
                "redux",
                make: { () -> ReduxStore in
                    let store = ReduxStore()
                    store.middleware = middleware
                    return store
                }, state: { $0.state }, actionTypes: [AddTodo.self, ToggleTodo.self, VisibilityAction.self],
                send: { (store: ReduxStore, action: any ReduxAction) in store.dispatch(action) },
                observe: { store, feed in store.subscribers.append { feed.record($0, state: $1) } }))
    }

    /// Two loads of a store whose middleware follows an action with another: each load's
    /// follow-up is its own library's doing, never given to the other load to apply again.
    @Test func aReportedFollowUpIsTheStoresAlone() {
        let shell = Self.reduxShell { action, next in
            next(action)
            if action is AddTodo { next(VisibilityAction.show(.active)) }
        }
        shell.run("load redux as a")
        shell.run("load redux as b")
        #expect(
            shell.run("dispatch AddTodo title: milk") == [
                #"+ a.todos[0]: {"title":"milk","done":false}"#, #"+ b.todos[0]: {"title":"milk","done":false}"#,
                "=> show active", #"~ a.filter: "all" -> "active""#, "=> show active",
                #"~ b.filter: "all" -> "active""#,
            ])
    }

    @Test func aSynchronousMiddlewareThatReplacesTheActionShowsWhatItAppliedInstead() {
        let shell = Self.reduxShell { action, next in
            if let toggle = action as? ToggleTodo, toggle.index == 77 { return next(VisibilityAction.show(.done)) }
            if action is AddTodo { next(VisibilityAction.show(.active)) }
            next(action)
        }
        shell.run("load redux")
        shell.session.effectTimeLimit = .seconds(30)
        let started = ContinuousClock.now
        // What the middleware applied instead is the command's follow-up, as a FluxCore
        // middleware's is; the command is complete at once.
        #expect(shell.run("dispatch ToggleTodo index: 77") == ["=> show done", "~ filter: \"all\" -> \"done\""])
        #expect(ContinuousClock.now - started < .seconds(5))
        // What the middleware applies before the command's own action comes first.
        #expect(
            shell.run("dispatch AddTodo title: milk") == [
                "=> show active", "~ filter: \"done\" -> \"active\"", "=> AddTodo title: milk",
                "+ todos[0]: {\"title\":\"milk\",\"done\":false}",
            ])
        #expect(shell.run("dispatch ToggleTodo index: 0") == ["~ todos[0].done: false -> true"])
        #expect(
            shell.run("undo 2") == [
                "- todos[0]: {\"title\":\"milk\",\"done\":true}", "~ filter: \"active\" -> \"done\"",
            ])
        // A new store sent the kept actions again, through its middleware, comes back to each step.
        #expect(
            shell.run("redo") == [
                "+ todos[0]: {\"title\":\"milk\",\"done\":false}", "~ filter: \"done\" -> \"active\"",
            ])
    }
}
