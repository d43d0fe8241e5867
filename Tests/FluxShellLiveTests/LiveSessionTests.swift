import Dispatch
import FluxCore
import FluxShellFixtures
import Foundation
import Testing

@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// A session attached to a running app's stores, driven with strings (no socket).
struct LiveSessionTests {
    /// The app: its flux, and a session attached to it.
    final class App {
        let flux: Flux<ShopAction, ShopState>
        let shell: Transcript
        var session: Session { shell.session }

        init(queueLimit: Int = 4_096, middleware: AnyMiddleware<ShopAction>? = nil) throws {
            let dispatcher = Dispatcher<ShopAction>()
            if let middleware { dispatcher.use(middleware) }
            flux = Flux(state: ShopState(), mutation: ShopMutation(), dispatcher: dispatcher)
            shell = Transcript(
                session: try Session(attachingTo: [LiveStore(flux, as: "shop")], queueLimit: queueLimit, wake: {}))
        }

        /// What the app did by itself since the last call, as the shell prints it.
        func appLines() -> [String] {
            var output = OutputBuffer()
            for step in session.takeAppSteps() { Renderer().write(step, to: &output) }
            return output.text.split(separator: "\n").map(String.init)
        }
    }

    @Test func theAppsActionsAreStepsWithTheirDiffs() throws {
        let app = try App()
        app.flux.dispatcher.dispatch(.add(title: "milk", quantity: 2))
        app.flux.dispatcher.dispatch(.bump)
        #expect(
            app.appLines() == [
                "<= add title: milk quantity: 2", #"+ items[0]: "milk""#, "~ total: 0 -> 2", "<= bump",
                "~ bumps: 0 -> 1",
            ])
        #expect(app.appLines() == [])
        #expect(app.shell.run("history") == ["  1  add title: milk quantity: 2", "  2  bump"])
        #expect(app.shell.run("state total") == ["2"])
        #expect(app.shell.run("why note") == ["(no step changed note: it is as it was when the shell attached)"])
    }

    /// The app's effects run on its own clock: the shell lists none and moves no clock.
    @Test func theClockCommandsAreTheShellsOwnAndRefusedWhenAttached() throws {
        let app = try App()
        #expect(
            app.shell.run("effects") == [
                "(the attached app's effects run on its own clock: the shell neither lists nor advances them)"
            ])
        for command in ["advance", "advance 1", "cancel"] {
            let word = command.split(separator: " ")[0]
            #expect(
                app.shell.run(command) == [
                    "error: \(word) is for effects the shell runs: the attached app's effects run on its own clock"
                        + " (the app's actions still show here as they happen)"
                ])
        }
        #expect(app.shell.run("history") == ["(no actions dispatched yet)"])
    }

    /// Attached, `load` says what the session holds and suggests only what works.
    @Test func loadWhileAttachedSaysWhatWorks() throws {
        let app = try App()
        #expect(
            app.shell.run("load shop") == [
                "error: 'shop' is the app's store, attached already: a session attached to an app holds its stores and cannot load more (use shop)"
            ])
        #expect(
            app.shell.run("load counter") == [
                "error: a session attached to an app holds the app's stores (shop) and cannot load 'counter' (detach, and load it in a session of your own: fluxsh --store counter)"
            ])
        #expect(app.shell.run("use shop") == [])
        #expect(app.shell.run("history") == ["(no actions dispatched yet)"])
    }

    @Test func theShellsDispatchRunsInTheAppAndPrintsOnlyItsOwnDiff() throws {
        let app = try App(middleware: bumpingOnNote())
        app.flux.dispatcher.dispatch(.bump)
        #expect(app.shell.run("dispatch add title: \"tea\" quantity: 1") == [#"+ items[0]: "tea""#, "~ total: 0 -> 1"])
        #expect(app.flux.store.state.items == ["tea"])
        // NB: the app's action came first: it is a step of its own, before the shell's.
        #expect(app.appLines() == ["<= bump", "~ bumps: 0 -> 1"])
        #expect(app.shell.run("dispatch note \"hi\"") == [#"~ note: null -> "hi""#, "=> bump", "~ bumps: 1 -> 2"])
        #expect(app.appLines() == [])
        #expect(
            app.shell.run("history") == [
                "  1  bump", "  2  add title: tea quantity: 1", "  3  note hi", "     => bump",
            ])
    }

    /// A middleware that stops the shell's action and dispatches another: the action changed
    /// nothing, and the other is its follow-up.
    @Test func anActionAMiddlewareReplacesByAFollowUpShowsIt() throws {
        let app = try App(
            middleware: AnyMiddleware(willDispatch: { action, dispatcher in
                guard case .clear = action else { return .pass }
                dispatcher.dispatch(.bump)
                return .stop
            }))
        #expect(app.shell.run("dispatch clear") == ["=> bump", "~ bumps: 0 -> 1"])
        #expect(app.appLines() == [])
        #expect(app.shell.run("history") == ["  1  clear", "     => bump"])
    }

    @Test func undoRedoAndResetSetTheAppsStoreAndNotifyItsObservers() throws {
        let app = try App()
        app.flux.dispatcher.dispatch(.bump)
        var seen: [Int] = []
        let subscription = app.flux.store.observe { change in seen.append(change.newState.bumps) }
        _ = app.shell.run("dispatch bump")
        #expect(app.appLines() == ["<= bump", "~ bumps: 0 -> 1"])
        #expect(app.shell.run("undo") == ["~ bumps: 2 -> 1", "(undid step 2: bump, which this shell dispatched)"])
        #expect(app.flux.store.state.bumps == 1)
        #expect(app.shell.run("reset") == ["~ bumps: 1 -> 0"])
        #expect(app.flux.store.state.bumps == 0)
        #expect(app.shell.run("undo") == ["~ bumps: 0 -> 1", "(undid step 3: reset, which this shell ran)"])
        #expect(seen == [2, 1, 0, 1])
        app.flux.store.removeObserver(subscription)
    }

    /// A scenario saved while attached begins where the app's store was when the shell attached
    /// (`load NAME with STATE`), not from its initial state: the app's earlier actions are not the
    /// shell's to replay, and the saved file replays all the same.
    @Test func aScenarioSavedWhileAttachedBeginsWhereTheAppWasAndReplays() throws {
        let dispatcher = Dispatcher<ShopAction>()
        let flux = Flux(state: ShopState(), mutation: ShopMutation(), dispatcher: dispatcher)
        flux.dispatcher.dispatch(.note("opened"))
        flux.dispatcher.dispatch(.bump)
        let shell = Transcript(session: try Session(attachingTo: [LiveStore(flux, as: "shop")], wake: {}))
        _ = shell.run("dispatch add title: tea quantity: 2")
        flux.dispatcher.dispatch(.bump)
        _ = shell.session.takeAppSteps()
        _ = shell.run("reset")
        _ = shell.run("undo")
        let text = shell.session.scenarioText()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count > 2)
        #expect(lines[2] == #"load shop with {"items":[],"total":0,"note":"opened","bumps":1}"#)
        let path = ScenarioRecorderTests.scratchFile("attached.scenario")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replayed = ScenarioRecorderTests.replay(path)
        #expect(replayed.passed, "\(replayed.failures)")
        // NB: bad input: a state that does not fit is a located error, and loads nothing.
        let local = Transcript(session: Session(catalog: ScenarioRecorderTests.catalog()))
        #expect(
            local.run(#"load shop with {"items":[],"total":"two","note":null,"bumps":0}"#) == [
                "error: the state given to store 'shop' does not fit ShopState at total: expected a whole number, "
                    + #"found "two" (give the state as 'state' prints it)"#
            ])
        #expect(local.run("state") == ["error: no store is loaded (load one first, e.g. load shop)"])
    }

    /// An attached `undo` undoes the latest step, which may be the app's: it says whose it was.
    /// A session of its own says nothing more than the diff.
    @Test func undoAndRedoNameTheStepsAndWhoMadeThem() throws {
        let app = try App()
        _ = app.shell.run("dispatch note \"mine\"")
        app.flux.dispatcher.dispatch(.bump)
        #expect(app.shell.run("undo") == ["~ bumps: 1 -> 0", "(undid step 2: bump, which the app dispatched)"])
        #expect(
            app.shell.run("undo") == [
                #"~ note: "mine" -> null"#, "(undid step 1: note mine, which this shell dispatched)",
            ])
        #expect(
            app.shell.run("redo 2") == [
                #"~ note: null -> "mine""#, "~ bumps: 0 -> 1", "(redid step 1: note mine, which this shell dispatched)",
                "(redid step 2: bump, which the app dispatched)",
            ])
        let undone = try app.session.execute(.undo(steps: 1))
        #expect(
            Renderer(format: .json).jsonLine(of: undone, command: .undo(steps: 1), line: nil)
                == #"{"command":"undo","undid":[{"number":2,"action":"bump","by":"app"}],"#
                + #""changes":[{"op":"~","path":"bumps","old":1,"new":0}]}"#)
        let local = Transcript(
            session: Session(
                catalog: StoreCatalog([StoreDefinition("shop", state: ShopState(), mutation: ShopMutation())])))
        _ = local.run("load shop")
        _ = local.run("dispatch bump")
        #expect(local.run("undo") == ["~ bumps: 1 -> 0"])
    }

    @Test func aFullInboxDropsActionsAndSendsTheLatestState() throws {
        let app = try App(queueLimit: 2)
        for _ in 0..<5 { app.flux.dispatcher.dispatch(.bump) }
        #expect(
            app.appLines() == [
                "<= bump", "~ bumps: 0 -> 1", "<= bump", "~ bumps: 1 -> 2", "(3 changes dropped)", "{",
                #"  "items": [],"#, #"  "total": 0,"#, #"  "note": null,"#, #"  "bumps": 5"#, "}",
            ])
        #expect(app.shell.run("history").last == "  3  (3 changes dropped)")
        #expect(app.shell.run("undo") == ["~ bumps: 5 -> 2", "(undid step 3: 3 changes dropped)"])
        app.flux.dispatcher.dispatch(.bump)
        #expect(app.appLines() == ["<= bump", "~ bumps: 2 -> 3"])
    }

    /// Actions dropped before the shell's own action are a step before it; its diff holds its
    /// own changes only.
    @Test func actionsDroppedBeforeTheShellsActionComeBeforeIt() throws {
        let app = try App(queueLimit: 2)
        for _ in 0..<4 { app.flux.dispatcher.dispatch(.bump) }
        #expect(app.shell.run("dispatch add title: x quantity: 1") == [#"+ items[0]: "x""#, "~ total: 0 -> 1"])
        let lines = app.appLines()
        #expect(lines.prefix(5) == ["<= bump", "~ bumps: 0 -> 1", "<= bump", "~ bumps: 1 -> 2", "(2 changes dropped)"])
        #expect(lines.contains(#"  "bumps": 4"#) && lines.contains(#"  "items": [],"#))
        #expect(
            app.shell.run("history") == [
                "  1  bump", "  2  bump", "  3  (2 changes dropped)", "  4  add title: x quantity: 1",
            ])
        app.flux.dispatcher.dispatch(.bump)
        #expect(app.appLines() == ["<= bump", "~ bumps: 4 -> 5"])
    }

    @Test func anActionWithoutTextFormStillShowsItsStepAndIsSavedAsAComment() throws {
        let app = try App()
        app.flux.dispatcher.dispatch(.attach({}))
        app.flux.dispatcher.dispatch(.bump)
        #expect(app.appLines() == [#"<= attach "(Function)""#, "(no changes)", "<= bump", "~ bumps: 0 -> 1"])
        let text = app.session.scenarioText()
        #expect(
            text.contains(#"# not replayable: attach "(Function)" (argument 1 of 'attach' cannot be given as text"#))
        #expect(text.contains("dispatch bump\n~ bumps: 0 -> 1\n"))
    }

    /// What the app's middlewares dispatch while an action is delivered are its follow-ups.
    @Test func theAppsFollowUpsAreFollowUpsOfItsAction() throws {
        let app = try App(middleware: bumpingOnNote())
        app.flux.dispatcher.dispatch(.note("x"))
        #expect(app.appLines() == ["<= note x", #"~ note: null -> "x""#, "=> bump", "~ bumps: 0 -> 1"])
        #expect(app.shell.run("history") == ["  1  note x", "     => bump"])
        #expect(
            app.shell.run("undo") == [
                #"~ note: "x" -> null"#, "~ bumps: 1 -> 0", "(undid step 1: note x, which the app dispatched)",
            ])
    }

    @Test func aSessionThatMissedActionsRefusesToSave() throws {
        let app = try App(queueLimit: 1)
        for _ in 0..<3 { app.flux.dispatcher.dispatch(.bump) }
        _ = app.appLines()
        #expect(
            app.shell.run("save /tmp/never-written.scenario").first?.hasPrefix(
                "error: 2 of the app's actions were dropped while this shell read too slowly") == true)
    }

    @Test func aDetachedSessionNoLongerFollowsTheApp() throws {
        let app = try App()
        let handlers = app.flux.dispatcher.handlerCount
        app.session.detach()
        #expect(app.flux.dispatcher.handlerCount == handlers - 1)
        app.flux.dispatcher.dispatch(.bump)
        #expect(app.appLines() == [])
    }

    /// A take that finds nothing (what each line a shell sends does first, without waiting for the
    /// app's dispatcher) is done with the wake on its way: the app's next action wakes the session
    /// again, even when the actions that wake announced were taken before the shell's own action.
    @Test func anEmptyTakeLetsTheNextActionWakeTheSession() throws {
        let wakes = LockedValue(0)
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let session = try Session(
            attachingTo: [LiveStore(flux, as: "shop")], wake: { wakes.withLock { $0 += 1 } })
        flux.dispatcher.dispatch(.bump)
        #expect(wakes.withLock { $0 } == 1)
        // NB: as before the shell's own action: what came before it is taken, the wake stays due.
        session.absorbAppActions(before: .max - 1)
        #expect(session.takeAppSteps().count == 1)
        flux.dispatcher.dispatch(.bump)
        #expect(wakes.withLock { $0 } == 2)
        #expect(session.takeAppSteps().count == 1)
        #expect(session.takeAppSteps().isEmpty)
        flux.dispatcher.dispatch(.bump)
        #expect(wakes.withLock { $0 } == 3)
    }

    /// A session that detached, or was released, leaves nothing behind: its feed and runtimes go.
    @Test(arguments: [true, false]) func aSessionGoneLeavesNothingBehind(detaches: Bool) throws {
        weak var feed: AnyObject?
        weak var runtime: AnyObject?
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        do {
            let session = try Session(attachingTo: [LiveStore(flux, as: "shop")], wake: {})
            feed = session.link?.feed
            runtime = session.link?.runtimes.first
            flux.dispatcher.dispatch(.bump)
            if detaches { session.detach() }
        }
        #expect(feed == nil)
        #expect(runtime == nil)
        flux.dispatcher.dispatch(.bump)
        #expect(flux.store.state.bumps == 2)
    }

    @Test func loadingAgainIsRefusedAndChangesNothing() throws {
        let app = try App()
        #expect(
            app.shell.run("load shop as other").first?.hasPrefix("error: 'shop' is the app's store, attached already")
                == true)
        #expect(app.session.loadedAliases == ["shop"])
    }

    /// The app's thread and the shell's dispatch at once: each step is told apart by the thread
    /// that delivered it, and every change is seen exactly once.
    @Test func theAppsThreadAndTheShellInterleaveWithoutLosingAChange() throws {
        let app = try App()
        let appThread = DispatchQueue(label: "app")
        let group = DispatchGroup()
        let dispatcher = app.flux.dispatcher
        appThread.async(group: group) {
            for _ in 0..<2_000 { dispatcher.dispatch(.bump) }
        }
        var shellAdds = 0
        for _ in 0..<200 {
            let lines = app.shell.run("dispatch add title: \"x\" quantity: 1")
            #expect(lines.count == 2)
            if lines.last?.hasPrefix("~ total: ") == true { shellAdds += 1 }
            _ = app.appLines()
        }
        group.wait()
        _ = app.appLines()
        #expect(shellAdds == 200)
        #expect(app.shell.run("state bumps") == ["2000"])
        #expect(app.shell.run("state total") == ["200"])
        // NB: an attached session's history keeps the last 200 steps at least (forgetting 48 at a
        // time once it holds 248).
        #expect((200..<248).contains(app.session.undoableSteps))
    }

    /// Two stores on one dispatcher: the shell's action is dispatched once, and each store's
    /// paths begin with its alias.
    @Test func storesSharingADispatcherAreServedTogether() throws {
        let dispatcher = Dispatcher<ShopAction>()
        dispatcher.use(bumpingOnNote())
        let shop = Flux(state: ShopState(), mutation: ShopMutation(), dispatcher: dispatcher)
        let mirror = Flux(state: ShopState(), mutation: ShopMutation(), dispatcher: dispatcher)
        let shell = Transcript(
            session: try Session(attachingTo: [LiveStore(shop, as: "shop"), LiveStore(mirror, as: "mirror")], wake: {}))
        #expect(
            shell.run("dispatch note \"x\"") == [
                #"~ shop.note: null -> "x""#, #"~ mirror.note: null -> "x""#, "=> bump", "~ shop.bumps: 0 -> 1",
                "~ mirror.bumps: 0 -> 1",
            ])
        #expect(shop.store.state.bumps == 1 && mirror.store.state.bumps == 1)
        dispatcher.dispatch(.bump)
        var output = OutputBuffer()
        for step in shell.session.takeAppSteps() { Renderer().write(step, to: &output) }
        #expect(output.text == "<= bump\n~ shop.bumps: 1 -> 2\n~ mirror.bumps: 1 -> 2\n")
        #expect(
            shell.run("undo 2") == [
                "~ shop.note: \"x\" -> null", "~ shop.bumps: 2 -> 0", "~ mirror.note: \"x\" -> null",
                "~ mirror.bumps: 2 -> 0", "(undid step 2: bump, which the app dispatched)",
                "(undid step 1: note x, which this shell dispatched)",
            ])
        #expect(mirror.store.state == ShopState())
        #expect(shell.run("use mirror") == [])
        #expect(shell.run("state bumps") == ["0"])
    }

    /// One shell's `undo` sets the app's stores: another attached shell takes their states again.
    @Test func anotherShellsUndoIsSeenAsTheStoresSet() throws {
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let stores = [LiveStore(flux, as: "shop")]
        let first = Transcript(session: try Session(attachingTo: stores, wake: {}))
        let second = Transcript(session: try Session(attachingTo: stores, wake: {}))
        func lines(_ shell: Transcript) -> [String] {
            var output = OutputBuffer()
            for step in shell.session.takeAppSteps() { Renderer().write(step, to: &output) }
            return output.text.split(separator: "\n").map(String.init)
        }
        #expect(first.run("dispatch bump") == ["~ bumps: 0 -> 1"])
        #expect(lines(second) == ["<= bump", "~ bumps: 0 -> 1"])
        #expect(first.run("undo") == ["~ bumps: 1 -> 0", "(undid step 1: bump, which this shell dispatched)"])
        let seen = lines(second)
        #expect(seen.first == "(the app's stores were set from another shell)")
        #expect(seen.contains(#"  "bumps": 0"#))
        #expect(second.run("state bumps") == ["0"])
        let refused = second.run("save /tmp/never-written.scenario")
        #expect(refused.first?.hasPrefix("error: another shell set") == true, "\(refused)")
        flux.dispatcher.dispatch(.bump)
        #expect(lines(second) == ["<= bump", "~ bumps: 0 -> 1"])
        #expect(lines(first) == ["<= bump", "~ bumps: 0 -> 1"])
    }

    @Test func storesOnDifferentDispatchersAreRefused() throws {
        let one = Flux(state: ShopState(), mutation: ShopMutation())
        let two = Flux(state: ShopState(), mutation: ShopMutation())
        #expect(throws: ShellError.self) {
            _ = try Session(attachingTo: [LiveStore(one, as: "a"), LiveStore(two, as: "b")], wake: {})
        }
    }
}
