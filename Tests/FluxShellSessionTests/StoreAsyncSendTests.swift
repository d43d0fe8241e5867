import FluxShellFixtures
import FluxShellSession
import Foundation
import Testing

/// Store objects whose `send:` is `async`: the shell awaits it, bounded in real time, and shows
/// its diff at its command ("Stores that change on their own" in the reference).
@Suite struct StoreAsyncSendTests {
    /// A model that applies each action on a queue of its own, and returns once it did; or
    /// sleeps on the session's clock first; or never returns.
    final class Model: @unchecked Sendable {
        // NB: @unchecked Sendable is safe: `count` is touched on `queue` or after it returned.
        enum Action {
            case add(Int)
            case addAfter(seconds: Int, Int)
            case hang
        }
        struct State { var count: Int }

        private let queue = DispatchQueue(label: "model")
        private let clock: any Clock<Duration>
        var count = 0

        init(clock: any Clock<Duration>) { self.clock = clock }

        func send(_ action: Action) async {
            switch action {
            case .add(let amount):
                await withCheckedContinuation { continuation in
                    queue.async {
                        self.count += amount
                        continuation.resume()
                    }
                }
            case .addAfter(let seconds, let amount):
                try? await clock.sleep(for: .seconds(seconds))
                count += amount
            case .hang:
                // NB: a continuation nobody resumes: the model waits for the world forever.
                await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
            }
        }
    }

    static func shell() -> Transcript {
        let shell = StoreForms.shell(
            StoreDefinition(
                "model", make: { env in Model(clock: env.clock) }, state: { Model.State(count: $0.count) },
                send: { model, action in await model.send(action) }))
        shell.session.effectTimeLimit = .milliseconds(300)
        return shell
    }

    @Test func theCommandShowsWhatTheAwaitedSendDid() {
        let shell = Self.shell()
        shell.run("load model")
        for index in 1...20 { #expect(shell.run("dispatch add 1") == ["~ count: \(index - 1) -> \(index)"]) }
        #expect(shell.run("undo 20") == ["~ count: 20 -> 0"])
        #expect(shell.run("redo 5") == ["~ count: 0 -> 5"])
    }

    @Test func aSendThatSleepsOnTheSessionClockEndsWithAdvance() {
        let shell = Self.shell()
        shell.run("load model")
        #expect(shell.run("dispatch addAfter seconds: 2 5") == ["(no changes)"])
        #expect(shell.run("effects") == ["effect 1 (addAfter seconds: 2 5): waits 2 s on the clock"])
        #expect(shell.run("advance 2") == ["~ count: 0 -> 5"])
        #expect(shell.run("effects") == ["(no effects running)"])
    }

    @Test func aCancelledSendChangesNothingTheShellDoesNotShow() {
        let shell = Self.shell()
        shell.run("load model")
        shell.run("dispatch addAfter seconds: 2 5")
        #expect(shell.run("cancel") == [])
        // NB: its sleep ended early and it went on: what it did then is no step of the command's,
        // and shows as a change of the store's own before the next command.
        #expect(
            shell.run("dispatch add 1") == ["<= (the store changed by itself)", "~ count: 0 -> 5", "~ count: 5 -> 6"])
        #expect(shell.run("effects") == ["(no effects running)"])
    }

    @Test func aSendThatNeverReturnsIsAnErrorAndTheSessionGoesOn() {
        let shell = Self.shell()
        shell.run("load model")
        #expect(
            shell.run("dispatch hang") == [
                "(no changes)",
                "error: store 'model': send: did not return within 0.3 s for 'hang' (an async send: is awaited until it returns; one that waits for the world forever (a continuation never resumed, a lock) is given up on)",
            ])
        #expect(shell.run("dispatch add 2") == ["~ count: 0 -> 2"])
    }
}
