import FluxShell
import FluxShellCommand
import FluxShellWeb
import SyncUpsFeature

// The whole shell: the app's sync-ups store, registered in one line, with the devtools page.
let syncUps = StoreDefinition(
    "syncups", summary: "meeting planner: sync-ups, attendees, meetings", state: SyncUpsState(),
    mutation: SyncUpsMutation())
FluxShellMain.run(catalog: StoreCatalog([syncUps]), page: WebPage.self)
