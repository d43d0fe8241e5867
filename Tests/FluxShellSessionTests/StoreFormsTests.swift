import FluxShellFixtures
import FluxStores
import Testing

@testable import FluxShellLive
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

struct StoreFormsTests {
    /// Whatever their form, a session's stores go with it: none outlives the session, though
    /// each one's hooks hold it while the session lives. So do a store that validates its
    /// actions, and one whose effects still wait on the clock (a timer) when the session ends.
    @Test(arguments: [
        (
            StoreCatalog([StoreForms.reduxTodos, StoreForms.counter, StoreForms.vue]),
            [
                "load redux", #"dispatch AddTodo "Milk""#, "load tca", "dispatch increment", "load vue",
                "dispatch add 2", "undo",
            ]
        ),
        (StoreCatalog.builtIn, ["load library", "dispatch visit", "dispatch visit"]),
        (Clocked.catalog, ["load clocked", "dispatch search ab", "dispatch startTimer", "advance 1.5"]),
    ])
    func aSessionThatEndsTakesItsStoresWithIt(_ catalog: StoreCatalog, _ lines: [String]) {
        struct Weak { weak var object: AnyObject? }
        var ended = Weak()
        var runtimes: [Weak] = []
        do {
            let shell = Transcript(catalog: catalog)
            for line in lines {
                let output = shell.run(line)
                if line.hasPrefix("load ") {
                    #expect(output.isEmpty, "\(line): \(output)")
                } else {
                    #expect(!output.isEmpty && output.allSatisfy { !$0.hasPrefix("error") }, "\(line): \(output)")
                }
            }
            ended = Weak(object: shell.session)
            runtimes = shell.session.stores.map { Weak(object: $0.runtime) }
        }
        #expect(ended.object == nil)
        #expect(runtimes.count == lines.count { $0.hasPrefix("load ") })
        #expect(runtimes.allSatisfy { $0.object == nil })
    }

