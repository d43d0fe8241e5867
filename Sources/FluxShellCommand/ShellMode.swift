import FluxShell

/// `fluxsh` with no subcommand: interactive on a terminal, piped otherwise.
struct ShellMode {
    let catalog: StoreCatalog
    let store: String?
    let common: ShellOptions

    func run() -> Int32 {
        let runMode = RunMode(catalog: catalog, store: store, common: common)
        guard Platform.isTerminal(0) else { return runMode.runStandardInput() }
        return InteractiveMode(catalog: catalog, store: store, common: common).run()
    }
}
