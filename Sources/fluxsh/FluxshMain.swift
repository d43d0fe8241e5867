import FluxShellCommand
import FluxShellMCP
import FluxShellRemote
import FluxShellWeb
import FluxStores

@main
enum FluxshMain {
    static func main() {
        FluxShellMain.run(
            catalog: .builtIn, page: WebPage.self, pairing: PairingListener.self, tools: MCPServer.self)
    }
}