    @Test func structActionsAreDispatchedByNameWithLabelsPositionsAndBareWords() {
        let shell = StoreForms.shell(StoreForms.reduxTodos)
        shell.run("load redux")
        #expect(
            shell.run("dispatch AddTodo title: \"Milk\"") == [
                "+ todos[0]: {\"title\":\"Milk\",\"done\":false}"
            ])
        #expect(shell.run("dispatch AddTodo \"Eggs\"") == ["+ todos[1]: {\"title\":\"Eggs\",\"done\":false}"])
        #expect(shell.run("dispatch ToggleTodo index: 0") == ["~ todos[0].done: false -> true"])
        #expect(shell.run("dispatch ClearCompleted") == ["- todos[0]: {\"title\":\"Milk\",\"done\":true}"])
        #expect(shell.run("dispatch show done") == ["~ filter: \"all\" -> \"done\""])
        #expect(
            shell.run("actions") == [
                "AddTodo(title: String)", "ToggleTodo(index: Int)", "ClearCompleted",
                "show(Filter)    all | active | done", "clear",
            ])
        #expect(
            shell.run("history") == [
                "  1  AddTodo title: Milk", "  2  AddTodo Eggs", "  3  ToggleTodo index: 0",
                "  4  ClearCompleted", "  5  show done",
            ])
        #expect(
            shell.run("undo 2") == ["+ todos[0]: {\"title\":\"Milk\",\"done\":true}", "~ filter: \"done\" -> \"all\""])
        #expect(shell.run("redo") == ["- todos[0]: {\"title\":\"Milk\",\"done\":true}"])
    }

    @Test func aLabelThatNamesNoFieldIsAnErrorThatChangesNothing() {
        let shell = StoreForms.shell(StoreForms.reduxTodos)
        shell.run("load redux")
        #expect(
            shell.run("dispatch AddTodo name: \"x\"") == [
                "error: 'AddTodo' has no argument 'name' (usage: dispatch AddTodo title: \"text\")"
            ])
        #expect(
            shell.run("dispatch ClearCompleted 5").first?.hasPrefix("error: 'ClearCompleted' takes no arguments")
                == true)
        #expect(
            shell.run("dispatch AddTodos title: \"x\"") == [
                "error: unknown action 'AddTodos' for store 'redux' (did you mean 'AddTodo'?)"
            ])
        #expect(shell.run("state todos") == ["[]"])
        #expect(shell.run("history") == ["(no actions dispatched yet)"])
    }

    @Test func followUpsOfListedTypesAreWrittenAsTheyAreDispatched() {
        let definition = StoreDefinition(
            "redux", state: ReduxState(), actionTypes: [AddTodo.self, ClearCompleted.self],
            reducer: { action, state in reduxReducer(action: action, state: state) },
            effect: { action, _ in action is ClearCompleted ? [AddTodo(title: "again") as any ReduxAction] : [] })
        let shell = StoreForms.shell(definition)
        shell.run("load redux")
        #expect(
            shell.run("dispatch ClearCompleted") == [
                "=> AddTodo title: again", "+ todos[0]: {\"title\":\"again\",\"done\":false}",
            ])
    }

    @Test func typesThatShareANameAreQualifiedAsFarAsNeeded() {
        let definition = StoreDefinition(
            "mail", state: [Int](),
            actionTypes: [Inbox.Archive.self, Outbox.Archive.self, Compose.self, VisibilityAction.self],
            reduce: { (state: inout [Int], action: any ReduxAction) -> Void in
                if let archive = action as? Inbox.Archive { state.append(archive.id) }
                if let archive = action as? Outbox.Archive { state.append(-archive.id) }
                if case Compose.clear = action { state = [] }
            })
        let shell = StoreForms.shell(definition)
        shell.run("load mail")
        #expect(
            shell.run("actions") == [
                "Inbox.Archive(id: Int)", "Outbox.Archive(id: Int)", "Compose.clear", "send",
                "show(Filter)    all | active | done", "VisibilityAction.clear",
            ])
        #expect(shell.run("dispatch Inbox.Archive id: 3") == ["+ [0]: 3"])
        #expect(shell.run("dispatch Outbox.Archive 4") == ["+ [1]: -4"])
        #expect(shell.run("dispatch Compose.clear") == ["- [0]: 3", "- [1]: -4"])
        #expect(shell.run("history") == ["  1  Inbox.Archive id: 3", "  2  Outbox.Archive 4", "  3  Compose.clear"])
        // A case listed unqualified is also taken qualified, and written as listed.
        #expect(shell.run("dispatch Compose.send") == ["(no changes)"])
        #expect(shell.run("history").last == "  4  Compose.send")
        #expect(shell.run("dispatch Compose.nope").first?.hasPrefix("error: unknown action 'Compose.nope'") == true)
    }

    static let miscTypes: [Any.Type] = [
        Wrapper<Int>.self, Wrapper<String>.self, Feature<Int>.Load.self, Overloaded.self, Priority.self, Level.self,
    ]

    static func miscEffect(_ action: any ReduxAction, _ state: [String]) -> [any ReduxAction] {
        guard let priority = action as? Priority, priority.rawValue == "first" else { return [] }
        let followUps: [any ReduxAction] = [Level.high, Priority(rawValue: "again")]
        return followUps
    }

    static func miscReduce(_ state: inout [String], _ action: any ReduxAction) { state.append("\(action)") }

    @Test func listedTypesAreNamedAndWrittenSoThatTheyReplay() {
        let definition = StoreDefinition(
            "misc", state: [String](), actionTypes: Self.miscTypes, reduce: Self.miscReduce, effect: Self.miscEffect)
        let shell = StoreForms.shell(definition)
        shell.run("load misc")
        let listed: [String] = [
            "Wrapper<Int>(value: Int)", "Wrapper<String>(value: String)", "Load(id: Int)", "add(Int)",
            "add(title: String)", "Priority(rawValue: String)", "low", "high",
        ]
        #expect(shell.run("actions") == listed)
        #expect(shell.run("dispatch add 5").count == 1)
        #expect(shell.run("dispatch add title: x").count == 1)
        #expect(shell.run("dispatch Load id: 3").count == 1)
        #expect(shell.run("dispatch Wrapper<Int> value: 1").count == 1)
        let printed = shell.run("dispatch Priority rawValue: first")
        #expect(printed.contains("=> high"), "\(printed)")
        #expect(printed.contains("=> Priority rawValue: again"), "\(printed)")
        let history = shell.run("history")
        #expect(history.suffix(2) == ["     => high", "     => Priority rawValue: again"], "\(history)")
    }

    @Test func anActionTypeThatIsAClassIsRefusedAtRegistration() {
        let definition = StoreDefinition(
            "bad", state: ReduxState(), actionTypes: [AddTodo.self, ClassAction.self],
            reducer: { action, state in reduxReducer(action: action, state: state) })
        #expect(definition.registrationError?.message == "store 'bad': the action type ClassAction is a class")
        let shell = StoreForms.shell(definition)
        #expect(
            shell.run("load bad").first
                == "error: store 'bad': the action type ClassAction is a class (actions listed in actionTypes: are structs or enums, which the shell builds from text and keeps)"
        )
        #expect(shell.run("state").first?.hasPrefix("error: no store is loaded") == true)
    }

    @Test func listedTypesThatTheReducerCannotTakeAreRefusedAtRegistration() {
        let definition = StoreDefinition(
            "narrow", state: ReduxState(), actionTypes: [AddTodo.self, ClearCompleted.self],
            reducer: { (action: AddTodo, state: ReduxState) in reduxReducer(action: action, state: state) })
        #expect(
            definition.registrationError?.message
                == "store 'narrow': its reducer takes AddTodo, so it cannot take the action type ClearCompleted")
    }

    @Test func aReducerOfAClassStateIsRefusedAtRegistration() {
        let definition = StoreDefinition(
            "vstate", state: VueState(),
            reduce: { (state: inout VueState, action: VueStore.Action) in state.count.value += 1 })
        #expect(
            definition.registrationError?.message.hasPrefix("store 'vstate': its state VueState is a class") == true)
        #expect(definition.registrationError?.hint?.contains("store object") == true)
    }

    @Test func anInPlaceReducerDispatchesUndoesAndResets() {
        let shell = StoreForms.shell(StoreForms.counter)
        shell.run("load tca")
        #expect(shell.run("dispatch increment") == ["~ count: 0 -> 1"])
        #expect(shell.run("dispatch add 5") == ["~ count: 1 -> 6"])
        #expect(shell.run("dispatch child toggle") == ["~ child.isOn: false -> true"])
        #expect(shell.run("undo") == ["~ child.isOn: true -> false"])
        #expect(shell.run("reset") == ["~ count: 6 -> 0"])
        #expect(shell.run("undo") == ["~ count: 0 -> 6"])
    }

    @Test func aStoreObjectOfAClassStateShowsEachChangeAndUndoesByReplaying() {
        let shell = StoreForms.shell(StoreForms.vue)
        shell.run("load vue")
        #expect(shell.run("dispatch increment") == ["~ count: 0 -> 1", "+ history[0]: 1"])
        #expect(shell.run("dispatch add 4") == ["~ count: 1 -> 5", "+ history[1]: 5"])
        #expect(shell.run("undo") == ["~ count: 5 -> 1", "- history[1]: 5"])
        #expect(shell.run("redo") == ["~ count: 1 -> 5", "+ history[1]: 5"])
        #expect(shell.run("undo 2") == ["~ count: 5 -> 0", "- history[0]: 1", "- history[1]: 5"])
        #expect(shell.run("dispatch add 2") == ["~ count: 0 -> 2", "+ history[0]: 2"])
        #expect(shell.run("reset") == ["~ count: 2 -> 0", "- history[0]: 2"])
        // A second load is a new store, whatever the first one holds.
        #expect(shell.run("load vue as other") == [])
        #expect(shell.run("state other.count") == ["0"])
    }

    @Test func aStoreObjectWithRestoreIsSetByIt() {
        let definition = StoreDefinition(
            "vue", make: { VueStore() }, state: { $0.snapshot }, send: { store, action in store.commit(action) },
            restore: { store, snapshot in
                store.state.count.value = snapshot.count
                store.state.history.value = snapshot.history
            })
        let shell = StoreForms.shell(definition)
        shell.run("load vue")
        shell.run("dispatch add 3")
        #expect(shell.run("undo") == ["~ count: 3 -> 0", "- history[0]: 3"])
        #expect(shell.run("redo") == ["~ count: 0 -> 3", "+ history[0]: 3"])
    }

    @Test func aSharedStoreObjectIsRefusedOnItsSecondLoad() {
        let shared = StoreDefinition(
            "shared", make: { VueStore.shared }, state: { $0.snapshot }, send: { store, action in store.commit(action) }
        )
        let shell = StoreForms.shell(shared)
        #expect(shell.run("load shared") == [])
        #expect(
            shell.run("load shared as again") == [
                "error: store 'again': make: returned a store object that is in use already (VueStore) (make: must create a new store each time it is called, e.g. make: { CounterStore() }, not a shared instance)"
            ])
        #expect(shell.run("use again").first?.hasPrefix("error: no loaded store is called 'again'") == true)
        // Undone without `restore:`, it would need a new store: refused, and nothing changes.
        shell.run("dispatch increment")
        #expect(
            shell.run("undo").first?.hasPrefix(
                "error: store 'shared': make: returned a store object that is in use already") == true)
        #expect(shell.run("state count") == ["\(VueStore.shared.state.count.value)"])
    }

    @Test func aStateClosureThatReturnsAClassInstanceIsRefused() {
        let definition = StoreDefinition(
            "raw", make: { VueStore() }, state: { $0.state }, send: { store, action in store.commit(action) })
        #expect(
            definition.registrationError?.message.hasPrefix("store 'raw': state: returns a class instance (VueState)")
                == true)
        let anyState = StoreDefinition(
            "anyraw", make: { VueStore() }, state: { $0.state as Any }, send: { store, action in store.commit(action) })
        let shell = StoreForms.shell(anyState)
        #expect(
            shell.run("load anyraw").first?.hasPrefix(
                "error: store 'anyraw': state: returned a class instance (VueState)") == true)
    }

    /// Once the history forgets its oldest steps, the oldest kept one is made again from the
    /// actions after the forgotten ones.
    @Test func aStoreObjectIsUndoneByReplayPastForgottenSteps() {
        let session = Session(catalog: StoreCatalog([StoreForms.vue]), historyLimit: 8)
        let shell = Transcript(session: session)
        shell.run("load vue")
        for _ in 0..<9 { shell.run("dispatch increment") }
        #expect(shell.run("undo 7").first == "~ count: 9 -> 2")
        #expect(shell.run("state count") == ["2"])
        #expect(shell.run("redo 7").first == "~ count: 2 -> 9")
        shell.run("undo 3")
        #expect(shell.run("dispatch add 10").first == "~ count: 6 -> 16")
        #expect(shell.run("undo").first == "~ count: 16 -> 6")
    }

    @Test func aReplayThatReachesAnotherStateIsRefusedAndChangesNothing() {
        let definition = StoreDefinition(
            "drift", make: { DriftingStore() }, state: { $0.state }, send: { store, action in store.send(action) })
        let shell = StoreForms.shell(definition)
        shell.run("load drift")
        shell.run("dispatch increment")
        shell.run("dispatch increment")
        let before = shell.run("state")
        let undo = shell.run("undo")
        #expect(
            undo.first?.hasPrefix(
                "error: store 'drift' does not come back to that state: a new store sent the same 1 action reaches another (at .: "
            ) == true, "\(undo)")
        #expect(
            undo.first?.contains("to pin it, read dates, ids and random numbers from the session's environment") == true
        )
        #expect(shell.run("state") == before)
        #expect(shell.run("history").count == 2)
    }
}
