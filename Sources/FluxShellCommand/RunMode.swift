@_spi(Engine) import FluxShell

/// Piped mode and `fluxsh run`: commands from standard input or files, output per command.
struct RunMode {
    let catalog: StoreCatalog
    let store: String?
    let common: CommonOptions

    /// A runner for this mode's options, and the printer it reports to; `interactive` for the
    /// shell on a terminal (errors without `FILE:LINE:`, colors where standard output is a
    /// terminal, no echo or bail, expected diff lines refused).
    func makeRunner(interactive: Bool = false) -> (ScriptRunner, Printer) {
        var options = ScriptRunner.Options()
        options.echo = common.echo && !interactive
        options.bail = common.bail && !interactive
        options.acceptsExpectedLines = !interactive
        let renderer = Renderer(
            format: common.format,
            colors: interactive && common.format == .text && Platform.colorsOnStandardOutput(noColor: common.noColor),
            locatesErrors: !interactive)
        let streams = StandardStreams.shared
        let printer = Printer(
            renderer: renderer, streams: .init(appendToStandardOutput: streams.append, standardError: streams.err))
        return (ScriptRunner(session: Session(catalog: catalog), options: options, output: printer), printer)
    }

    /// Loads `--store`; a store name the catalog lacks is a usage error (status 2).
    static func loadStore(_ name: String?, into session: Session) -> Int32? {
        guard let name else { return nil }
        do {
            _ = try session.execute(.load(name: name, alias: nil))
            return nil
        } catch {
            StandardStreams.shared.err(Diagnostic(error, kind: .usage))
            return 2
        }
    }

    func runStandardInput() -> Int32 {
        let (runner, _) = makeRunner()
        if let status = Self.loadStore(store, into: runner.session) { return status }
        var input = LineReader.standardInput()
        runner.run(&input, file: "<stdin>")
        return runner.failures.isEmpty ? 0 : 1
    }

    func run(files: [String]) -> Int32 {
        var contents: [(String, [UInt8])] = []
        for file in files {
            do {
                contents.append((file, try FileSystem.read(file)))
            } catch {
                StandardStreams.shared.err(Diagnostic(error, kind: .usage))
                return 2
            }
        }
        let (runner, _) = makeRunner()
        if let status = Self.loadStore(store, into: runner.session) { return status }
        for (file, bytes) in contents where !runner.isStopped {
            runner.run(bytes, file: file)
        }
        return runner.failures.isEmpty ? 0 : 1
    }
}
