import FluxShellCommand
import FluxStores

@main
enum FluxshMain {
    static func main() {
        FluxShellMain.run(catalog: .builtIn)
    }
}
