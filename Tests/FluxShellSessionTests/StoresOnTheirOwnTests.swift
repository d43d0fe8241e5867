import FluxShellFixtures
import FluxShellSession
import Testing

/// Stores that change with no command of the shell's: each change prints once, as a step of its
/// own, never inside another command's diff ("Stores that change on their own" in the reference).
@Suite struct StoresOnTheirOwnTests {
    /// A class-based store whose library changes it later, on a thread of its own: here, the
    /// test, between two commands.
    final class Thermostat {
        var degrees = 20
        var log: [String] = []

        enum Action {
            case set(Int)
            case note(String)
        }

        struct Snapshot {
            var degrees: Int
            var log: [String]
        }

        var snapshot: Snapshot { Snapshot(degrees: degrees, log: log) }

        func send(_ action: Action) {
            switch action {
            case .set(let value): degrees = value
            case .note(let text): log.append(text)
            }
        }
    }

    /// The stores a definition made, newest last.
    final class Made { var stores: [Thermostat] = [] }

    /// A shell that registers the thermostat, with `restore:` when `restores`; and the last
    /// store its loads made.
    static func shell(restores: Bool = false) -> (Transcript, () -> Thermostat) {
        let made = Made()
        let shell = StoreForms.shell(
            StoreDefinition(
                "thermostat",
                make: { () -> Thermostat in
                    let store = Thermostat()
                    made.stores.append(store)
                    return store
                }, state: { $0.snapshot }, send: { store, action in store.send(action) },
                restore: restores
                    ? { store, snapshot in (store.degrees, store.log) = (snapshot.degrees, snapshot.log) } : nil))
        return (shell, { made.stores.last! })
    }

    @Test func aChangeNoCommandMadePrintsBeforeTheNextCommandAndNotInItsDiff() {
        let (shell, store) = Self.shell()
        shell.run("load thermostat")
        #expect(shell.run("dispatch set 21") == ["~ degrees: 20 -> 21"])
        store().degrees = 25
        #expect(
            shell.run("dispatch note warm") == [
                "<= (the store changed by itself)", "~ degrees: 21 -> 25", "+ log[0]: \"warm\"",
            ])
        // Read afresh: what the store holds now.
        store().degrees = 26
        #expect(shell.run("state degrees") == ["<= (the store changed by itself)", "~ degrees: 25 -> 26", "26"])
        #expect(shell.run("state degrees") == ["26"])
    }

    @Test func aChangeOnItsOwnIsAStepOfTheHistory() {
        let (shell, store) = Self.shell()
        shell.run("load thermostat")
        shell.run("dispatch set 21")
        store().degrees = 25
        shell.run("dispatch note warm")
        #expect(shell.run("history") == ["  1  set 21", "  2  (the store changed by itself)", "  3  note warm"])
        #expect(
            shell.run("why degrees") == [
                "  1  set 21", "     ~ degrees: 20 -> 21", "  2  (the store changed by itself)",
                "     ~ degrees: 21 -> 25",
            ])
        // Without restore:, a store object's state is made again by a new store sent the kept
        // actions, which no longer reach a state the store reached on its own.
        #expect(
            shell.run("undo") == [
                "error: store 'thermostat' cannot make that state again: it changed on its own on the way there, which a new store sent the same actions does not repeat (give its StoreDefinition restore: { store, state in … } to set its state)"
            ])
        #expect(shell.run("undo 2") == ["~ degrees: 25 -> 21", "- log[0]: \"warm\""])
        #expect(shell.run("redo").first?.hasPrefix("error: store 'thermostat' cannot make that state again") == true)
        #expect(shell.run("redo 2").first?.hasPrefix("error: store 'thermostat' cannot make that state again") == true)
        #expect(shell.run("state degrees") == ["21"])
    }

    @Test func aStoreWithRestoreUndoesAChangeOnItsOwn() {
        let (shell, store) = Self.shell(restores: true)
        shell.run("load thermostat")
        store().degrees = 30
        #expect(
            shell.run("dispatch note hot") == [
                "<= (the store changed by itself)", "~ degrees: 20 -> 30", "+ log[0]: \"hot\"",
            ])
        #expect(shell.run("undo 2") == ["~ degrees: 30 -> 20", "- log[0]: \"hot\""])
        #expect(shell.run("redo") == ["~ degrees: 20 -> 30"])
        #expect(store().degrees == 30)
    }
}
