import FluxShellLive
import FluxShellSystem
import Testing

@testable import FluxShellMCP

/// The server's conversation with a session: a line whose answer does not come in time (an app
/// whose main thread is blocked) is an error, and its answer, when it comes late, is dropped, so
/// that the next line gets its own.
struct ConversationBridgeTests {
    /// A session that answers the hello at once and each line only when told to.
    final class SlowApp: PageConversations, PageConversation {
        private let lock = LockedValue<(@Sendable (String) -> Void)?>(nil)

        func open(send: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void)
            -> any PageConversation
        {
            lock.withLock { $0 = send }
            return self
        }

        func receive(_ line: String) async {
            if line.hasPrefix(#"{"fluxsh""#) { say(AttachWire.Frame.attached(name: "app", prompt: "app> ").line) }
        }

        func close() {}

        /// Answers the oldest line not answered yet with `text` and its `done`.
        func answer(_ text: String, line: Int) {
            say(AttachWire.Frame.out(text).line)
            say(AttachWire.Frame.done(line: line, failed: false, prompt: "app> ").line)
        }

        private func say(_ line: String) { lock.withLock { $0 }?(line) }
    }

    @Test func aLineNotAnsweredInTimeIsAnErrorAndItsLateAnswerIsDropped() async throws {
        let app = SlowApp()
        let bridge = try await ConversationBridge(app, program: "fluxsh", answerLimit: .milliseconds(100)) { _ in }
        let late = await bridge.run("dispatch block")
        #expect(late.failed)
        #expect(late.lines.first?.hasPrefix("error: the session did not answer within 0 s") == true, "\(late.lines)")
        app.answer("~ blocked: false -> true", line: 1)
        // NB: the next line's answer may come before or after the line is sent: either way it is its.
        async let next = bridge.run("state count")
        app.answer("7", line: 2)
        let answered = await next
        #expect(answered.lines == ["7"] && !answered.failed, "\(answered.lines)")
    }
}
