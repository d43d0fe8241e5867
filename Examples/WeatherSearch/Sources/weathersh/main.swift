import FluxShell
import FluxShellCommand
import FluxShellDependencies
import FluxShellWeb
import MiniComposable
import WeatherFeature

// The whole shell: the app's root reducer, registered in one line.
let search = StoreDefinition(
    "search", summary: "TCA's weather search: a query, its locations, the forecast of one", state: Search.State(),
    reduce: { state, action in _ = Search().reduce(into: &state, action: action) })
// A feature on swift-dependencies, whose query starts a request (300 ms on its clock): its reducer
// registered with the effects it returns, which the shell runs on the session's clock.
let citySearch = StoreDefinition(
    "citysearch", summary: "search as you type, debounced on @Dependency(\\.continuousClock)",
    state: CitySearch.State(), reduce: { state, action in CitySearch().reduce(into: &state, action: action).shell })
// The same feature run by its library's `Store`, registered as a store object: its effects are
// the store's own tasks, which the shell runs with the command that woke them. The `Reduce` at
// the end of the body is the hook that tells the shell what the store applied.
let cityStore = StoreDefinition(
    "citystore", summary: "the search in its library's Store: effects are the store's own tasks",
    make: { () -> CityStore in MainActor.assumeIsolated { CityStore() } },
    state: { store in MainActor.assumeIsolated { store.store.state } },
    send: { store, action in MainActor.assumeIsolated { store.store.send(action) } },
    observe: { store, feed in store.hook.feed = feed })
// Pinned: `@Dependency(\.uuid)`, `\.date`, `\.continuousClock`, … read the session's ids and clock.
// `page:` serves the devtools page (`weathersh web --store citysearch`).
FluxShellMain.run(catalog: StoreCatalog([search, citySearch, cityStore]).pinningDependencies(), page: WebPage.self)
