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
FluxShellMain.run(catalog: StoreCatalog([counter]), page: WebPage.self)
