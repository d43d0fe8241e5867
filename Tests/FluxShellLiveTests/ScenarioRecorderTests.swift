import Dispatch
import FluxCore
import FluxShellFixtures
import FluxShellTestSupport
import Foundation
import Testing

@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues
@testable import FluxStores

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

struct ScenarioRecorderTests {
    /// The shell's registration of the same store; with `effect`, the shell does what the app's
    /// middleware does.
    static func catalog(withEffect: Bool = false) -> StoreCatalog {
        StoreCatalog([
            StoreDefinition("shop", state: ShopState(), mutation: ShopMutation(), effect: withEffect ? bumpOnNote : nil)
        ])
    }

    static func scratchFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)-\(name)").path
    }

    static func lines(of path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(
            String.init)
    }

    static func replay(_ path: String, catalog: StoreCatalog = catalog()) -> ScenarioRunner.Result {
        ScenarioRunner(catalog: catalog).run(path)
    }

    @Test func concurrentDispatchesAreRecordedOneLineEachAndReplay() throws {
        let path = Self.scratchFile("concurrent.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        let threads = 4
        let perThread = 50
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                switch index % 5 {
                case 0: flux.dispatcher.dispatch(.add(title: "say \"hi\" # to \(thread)\\\(index)", quantity: index))
                case 1: flux.dispatcher.dispatch(.add(title: "plain\(thread)", quantity: -1))
                case 2: flux.dispatcher.dispatch(.note(index % 2 == 0 ? nil : "a note, from \(thread)"))
                case 3: flux.dispatcher.dispatch(.note("ünïcødé ✓ \t tab"))
                default:
                    if index % 20 == 4 { flux.dispatcher.dispatch(.clear) } else { flux.dispatcher.dispatch(.bump) }
                }
            }
        }
        try recorder.finish()

        let lines = try Self.lines(of: path)
        #expect(lines.first == "load shop")
        #expect(lines.last == "")  // the file ends with a newline
        #expect(lines.filter { $0.hasPrefix("dispatch ") }.count == threads * perThread)
        #expect(lines.count == 1 + threads * perThread + 1 + 1)
        #expect(lines[lines.count - 2].hasPrefix("expect . == {\"items\":"))
        #expect(lines.contains("dispatch note null"))
        #expect(lines.contains(#"dispatch add title: "say \"hi\" # to 0\\0" quantity: 0"#))
        let result = Self.replay(path)
        #expect(result.passed, "\(result.report.joined(separator: "\n"))")
        #expect(recorder.error == nil)
    }

    @Test func theExpectLineHoldsTheAppsState() throws {
        let path = Self.scratchFile("state.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        flux.dispatcher.dispatch(.add(title: "Buy milk", quantity: 2))
        flux.dispatcher.dispatch(.note(nil))
        flux.dispatcher.dispatch(.clear)
        flux.dispatcher.dispatch(.add(title: "tea", quantity: 1))
        try recorder.finish()

        #expect(
            try Self.lines(of: path) == [
                "load shop",
                #"dispatch add title: "Buy milk" quantity: 2"#,
                "dispatch note null",
                "dispatch clear",
                "dispatch add title: tea quantity: 1",
                #"expect . == {"items":["tea"],"total":1,"note":null,"bumps":0}"#,
                "",
            ])
        // NB: a replay must be able to fail: the same file against a store that starts elsewhere.
        let shifted = StoreCatalog([StoreDefinition("shop", state: ShopState(bumps: 5), mutation: ShopMutation())])
        #expect(!Self.replay(path, catalog: shifted).passed)
        #expect(Self.replay(path).passed)
    }

    /// An attached shell's `undo`, `redo` and `reset` set the app's store: the recording writes
    /// the `undo N` or `redo N` that takes the replay to the same state, so the recording replays
    /// to the app's state; the agent's `LiveStore` and the recorder's are made apart, as an app
    /// makes them.
    @Test func anAttachedShellsUndoRedoAndResetAreRecordedAndReplay() throws {
        for form in ["flux", "hooked"] {
            let path = Self.scratchFile("undo-\(form).scenario")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let flux = Flux(state: ShopState(), mutation: ShopMutation())
            let hub = LockedValue<LiveStore?>(nil)
            func live() -> LiveStore {
                guard form == "hooked" else { return LiveStore(flux, as: "shop") }
                return hub.withLock { hub in
                    if let hub { return hub }
                    let made = LiveStore(
                        as: "shop", state: { flux.store.state }, send: { flux.dispatcher.dispatch($0) },
                        restore: { _ = flux.store.replace(with: $0) })
                    hub = made
                    return made
                }
            }
            if form == "hooked" {
                let hooked = live()
                flux.dispatcher.register { [flux] action in hooked.record(action, state: flux.store.state) }
            }
            let recorder = try ScenarioRecorder(recording: live(), to: path)
            flux.dispatcher.dispatch(.add(title: "milk", quantity: 1))
            let shell = Transcript(session: try Session(attachingTo: [live()], wake: {}))
            _ = shell.run("dispatch add title: tea quantity: 2")
            _ = shell.run("undo")
            flux.dispatcher.dispatch(.bump)
            _ = shell.session.takeAppSteps()
            _ = shell.run("undo")
            _ = shell.run("redo")
            _ = shell.run("dispatch note done")
            _ = shell.run("reset")
            try recorder.finish()
            let lines = try Self.lines(of: path)
            #expect(
                Array(lines.dropLast(2)) == [
                    "load shop",
                    "dispatch add title: milk quantity: 1",
                    "dispatch add title: tea quantity: 2",
                    "undo",
                    "dispatch bump",
                    "undo",
                    "redo",
                    "dispatch note done",
                    "undo 2",
                ], "\(form)")
            #expect(lines.dropLast().last == #"expect . == {"items":["milk"],"total":1,"note":null,"bumps":0}"#)
            let replayed = Self.replay(path)
            #expect(replayed.passed, "\(form): \(replayed.failures)")
        }
    }

    /// What the app's observers dispatch when a shell sets the store comes after the `undo` line
    /// that set it, as it came after in the app.
    @Test func whatObserversDispatchAfterAnUndoIsWrittenAfterIt() throws {
        let path = Self.scratchFile("observed.scenario")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let armed = LockedValue(false)
        flux.store.observe { [flux] _ in
            let fires = armed.withLock { armed in
                defer { armed = false }
                return armed
            }
            if fires { flux.dispatcher.dispatch(.bump) }
        }
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        let shell = Transcript(session: try Session(attachingTo: [LiveStore(flux, as: "shop")], wake: {}))
        _ = shell.run("dispatch add title: tea quantity: 2")
        armed.withLock { $0 = true }
        _ = shell.run("undo")
        try recorder.finish()
        #expect(flux.store.state == ShopState(bumps: 1))
        let lines = try Self.lines(of: path)
        #expect(
            Array(lines.dropLast(2)) == ["load shop", "dispatch add title: tea quantity: 2", "undo", "dispatch bump"])
        let replayed = Self.replay(path)
        #expect(replayed.passed, "\(replayed.failures)")
    }

    /// A shell that undoes its `reset` after a `dispatch` (which took the steps after the reset
    /// out of the replay's history) sets the store to a state no `undo` of the replay reaches: the
    /// recording says so where it happens, and its last `expect` fails on replay, at that line.
    @Test func aStateTheReplayCannotReachIsSaidWhereItHappens() throws {
        let path = Self.scratchFile("unreachable.scenario")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        let shell = Transcript(session: try Session(attachingTo: [LiveStore(flux, as: "shop")], wake: {}))
        _ = shell.run("dispatch add title: tea quantity: 2")
        _ = shell.run("reset")
        _ = shell.run("dispatch bump")
        _ = shell.run("undo")
        _ = shell.run("undo")
        try recorder.finish()
        let lines = try Self.lines(of: path)
        #expect(
            Array(lines.dropLast(2)) == [
                "load shop",
                "dispatch add title: tea quantity: 2",
                "undo",
                "dispatch bump",
                "undo",
                "# an attached shell set the store to a state that no undo or redo here reaches; the replay parts from the app from here",
            ])
        #expect(flux.store.state.items == ["tea"])
        #expect(!Self.replay(path).passed)
    }

    /// The workflow the README gives: a recording passes, since it is what happened; its last
    /// `expect` rewritten to what should have been makes it fail at that line, the bug reproduced.
    @Test func aRecordingPassesUntilItsLastExpectSaysWhatShouldHaveBeen() throws {
        let path = Self.scratchFile("bug.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        flux.dispatcher.dispatch(.add(title: "tea", quantity: 1))
        flux.dispatcher.dispatch(.clear)
        try recorder.finish()
        #expect(Self.replay(path).passed)
        var lines = try Self.lines(of: path)
        let last = try #require(lines.lastIndex { $0.hasPrefix("expect . == ") })
        lines[last] = #"expect . == {"items":["tea"],"total":1,"note":null,"bumps":0}"#
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = Self.replay(path)
        #expect(!result.passed)
        #expect(result.failures.map(\.location?.line) == [last + 1])
    }

    @Test func aFollowUpIsACommentThatTheStoresEffectReplays() throws {
        let path = Self.scratchFile("follow-up.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        flux.dispatcher.use(bumpingOnNote())
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        flux.dispatcher.dispatch(.note("ping"))
        flux.dispatcher.dispatch(.bump)
        try recorder.finish()

        #expect(
            try Self.lines(of: path) == [
                "load shop",
                "dispatch note ping",
                "# => bump (a follow-up; the store's effect dispatches it on replay)",
                "dispatch bump",
                #"expect . == {"items":[],"total":0,"note":"ping","bumps":2}"#,
                "",
            ])
        let replayed = Self.replay(path, catalog: Self.catalog(withEffect: true))
        #expect(replayed.passed, "\(replayed.report.joined(separator: "\n"))")
        // Without the effect, the follow-up is missing from the replay, and the last line says so.
        #expect(!Self.replay(path).passed)
    }

    /// Found in review: an answer dispatched later, from a `Task` (a network response), is an
    /// ordinary `dispatch` line; a shell store whose `effect` also answers applies it twice. The
    /// README's advice: record under a name of its own, registered without that effect.
    @Test func anAnswerFromATaskIsADispatchLineThatAStoreWithoutTheEffectReplays() async throws {
        let path = Self.scratchFile("task.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "shopRecorded", to: path)
        flux.dispatcher.dispatch(.note("ping"))
        await Task { flux.dispatcher.dispatch(.bump) }.value
        try recorder.finish()

        #expect(
            try Self.lines(of: path) == [
                "load shopRecorded",
                "dispatch note ping",
                "dispatch bump",
                #"expect . == {"items":[],"total":0,"note":"ping","bumps":1}"#,
                "",
            ])
        func catalog(withEffect: Bool) -> StoreCatalog {
            StoreCatalog([
                StoreDefinition("shop", state: ShopState(), mutation: ShopMutation(), effect: bumpOnNote),
                StoreDefinition(
                    "shopRecorded", state: ShopState(), mutation: ShopMutation(), effect: withEffect ? bumpOnNote : nil),
            ])
        }
        let doubled = Self.replay(path, catalog: catalog(withEffect: true))
        #expect(doubled.report.contains { $0.contains("error: expectation failed: . == ") }, "\(doubled.report)")
        let replayed = Self.replay(path, catalog: catalog(withEffect: false))
        #expect(replayed.passed, "\(replayed.report.joined(separator: "\n"))")
    }

    @Test func stoppedActionsAreNotRecordedAndReplacedOnesAreRecordedAsDelivered() throws {
        let path = Self.scratchFile("middleware.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        // NB: the recorder comes first, so it sees each action before the middleware decides.
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        flux.dispatcher.use(
            AnyMiddleware(willDispatch: { action, _ in
                switch action {
                case .note("secret"): .stop
                case .add("typo", let quantity): .replace(.add(title: "fixed", quantity: quantity))
                default: .pass
                }
            }))
        flux.dispatcher.dispatch(.note("secret"))
        flux.dispatcher.dispatch(.add(title: "typo", quantity: 3))
        try recorder.finish()

        #expect(
            try Self.lines(of: path) == [
                "load shop",
                "dispatch add title: fixed quantity: 3",
                #"expect . == {"items":["fixed"],"total":3,"note":null,"bumps":0}"#,
                "",
            ])
        #expect(Self.replay(path).passed)
    }

    @Test func anActionWithNoTextFormIsACommentAndRecordingGoesOn() throws {
        let path = Self.scratchFile("closure.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        flux.dispatcher.dispatch(.attach({}))
        flux.dispatcher.dispatch(.bump)
        try recorder.finish()

        let lines = try Self.lines(of: path)
        #expect(lines.count == 5)
        #expect(lines[1].hasPrefix("# not replayable: attach "), "\(lines[1])")
        #expect(lines[1].contains("has no text form"), "\(lines[1])")
        #expect(lines[2] == "dispatch bump")
        #expect(Self.replay(path).passed)
    }

    @Test func finishTwiceIsHarmlessAndLaterActionsAreNotRecorded() throws {
        let path = Self.scratchFile("twice.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
        flux.dispatcher.dispatch(.bump)
        try recorder.finish()
        let finished = try Self.lines(of: path)
        flux.dispatcher.dispatch(.bump)
        try recorder.finish()

        #expect(try Self.lines(of: path) == finished)
        #expect(finished.count == 4)
        #expect(flux.store.state.bumps == 2)
        #expect(Self.replay(path).passed)
    }

    @Test func releasingTheRecorderClosesTheFileWithoutAnExpectation() throws {
        let path = Self.scratchFile("released.scenario")
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        weak var released: ScenarioRecorder?
        do {
            let recorder = try ScenarioRecorder(recording: flux, as: "shop", to: path)
            released = recorder
            flux.dispatcher.dispatch(.bump)
        }
        flux.dispatcher.dispatch(.clear)

        #expect(released == nil)
        #expect(try Self.lines(of: path) == ["load shop", "dispatch bump", ""])
        #expect(flux.store.state.bumps == 1)
    }

    @Test func aFileThatCannotBeCreatedThrowsAtOnce() throws {
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        #expect(
            throws: ShellError(
                "cannot create '/nonexistent-folder/s.scenario': folder '/nonexistent-folder' does not exist")
        ) {
            try ScenarioRecorder(recording: flux, as: "shop", to: "/nonexistent-folder/s.scenario")
        }
        let folder = FileManager.default.temporaryDirectory.path
        #expect(throws: ShellError.self) { try ScenarioRecorder(recording: flux, as: "shop", to: folder) }
        #expect(throws: ShellError.self) {
            try ScenarioRecorder(recording: flux, as: "two words", to: Self.scratchFile("x"))
        }
        flux.dispatcher.dispatch(.bump)
        #expect(flux.store.state.bumps == 1)
    }

    @Test func aFullDiskIsReportedOnceAndDispatchGoesOn() throws {
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let reports = Locked<[String]>([])
        let recorder = ScenarioRecorder(
            recording: LiveStore(flux, as: "shop"), file: try OutputFile.create("/dev/full"), path: "/dev/full",
            report: { message in reports.set(reports.get() + [message]) })
        for _ in 0..<3 { flux.dispatcher.dispatch(.bump) }

        #expect(flux.store.state.bumps == 3)
        #expect(
            reports.get() == ["ScenarioRecorder: cannot write /dev/full: no space left on device; recording stopped\n"])
        #expect(recorder.error == ShellError("cannot write /dev/full: no space left on device"))
        #expect(throws: recorder.error!) { try recorder.finish() }
        #expect(reports.get().count == 1)
    }

    /// The public initializer writes the `load` line before it returns: `/dev/full` opens, and
    /// the first write fails, so recording does not start.
    @Test func recordingToDevFullThrowsAtOnce() throws {
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        #expect(throws: ShellError("cannot create '/dev/full': no space left on device")) {
            try ScenarioRecorder(recording: flux, as: "shop", to: "/dev/full")
        }
        flux.dispatcher.dispatch(.bump)
        #expect(flux.store.state.bumps == 1)
    }

    @Test func aWriteFailingMidwayStopsTheRecordingAfterTheLinesWritten() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let reports = Locked<[String]>([])
        let recorder = ScenarioRecorder(
            recording: LiveStore(flux, as: "shop"), file: OutputFile(descriptor: ends[1]), path: "pipe",
            report: { message in reports.set(reports.get() + [message]) })
        flux.dispatcher.dispatch(.bump)
        // Fill the pipe: the recorder's next write finds no room and fails (EAGAIN).
        #expect(fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK) == 0)
        var buffered = 0
        var byte: UInt8 = 0x2E
        while write(ends[1], &byte, 1) == 1 { buffered += 1 }
        flux.dispatcher.dispatch(.clear)
        flux.dispatcher.dispatch(.bump)

        #expect(flux.store.state.bumps == 2)
        #expect(reports.get().count == 1)
        #expect(reports.get().first?.hasPrefix("ScenarioRecorder: cannot write pipe: ") == true)
        #expect(recorder.error != nil)
        var received = [UInt8](repeating: 0, count: 64)
        let count = read(ends[0], &received, received.count)
        #expect(
            String(decoding: received.prefix(max(0, count)), as: UTF8.self).hasPrefix("load shop\ndispatch bump\n..."))
        #expect(buffered > 0)
    }

    /// Found in review: recording to a pipe whose reader went away (`/dev/stdout` piped into
    /// `head`) killed the app with SIGPIPE. (A socket whose reader shut down reading fails the
    /// same way, and no process started by another test at that moment can keep it open.)
    @Test func aPipeWhoseReaderWentAwayIsReportedOnceAndDispatchGoesOn() throws {
        let ends = try SocketPair.connected()
        let file = OutputFile(descriptor: ends.writer)
        let flux = Flux(state: ShopState(), mutation: ShopMutation())
        let reports = Locked<[String]>([])
        let recorder = ScenarioRecorder(
            recording: LiveStore(flux, as: "shop"), file: file, path: "pipe",
            report: { message in reports.set(reports.get() + [message]) })
        flux.dispatcher.dispatch(.bump)
        var received = [UInt8](repeating: 0, count: 64)
        let count = read(ends.reader, &received, received.count)
        #expect(String(decoding: received.prefix(max(0, count)), as: UTF8.self) == "load shop\ndispatch bump\n")
        #expect(SocketPair.breakReading(ends.reader))
        for _ in 0..<3 { flux.dispatcher.dispatch(.bump) }

        #expect(flux.store.state.bumps == 4)
        #expect(reports.get() == ["ScenarioRecorder: cannot write pipe: broken pipe; recording stopped\n"])
        #expect(recorder.error == ShellError("cannot write pipe: broken pipe"))
        #expect(throws: recorder.error!) { try recorder.finish() }
        #expect(reports.get().count == 1)
    }

    /// The replay goes through a real executable: an app records the repository search (its
    /// middleware answers each search at once), and `fluxsh test`, whose `search` store answers
    /// from its effect, passes the file.
    @Test func fluxshReplaysARecordedSession() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("recorder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("session.scenario").path
        let flux = Flux(state: SearchState(), mutation: SearchMutation())
        flux.dispatcher.use(
            AnyMiddleware(didDispatch: { action, dispatcher in
                switch action {
                case .search(let query): dispatcher.dispatch(RepositoryFixture.response(query: query, page: 1))
                case .nextPage:
                    dispatcher.dispatch(
                        RepositoryFixture.response(query: flux.store.state.query, page: flux.store.state.page + 1))
                case .searchResponse: break
                }
            }))
        let recorder = try ScenarioRecorder(recording: flux, as: "search", to: path)
        flux.dispatcher.dispatch(.search(query: "swift"))
        flux.dispatcher.dispatch(.nextPage)
        flux.dispatcher.dispatch(.search(query: "flux"))
        try recorder.finish()

        let lines = try Self.lines(of: path)
        #expect(
            lines.filter { $0.hasPrefix("dispatch ") } == [
                "dispatch search query: swift", "dispatch nextPage", "dispatch search query: flux",
            ])
        #expect(lines.filter { $0.hasPrefix("# => searchResponse page: ") }.count == 3)
        let result = try Fluxsh.run(["test", "--no-color", "session.scenario"], in: folder)
        #expect(result.stdout == "PASS session.scenario\n1 passed, 0 failed\n", "\(result.stdout)\(result.stderr)")
        #expect(result.status == 0)
        // The same file with one response dispatched for real fails: it would come twice.
        let suffix = " (a follow-up; the store's effect dispatches it on replay)"
        let doubled = lines.map { line in
            guard line.hasPrefix("# => searchResponse page: 1 "), line.hasSuffix(suffix) else { return line }
            return "dispatch " + line.dropFirst(5).dropLast(suffix.count)
        }
        try doubled.joined(separator: "\n").write(
            to: folder.appendingPathComponent("doubled.scenario"), atomically: true, encoding: .utf8)
        let failed = try Fluxsh.run(["test", "--no-color", "doubled.scenario"], in: folder)
        #expect(failed.stdout.hasPrefix("FAIL doubled.scenario\n"), "\(failed.stdout)")
        #expect(failed.stdout.contains("\ndoubled.scenario:\(lines.count - 1): error: expectation failed: . == "))
        #expect(failed.status == 1)
    }
}
