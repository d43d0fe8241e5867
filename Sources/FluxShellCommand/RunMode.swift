import FluxShell

/// Piped mode and `fluxsh run`: commands from standard input or files, output per command.
struct RunMode {
    let catalog: StoreCatalog
    let store: String?
    let common: ShellOptions

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
        printer.takesOutputCommands = true
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

    /// Piped mode: a store that traps ends the process, reported by ``TrapReport``.
    func runStandardInput() -> Int32 {
        let (runner, printer) = makeRunner()
        let file = "<stdin>"
        TrapReport.install(for: runner, file: file, renderer: printer.renderer)
        if let status = Self.loadStore(store, into: runner.session) { return status }
        var input = LineReader.standardInput()
        runner.run(&input, file: file)
        return runner.failures.isEmpty ? 0 : 1
    }

    /// `run FILE...`: in a child process, so that a trap in a store is reported with its file and
    /// line (then status 1) instead of ending `fluxsh` with a signal. Where no child can be started
    /// (no `/proc/self/exe`), the files run here, without that.
    func run(files: [String], inChild: Bool = false, traceLines: Bool = false) -> Int32 {
        // NB: the parent reads no file: a file may be a pipe (`run /dev/stdin`), which only the
        // process that runs it may read.
        if !inChild, let status = supervise(files) { return status }
        var contents: [(String, [UInt8])] = []
        for file in files {
            do {
                contents.append((file, try FileSystem.read(file)))
            } catch {
                StandardStreams.shared.err(Diagnostic(error, kind: .usage))
                return 2
            }
        }
        if inChild { TrapSurvival.flushOutputOnTrap() }
        let (runner, _) = makeRunner()
        if traceLines { runner.beforeEachLine = TrapSurvival.trace }
        if let status = Self.loadStore(store, into: runner.session) { return status }
        for (file, bytes) in contents where !runner.isStopped {
            runner.run(bytes, file: file)
        }
        return runner.failures.isEmpty ? 0 : 1
    }

    /// Runs the files in a child that shares the standard streams; when it dies by a signal, runs
    /// them again, traced and with their output dropped, to name the line that trapped. `nil`
    /// when no child could be started.
    private func supervise(_ files: [String]) -> Int32? {
        let streams = StandardStreams.shared
        let options = ["run"] + common.arguments + (store.map { ["--store=\($0)"] } ?? []) + ["--in-child"]
        let arguments = options + ["--"] + files
        streams.flush()
        Platform.forwardStopSignals()
        guard let ending = ChildProcess.run(arguments) else { return nil }
        guard case .signaled(let signal) = ending else {
            if case .exited(let status) = ending { return status }
            return nil
        }
        if Platform.isStopSignal(signal) { return 128 + signal }
        let renderer = Renderer(format: common.format)
        func report(_ diagnostic: Diagnostic) {
            switch common.format {
            case .text: for line in renderer.lines(of: diagnostic) { streams.err(line) }
            case .json: for line in renderer.lines(of: diagnostic) { streams.out(line) }
            }
        }
        let unexplained = Diagnostic(
            .failedLine, "the process ended by signal \(signal), and running the files again did not",
            hint: "a store that traps only some of the time, or a file that cannot be read twice (a pipe)?")
        let (made, _) = ChildProcess.makeTemporaryFolder(named: "\(catalog.programName)-run")
        guard let folder = made else {
            report(unexplained)
            return 1
        }
        let errors = folder + "/stderr"
        defer {
            Platform.removeFile(errors)
            Platform.removeFolder(folder)
        }
        let again = ChildProcess.run(
            options + ["--trace-lines", "--"] + files, standardOutput: "/dev/null", standardError: errors)
        guard case .signaled(let signal)? = again else {
            report(unexplained)
            return 1
        }
        report(TrapSurvival.Trace(errors: ChildProcess.contents(of: errors), signal: signal).diagnostic(file: files[0]))
        return 1
    }
}
