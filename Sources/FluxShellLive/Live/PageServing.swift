import FluxShellSystem

/// What serves the devtools page in a browser (`web`, `attach NAME --web`): the FluxShellWeb
/// product's `WebPage`, which a shell passes to `FluxShellMain.run(catalog:page:)`. The command
/// line knows only this, so a shell that does not link the page builds without its server.
@_documentation(visibility: internal)
public protocol PageServing {
    /// Serves the page for `conversations` on 127.0.0.1 (port `port`, or a free one), calling
    /// `ready` with its address (`http://127.0.0.1:PORT/?token=TOKEN`) once it listens. Does not
    /// return: it throws when it cannot listen, or (after `ready`) when it can no longer serve.
    static func serve(_ conversations: any PageConversations, port: Int?, ready: @escaping @Sendable (String) -> Void)
        throws(ShellError)
}

/// Where the tabs of the page talk to: a session of local stores, or a running app. Each tab
/// speaks the attach protocol (reference: "The protocol"), one line a message each way.
@_documentation(visibility: internal)
public protocol PageConversations: Sendable {
    /// Opens a tab's conversation: what it answers goes to `send`, from any thread, in order;
    /// `end` is called when the other side ends it (the line before was a `bye`). `send` waits
    /// while the tab is far behind in reading (flow control): call it from a thread that may wait.
    func open(send: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void) -> any PageConversation
}

/// One tab's conversation.
@_documentation(visibility: internal)
public protocol PageConversation: Sendable {
    /// A line from the tab; returns once its answers were given to `send`, so that a tab that
    /// floods waits for its own commands.
    func receive(_ line: String) async
    /// The tab went away.
    func close()
}

/// What serves a session to an agent over the Model Context Protocol on standard input and
/// output (`mcp`, `attach NAME --mcp`): the FluxShellMCP product's `MCPServer`, which a shell
/// passes to `FluxShellMain.run(catalog:tools:)`. The command line knows only this, so a shell
/// that does not link it builds without the protocol's SDK.
@_documentation(visibility: internal)
public protocol ToolServing {
    /// Serves one conversation of `conversations` (a session of local stores, or a running app)
    /// to the client on standard input and output until the client leaves; throws why it stopped
    /// otherwise (the app ended the session). `program` names the shell to the client.
    static func serve(_ conversations: any PageConversations, program: String) throws(ShellError)
}
