import FluxShell
import FluxShellCommand
import FluxShellDependencies
import FluxShellWeb
import WeatherFeature

// The whole shell: the app's root reducer, registered in one line.
let search = StoreDefinition(
    "search", summary: "TCA's weather search: a query, its locations, the forecast of one", state: Search.State(),
    reduce: { state, action in _ = Search().reduce(into: &state, action: action) })
// A feature on swift-dependencies, with the request its query starts (300 ms on its clock).
let citySearch = StoreDefinition(
    "citysearch", summary: "search as you type, debounced on @Dependency(\\.continuousClock)",
    state: CitySearch.State(), reduce: { state, action in _ = CitySearch().reduce(into: &state, action: action) },
    effect: { action, state, _ in try await CitySearch().effect(action, state) })
// Pinned: `@Dependency(\.uuid)`, `\.date`, `\.continuousClock`, … read the session's ids and clock.
// `page:` serves the devtools page (`weathersh web --store citysearch`).
FluxShellMain.run(catalog: StoreCatalog([search, citySearch]).pinningDependencies(), page: WebPage.self)
