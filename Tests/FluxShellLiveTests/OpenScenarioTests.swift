import FluxShellFixtures
import Testing

@testable import FluxShellLive
@testable import FluxShellRunner
@testable import FluxShellSession
@testable import FluxShellSystem

/// The page opens a scenario file (`{"open":…}`) in place of its local session: the scenario's
/// lines run in a new session, which waits paused at its first step.
struct OpenScenarioTests {
    final class Tab {
        let shell: AttachedShell

        init(readsFiles: Bool = true) {
            shell = AttachedShell(
                session: Session(catalog: Clocked.catalog), name: "fluxsh", readsFiles: readsFiles)
            var hello = AttachWire.Hello()
            hello.format = .text
            _ = send(hello.line)
        }

        /// Sends one line; returns the frames sent back.
        func send(_ line: String) -> [AttachWire.Frame] {
            var output = OutputBuffer()
            shell.receive((line + "\n").utf8, to: &output)
            return output.text.split(separator: "\n").compactMap { AttachWire.Frame(line: $0) }
        }

        func run(_ line: String) -> [String] {
            send(line).compactMap {
                switch $0 {
                case .out(let text), .err(let text): text
                default: nil
                }
            }
        }

        func open(_ scenario: String, file: String = "weather.scenario") -> AttachWire.Frame? {
            send(AttachWire.openRequest(scenario, file: file)).first
        }
    }

    static let scenario = """
        load clocked
        dispatch search a
        ~ query: "" -> "a"
        advance 0.3
        => response ["a-1","a-2"]
        + results[0]: "a-1"
        + results[1]: "a-2"
        dispatch search b
        ~ query: "a" -> "b"

        """

    /// The scenario's steps are the session's, the first one done and the others undone; walking
    /// forward redoes the states kept, and no effect runs again (the search that step 1 started
    /// answered in the scenario, and is not waiting to answer now).
    @Test func aScenarioOpensPausedAtItsFirstStepWithItsEffectsNotFiredAgain() {
        let tab = Tab()
        _ = tab.run("load clocked")
        _ = tab.run("dispatch search before")
        let answer = tab.open(Self.scenario)
        #expect(answer == .opened(file: "weather.scenario", isOpen: true, steps: 3, errors: [], prompt: "clocked> "))
        #expect(
            tab.run("history") == [
                "  1  search a", "  2  advance 0.3   (undone)", #"     => response ["a-1","a-2"]"#,
                "  3  search b   (undone)",
            ])
        #expect(tab.run("state query") == [#""a""#])
        #expect(tab.run("effects") == ["(no effects running)"])
        #expect(tab.run("redo") == [#"+ results[0]: "a-1""#, #"+ results[1]: "a-2""#])
        #expect(tab.run("redo") == [#"~ query: "a" -> "b""#])
        #expect(tab.run("effects") == ["(no effects running)"])
        #expect(tab.run("advance 1") == ["(no changes)"])
    }

    /// A line that fails leaves the session as it was, and says where; expected lines that do not
    /// hold open the scenario, to be inspected, and are told.
    @Test func aFailingLineOpensNothingAndAMismatchOpensAndIsTold() {
        let tab = Tab()
        _ = tab.run("load clocked")
        _ = tab.run("dispatch search before")
        guard case .opened(_, let isOpen, _, let errors, _)? = tab.open("load clocked\ndispatch nope\n") else {
            Issue.record("no answer")
            return
        }
        #expect(!isOpen)
        #expect(errors.count == 1 && errors[0].contains(#""line":2"#) && errors[0].contains("nope"))
        #expect(tab.run("state query") == [#""before""#])
        #expect(
            tab.open("")
                == .opened(
                    file: "weather.scenario", isOpen: false, steps: 0,
                    errors: [#"{"error":"'weather.scenario' loads no store"}"#], prompt: "clocked> "))
        guard
            case .opened(_, let opened, let steps, let mismatches, _)? = tab.open(
                "load clocked\ndispatch search x\n~ query: \"\" -> \"y\"\n")
        else {
            Issue.record("no answer")
            return
        }
        #expect(opened && steps == 1)
        #expect(mismatches.count == 1 && mismatches[0].contains(#""line":2"#))
        #expect(tab.run("state query") == [#""x""#])
        #expect(tab.open("not json", file: "") != nil)
        #expect(
            tab.send(#"{"open":7}"#).first
                == .opened(
                    file: "", isOpen: false, steps: 0,
                    errors: [#"{"error":"a scenario's text was expected: {\"open\":TEXT,\"file\":NAME}"}"#],
                    prompt: "clocked> "))
    }

    /// An app's page opens nothing: its stores are the app's.
    @Test func anAppsAgentOpensNothing() {
        let tab = Tab(readsFiles: false)
        _ = tab.run("load clocked")
        guard case .opened(_, let isOpen, _, let errors, _)? = tab.open(Self.scenario) else {
            Issue.record("no answer")
            return
        }
        #expect(!isOpen && errors.first?.contains("not in an app's") == true)
        #expect(tab.run("history") == ["(no actions dispatched yet)"])
    }
}
