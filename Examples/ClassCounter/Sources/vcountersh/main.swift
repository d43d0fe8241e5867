import CounterFeature
import FluxShell
import FluxShellCommand
import FluxShellWeb
import MiniVue

/// What the shell shows of a counter store: its class state's variables, copied as values, read
/// through `Computed` as the app's views read them (the state's members are `fileprivate`).
struct CounterSnapshot {
    var count: Int
    var step: Int
    var interval: Double
    var marks: [Int]
    var max: Int

    init(_ computed: Computed<CounterState>) {
        count = computed.count.value
        step = computed.step.value
        interval = computed.interval.value
        marks = computed.marks.value
        max = computed.max
    }
}

// The whole shell: the app's store object, registered in one expression. Without `restore:`,
// undo, redo and reset make a new store and dispatch the kept actions to it again.
let counter = StoreDefinition(
    "vcounter", summary: "a VueFlux counter: a class state of variables, run by its store", make: { CounterStore() },
    state: { CounterSnapshot($0.computed) }, send: { store, action in store.actions.dispatch(action: action) })
// The same store run as VueFlux's README runs one, committing each action later on a global
// queue: its subscriber reports each commit to the shell (`observe:`), so a command is complete
// once its action was committed, and shows what it did.
let queued = StoreDefinition(
    "qcounter", summary: "the counter committing on a global queue, reported by its subscriber",
    make: { CounterStore(executor: .queue(.global())) }, state: { CounterSnapshot($0.computed) },
    send: { store, action in store.actions.dispatch(action: action) },
    observe: { store, feed in
        store.subscribe { [unowned store] action in feed.record(action, state: CounterSnapshot(store.computed)) }
    })

// And committing on the main queue, VueFlux's `.mainThread`: the shell runs the main queue while
// it waits, as the app's run loop would.
let onMain = StoreDefinition(
    "mcounter", summary: "the counter committing on the main queue, reported by its subscriber",
    make: { CounterStore(executor: .mainThread) }, state: { CounterSnapshot($0.computed) },
    send: { store, action in store.actions.dispatch(action: action) },
    observe: { store, feed in
        store.subscribe { [unowned store] action in feed.record(action, state: CounterSnapshot(store.computed)) }
    })

FluxShellMain.run(catalog: StoreCatalog([counter, queued, onMain]), page: WebPage.self)
