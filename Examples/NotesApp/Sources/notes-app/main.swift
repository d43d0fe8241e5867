import FluxCore
import FluxShellAgent
import Foundation
import NotesFeature

// The notes app, running: it syncs with its server every few seconds, and its debug build serves
// its store to `fluxsh attach notes` (or `notesh attach notes`). Ctrl-C stops it.
let flux = Flux(state: NotesState(), mutation: NotesMutation())
#if DEBUG
    // NB: caught, not thrown at the top level (which stops the app): the agent is a debugging
    // aid, and an app whose store cannot be served (its name served already) runs on without it.
    let agent: ShellAgent?
    do {
        agent = try ShellAgent(serving: flux, as: "notes")
        // NB: written at once, not buffered: a script waits for this line before it attaches.
        FileHandle.standardOutput.write(
            Data("notes-app: serving its store; attach with: swift run notesh attach notes (in its package)\n".utf8))
    } catch {
        agent = nil
        FileHandle.standardError.write(Data("notes-app: not served to notesh attach: \(error)\n".utf8))
    }
#endif

flux.dispatcher.dispatch(.open(at: Date()))
var round = 0
while true {
    Thread.sleep(forTimeInterval: 3)
    round += 1
    flux.dispatcher.dispatch(.setSync(.syncing(since: Date())))
    Thread.sleep(forTimeInterval: 0.5)
    if round % 4 == 0 {
        flux.dispatcher.dispatch(.fail(reason: "the server did not answer"))
    } else {
        flux.dispatcher.dispatch(.setSync(.idle))
    }
}
