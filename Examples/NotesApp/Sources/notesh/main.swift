import FluxShell
import FluxShellCommand
import FluxStores
import NotesFeature

// The whole shell: the built-in counter and the app's own notes store.
let notes = StoreDefinition(
    "notes", summary: "a notes app: add, pin, tag, sort, sync, …", state: NotesState(), mutation: NotesMutation())
FluxShellMain.run(catalog: StoreCatalog([.counter, notes]))
