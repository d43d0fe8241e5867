import FluxShell

/// `fluxsh mcp` and `fluxsh attach NAME --mcp`: the session served to an agent over the Model
/// Context Protocol on standard input and output (reference: "Agents"). Standard output carries
/// the protocol only; what goes wrong is said on standard error.
struct McpMode {
    let catalog: StoreCatalog
    let stores: [String]

    func run() -> Int32 {
        guard let tools = FluxShellMain.tools else { return Self.missing(catalog.programName) }
        let session = Session(catalog: catalog)
        for store in stores {
            if let status = RunMode.loadStore(store, into: session) { return status }
        }
        let conversations = LocalConversations(
            session: session, name: catalog.programName, onMainThread: MainQueue.isCurrent)
        return Self.serve(conversations, program: catalog.programName, with: tools)
    }

    /// Serves `conversations` until the client leaves (status 0), or the session ends (1).
    static func serve(_ conversations: any PageConversations, program: String, with tools: any ToolServing.Type)
        -> Int32
    {
        do throws(ShellError) {
            try tools.serve(conversations, program: program)
            return 0
        } catch {
            StandardStreams.shared.err(Diagnostic(error, kind: .failedLine))
            return 1
        }
    }

    /// Says that this shell cannot serve the protocol.
    static func missing(_ programName: String) -> Int32 {
        StandardStreams.shared.err(
            Diagnostic(
                .usage, "\(programName) was built without the Model Context Protocol",
                hint: "add the FluxShellMCP product and pass tools: MCPServer.self to FluxShellMain.run"))
        return 2
    }
}
