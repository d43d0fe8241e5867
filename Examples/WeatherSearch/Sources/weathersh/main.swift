import FluxShell
import FluxShellCommand
import WeatherFeature

// The whole shell: the app's root reducer, registered in one line.
let search = StoreDefinition(
    "search", summary: "TCA's weather search: a query, its locations, the forecast of one", state: Search.State(),
    reduce: { state, action in _ = Search().reduce(into: &state, action: action) })
FluxShellMain.run(catalog: StoreCatalog([search]))
