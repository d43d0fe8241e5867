import ArgumentParser
import FluxShell

/// The whole `fluxsh` program for a catalog of stores: a user's own executable is one call.
///
/// ```swift
/// import FluxShellCommand
/// import FluxStores
///
/// @main enum MyShell {
///     static func main() {
///         FluxShellMain.run(catalog: StoreCatalog([.counter, .myStore]))
///     }
/// }
/// ```
public enum FluxShellMain {
    /// Parses `arguments`, runs the chosen mode and exits with its status (0, 1, or 2 for usage).
    ///
    /// - Parameters:
    ///   - catalog: the stores the shell can load.
    ///   - version: your shell's own version, for `--version` (`notesh 1.2 (FluxShell 0.1.0)`).
    ///   - page: the devtools page's server, `WebPage.self` from the FluxShellWeb product, for
    ///     `web` and `attach NAME --web`; without it the shell builds without that server.
    ///   - pairing: the listener for apps that dial this shell, `PairingListener.self` from the
    ///     FluxShellRemote product, for `listen`; without it the shell builds without TLS.
    ///   - tools: the Model Context Protocol's server, `MCPServer.self` from the FluxShellMCP
    ///     product, for `mcp` and `attach NAME --mcp`; without it the shell builds without its SDK.
    ///   - arguments: the command line after the program's name.
    public static func run(
        catalog: StoreCatalog, version: String? = nil, page: (any PageServing.Type)? = nil,
        pairing: (any PairingServing.Type)? = nil, tools: (any ToolServing.Type)? = nil,
        arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> Never {
        Self.page = page
        Self.pairing = pairing
        Self.tools = tools
        MainQueue.claimMainThread()
        Platform.ignoreBrokenPipe()
        Platform.ignoreFileSizeLimitSignal()
        ChildProcess.endWithParent()
        ChildProcess.mayProbe = true
        FluxshVersion.application = version
        var catalog = catalog
        catalog.programName = ProgramName.current
        let status: Int32
        do {
            // NB: no arguments is the shell with its default options, which is what the parser
            // would give: it is not run, as building its tree of commands reads every option's
            // metadata through the runtime, two thirds of the instructions of `quit` piped in.
            let command = arguments.isEmpty ? nil : try Fluxsh.parseAsRoot(arguments)
            // NB: a store registered wrongly (an action type that is a class) is the shell's
            // author's to fix before anything runs, as a compile error would be.
            if let error = catalog.definitions.lazy.compactMap(\.registrationError).first {
                StandardStreams.shared.err(Diagnostic(error, kind: .usage))
                status = 2
            } else if let command {
                status = execute(command, catalog: catalog)
            } else {
                status = ShellMode(catalog: catalog, store: nil, common: ShellOptions()).run()
            }
        } catch {
            status = report(error)
        }
        StandardStreams.shared.flush()
        let outputError = StandardStreams.shared.outputError
        guard outputError == 0 else {
            StandardStreams.shared.err(
                Diagnostic(
                    .failedLine,
                    "cannot write to standard output: \(Platform.describe(errorNumber: outputError)); what was printed is lost"
                ))
            Platform.exit(max(status, 1))
        }
        Platform.exit(status)
    }

    static func execute(_ command: any ParsableCommand, catalog: StoreCatalog) -> Int32 {
        switch command {
        case let shell as Shell:
            return ShellMode(catalog: catalog, store: shell.store, common: shell.common.values).run()
        case let stores as Stores:
            return listStores(catalog, format: stores.output.format)
        case let run as Run:
            return RunMode(catalog: catalog, store: run.store, common: run.common.values).run(
                files: run.files, inChild: run.inChild, traceLines: run.traceLines)
        case let test as Test:
            return TestMode(catalog: catalog, options: test).run()
        case let explore as Explore:
            return ExploreMode(catalog: catalog, options: explore).run()
        case let attach as Attach:
            return AttachMode(
                app: attach.app, list: attach.list, common: attach.common.values, web: attach.web, port: attach.port,
                mcp: attach.mcp
            )
            .run()
        case let mcp as Mcp:
            return McpMode(catalog: catalog, stores: mcp.store).run()
        case let listen as Listen:
            return ListenMode(
                address: listen.address, port: listen.port, web: listen.web, webPort: listen.webPort,
                common: listen.common.values
            )
            .run()
        case let web as Web:
            return WebMode(catalog: catalog, stores: web.store, port: web.port).run()
        default:
            // NB: `help test`, `test --help` and `run --help` come back as ArgumentParser's own
            // help command, which prints the help of the subcommand asked for.
            var command = command
            do {
                try command.run()
                return 0
            } catch {
                return report(error)
            }
        }
    }

    /// The page's server the shell was given (`web`): set by the main thread before the command
    /// line is parsed, and only read after.
    static var page: (any PageServing.Type)? {
        get { givenPage.withLock { $0 } }
        set { givenPage.withLock { $0 = newValue } }
    }
    private static let givenPage = LockedValue<(any PageServing.Type)?>(nil)

    /// The listener for apps that dial the shell (`listen`), as `page` is set and read.
    static var pairing: (any PairingServing.Type)? {
        get { givenPairing.withLock { $0 } }
        set { givenPairing.withLock { $0 = newValue } }
    }
    private static let givenPairing = LockedValue<(any PairingServing.Type)?>(nil)

    /// The Model Context Protocol's server (`mcp`, `attach NAME --mcp`), as `page` is set and read.
    static var tools: (any ToolServing.Type)? {
        get { givenTools.withLock { $0 } }
        set { givenTools.withLock { $0 = newValue } }
    }
    private static let givenTools = LockedValue<(any ToolServing.Type)?>(nil)

    /// Prints a parse error (status 2) or a clean exit such as `--help` (status 0).
    static func report(_ error: any Error) -> Int32 {
        let code = Fluxsh.exitCode(for: error)
        let message = Fluxsh.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { StandardStreams.shared.out(message) }
            return 0
        }
        guard message.hasPrefix("Error: ") else {
            StandardStreams.shared.err(message)
            return 2
        }
        var lines = message.dropFirst(7).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        StandardStreams.shared.err(Diagnostic(.usage, lines.removeFirst(), details: lines))
        return 2
    }

    static func listStores(_ catalog: StoreCatalog, format: Renderer.Format) -> Int32 {
        guard let result = try? Session(catalog: catalog).execute(.stores) else { return 1 }
        let renderer = Renderer(format: format)
        StandardStreams.shared.append { renderer.write(result, command: .stores, line: nil, to: &$0) }
        return 0
    }
}

enum FluxshVersion {
    static let current = "0.1.0"

    /// The version of the user's own shell, when `FluxShellMain.run` was given one: set by the
    /// main thread before the command line is parsed, and only read after.
    static var application: String? {
        get { givenApplication.withLock { $0 } }
        set { givenApplication.withLock { $0 = newValue } }
    }
    private static let givenApplication = LockedValue<String?>(nil)

    /// What `--version` prints: `fluxsh 0.1.0`; a user's shell names itself and the FluxShell
    /// it is built on: `notesh 1.2 (FluxShell 0.1.0)`, `notesh (FluxShell 0.1.0)`.
    static var text: String {
        let program = ProgramName.current
        if program == "fluxsh", application == nil { return "fluxsh \(current)" }
        return program + (application.map { " " + $0 } ?? "") + " (FluxShell \(current))"
    }
}
