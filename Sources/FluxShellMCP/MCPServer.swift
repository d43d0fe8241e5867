import Dispatch
import FluxShellLive
import FluxShellSystem
import Logging
import MCP

/// The Model Context Protocol on standard input and output, for `fluxsh mcp` and `fluxsh attach
/// NAME --mcp` (reference: "Agents"): a shell passes `tools: MCPServer.self` to
/// `FluxShellMain.run`. An agent drives and reads the session with the tools of ``SessionTools``,
/// each answered with the lines the shell prints for its command, `isError` when it failed.
public enum MCPServer: ToolServing {
    public static func serve(_ conversations: any PageConversations, program: String) throws(ShellError) {
        let finished = DispatchSemaphore(value: 0)
        let outcome = LockedValue<ShellError?>(nil)
        Task {
            do {
                try await run(conversations, program: program)
            } catch let error as ShellError {
                outcome.withLock { $0 = error }
            } catch {
                outcome.withLock { $0 = ShellError("the protocol's transport failed: \(error)") }
            }
            finished.signal()
            MainQueue.wake()
        }
        // NB: on the main thread, which runs a local session's jobs meanwhile (see `LocalConversations`).
        MainQueue.wait(for: finished)
        if let error = outcome.withLock({ $0 }) { throw error }
    }

    /// Serves until the client leaves (standard input ends), or the session ends.
    private static func run(_ conversations: any PageConversations, program: String) async throws {
        // NB: standard output carries the protocol only; the SDK's own log lines go nowhere.
        let quiet = Logger(label: "fluxsh.mcp", factory: { _ in SwiftLogNoOpLogHandler() })
        let server = Server(
            name: program, version: "1.0",
            instructions:
                "A \(program) session: stores whose actions you dispatch as text, whose state you read and whose diffs you see. Call run with 'help' for the whole command language.",
            capabilities: .init(tools: .init(listChanged: true)))
        let endedBy = LockedValue<String?>(nil)
        let bridge = try await ConversationBridge(conversations, program: program) { reason in
            endedBy.withLock { $0 = reason }
            Task { await server.stop() }
        }
        // NB: the calls being answered, which the server waits for once the client's input ended.
        let answering = LockedValue(0)
        await server.withMethodHandler(ListTools.self) { _ in
            .init(tools: SessionTools.tools(actions: await bridge.actions()))
        }
        await server.withMethodHandler(CallTool.self) { call in
            answering.withLock { $0 += 1 }
            defer { answering.withLock { $0 -= 1 } }
            let line: String
            do throws(SessionTools.Refusal) {
                line = try SessionTools.line(for: call.name, arguments: call.arguments)
            } catch {
                return .init(
                    content: [.text(text: "error: \(error.message)", annotations: nil, _meta: nil)], isError: true)
            }
            let reply = await bridge.run(line)
            // NB: a store loaded, or made active, changes the `dispatch` tool's description; a
            // file `read` runs may do either.
            let word = line.drop { $0 == "!" || $0 == " " }.split(separator: " ").first ?? ""
            // NB: a `read` that failed may have loaded a store before the line that failed.
            if word == "read" || (!reply.failed && (word == "load" || word == "use")) {
                try? await server.notify(ToolListChangedNotification.message())
            }
            let text = reply.lines.isEmpty ? "(nothing printed)" : reply.lines.joined(separator: "\n")
            return .init(content: [.text(text: text, annotations: nil, _meta: nil)], isError: reply.failed)
        }
        let output = Platform.takeStandardOutput() ?? 1
        try await server.start(transport: LineTransport(logger: quiet, output: output))
        await server.waitUntilCompleted()
        // NB: a call that came just before the end of the input still gets its answer.
        for _ in 0..<3_000 where answering.withLock({ $0 }) > 0 { try? await Task.sleep(for: .milliseconds(10)) }
        await bridge.close()
        if let reason = endedBy.withLock({ $0 }), reason != AttachWire.detached {
            throw ShellError(reason)
        }
    }
}
