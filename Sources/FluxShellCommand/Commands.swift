import ArgumentParser
import FluxShell
import FluxShellExplore

/// How a mode that lists or reports prints (`stores`, `test`): the format and colors.
struct OutputOptions: ParsableArguments {
    @Option(help: "Output format: text or json.")
    var format: Renderer.Format = .text

    @Flag(name: .customLong("no-color"), help: "No colors (also when NO_COLOR is set or stdout is not a terminal).")
    var noColor = false

    /// These options again, for a child process of the same command.
    var arguments: [String] { ["--format=\(format.rawValue)"] + (noColor ? ["--no-color"] : []) }
}

/// Options of the modes that run commands one by one: the shell, `run` and `attach`.
struct CommonOptions: ParsableArguments {
    @Option(help: "Output format: text or json.")
    var format: Renderer.Format = .text

    @Flag(name: .customLong("no-color"), help: "No colors (also when NO_COLOR is set or stdout is not a terminal).")
    var noColor = false

    @Flag(help: "Piped mode: print '> COMMAND' before each command's output.")
    var echo = false

    @Flag(help: "Stop at the first failing command.")
    var bail = false

    /// The options parsed, as the modes take them.
    var values: ShellOptions { ShellOptions(format: format, noColor: noColor, echo: echo, bail: bail) }
}

extension Renderer.Format: ExpressibleByArgument {}

/// The name the program was started by: `fluxsh`, or a user's own executable (`notesh`).
enum ProgramName {
    static var current: String {
        guard let path = CommandLine.arguments.first, let name = path.split(separator: "/").last, !name.isEmpty else {
            return "fluxsh"
        }
        return String(name)
    }
}

struct Fluxsh: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: ProgramName.current,
            abstract: "A shell for unidirectional data flow stores: dispatch actions, see every state change.",
            usage: "\(ProgramName.current) [--store NAME]... [--format text|json] [--no-color] [--echo] [--bail]\n"
                + "\(ProgramName.current) <subcommand>",
            discussion: """
                With no subcommand: an interactive shell when stdin is a terminal, otherwise reads \
                commands from stdin. Type 'help' inside for the command language.
                Options of the shell itself: --store NAME (load it first), --format text|json, \
                --no-color, --echo (print '> COMMAND' before each output), --bail (stop at the first \
                failing command); see '\(ProgramName.current) help shell'.
                Exit status: 0 success, 1 a command or scenario failed, 2 usage error.
                """,
            version: FluxshVersion.text,
            subcommands: [
                Shell.self, Stores.self, Run.self, Test.self, Explore.self, Attach.self, Listen.self, Web.self,
                Mcp.self,
            ],
            defaultSubcommand: Shell.self)
    }
}

struct Shell: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell", abstract: "The interactive shell, or piped mode when stdin is not a terminal.")

    @Option(help: "Load this store first.")
    var store: String?

    @OptionGroup var common: CommonOptions
}

struct Attach: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A session on a running app's stores, live: its actions as they happen, yours run in it.",
        discussion: """
            The app serves its stores with ShellAgent(serving: flux, as: "NAME") from FluxShellAgent. \
            Interactive on a terminal, piped otherwise; 'detach', 'quit' or Ctrl-D leaves, and the app goes on.
            """)

    @Flag(help: "List the running apps that can be attached.")
    var list = false

    @Flag(
        help: .init(
            "Serve the devtools page on the app, in a browser, instead of a session here.",
            visibility: FluxShellMain.page == nil ? .private : .default))
    var web = false

    @Option(
        help: .init(
            "With --web: the port to listen on, on 127.0.0.1 (default: a free one).",
            visibility: FluxShellMain.page == nil ? .private : .default))
    var port: Int?

    @Flag(
        help: .init(
            "Serve the session to an agent over the Model Context Protocol on standard input and output.",
            visibility: FluxShellMain.tools == nil ? .private : .default))
    var mcp = false

    @OptionGroup var common: CommonOptions

    @Argument(help: "The app's name, or its socket's path (default: the one app running).")
    var app: String?

    func validate() throws {
        if mcp, web { throw ValidationError("--mcp and --web each serve the session: give one") }
        guard let port else { return }
        guard web else { throw ValidationError("--port is the devtools page's port: give it with --web") }
        try Web.check(port: port)
    }
}

struct Listen: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            abstract:
                "Waits for an app that dials this shell (a phone, a simulator, a container), then attaches to it.",
            discussion: """
                Prints a pairing code, fluxsh://HOST:PORT#SECRET, on standard error. The app passes it to \
                ShellAgent(serving:as:dialing:) from FluxShellRemote and dials over TLS, pinned to the \
                certificate made for this run; the code serves one app, once. Then this is the session \
                'attach' opens: interactive on a terminal, piped otherwise (commands are read once the app \
                is paired), or the page with --web.
                """,
            shouldDisplay: FluxShellMain.pairing != nil)
    }

    @Option(help: "The TCP port to listen on (default: a free one).")
    var port: Int?

    @Option(
        help:
            "The address to listen on, which the code names: this machine's on the app's network (default: 127.0.0.1).")
    var address: String?

    @Flag(
        help: .init(
            "Serve the devtools page on the app, in a browser on this machine, once it is paired.",
            visibility: FluxShellMain.page == nil ? .private : .default))
    var web = false

    @Option(
        name: .customLong("web-port"),
        help: .init(
            "With --web: the page's port, on 127.0.0.1 (default: a free one).",
            visibility: FluxShellMain.page == nil ? .private : .default))
    var webPort: Int?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if let port { try Web.check(port: port) }
        guard let webPort else { return }
        guard web else { throw ValidationError("--web-port is the devtools page's port: give it with --web") }
        try Web.check(port: webPort, option: "--web-port")
    }
}

struct Web: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            abstract: "The devtools page in a browser, on a session of this shell's stores.",
            discussion: """
                Serves http://127.0.0.1:PORT/?token=TOKEN (printed) until interrupted: a timeline, an \
                inspector, the state as a tree, time travel and the command line, all commands of one session.
                """,
            shouldDisplay: FluxShellMain.page != nil)
    }

    @Option(help: "Load this store first (repeat for several).")
    var store: [String] = []

    @Option(help: "The port to listen on, on 127.0.0.1 (default: a free one).")
    var port: Int?

    func validate() throws {
        if let port { try Self.check(port: port) }
    }

    static func check(port: Int, option: String = "--port") throws {
        if !(1...65_535).contains(port) { throw ValidationError("\(option) takes 1 to 65535, not \(port)") }
    }
}

struct Mcp: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            abstract: "A session of this shell's stores served to an agent over the Model Context Protocol.",
            discussion: """
                Speaks the protocol on standard input and output until the client leaves: tools run, load, \
                dispatch, state, why, history, undo, find, diff and save, each answered with what the shell \
                prints for its command. Register it with an agent as the command '\(ProgramName.current) mcp'.
                """,
            shouldDisplay: FluxShellMain.tools != nil)
    }

    @Option(help: "Load this store first (repeat for several).")
    var store: [String] = []
}

struct Stores: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Lists the available stores, one per line.")

    @OptionGroup var output: OutputOptions
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs command files as in piped mode; expectations and expected diff lines are checked.")

    @Option(help: "Load this store first.")
    var store: String?

    @OptionGroup var common: CommonOptions

    @Argument(help: "Command files to run, in order, in one session.")
    var files: [String]

    /// Set for the child process `run` works in, to survive a trap (``TrapSurvival``).
    @Flag(help: .private) var inChild = false
    /// Set for a child run again to find the line that trapped.
    @Flag(help: .private) var traceLines = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one FILE") }
    }
}

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replays .scenario files, each in a fresh session, and reports PASS or FAIL.")

    @Option(help: "Scenarios run in parallel (default: the number of cores).")
    var jobs: Int?

    @Option(help: "Only scenarios whose path contains TEXT.")
    var filter: String?

    @Option(help: "Only the K-th of N equal slices, e.g. 1/4 (for CI matrices).")
    var shard: Shard?

    @Option(help: "Also write a JUnit XML report to FILE.")
    var junit: String?

    @Flag(help: "Every state-changing command must list its expected diff lines.")
    var exhaustive = false

    @Flag(help: "Rewrite expected diff lines from what happened (every other byte kept).")
    var update = false

    @Flag(help: "Start no further scenario once one has failed.")
    var bail = false

    @OptionGroup var output: OutputOptions

    @Argument(help: "Scenario files or folders (default: Scenarios).")
    var paths: [String] = []

    /// Set for the child process `test` works in, to survive a trap (``TrapSurvival``): each
    /// scenario's result is written to FILE as one JSON object as soon as it is known.
    @Option(help: .private) var results: String?
    /// Set for the children that run what is left after a trap: they print nothing.
    @Flag(help: .private) var inChild = false
    /// Set for a child run again to find the line that trapped.
    @Flag(help: .private) var traceLines = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    /// The options as given, for the child process that runs them (the paths apart).
    var optionArguments: [String] {
        var arguments: [String] = []
        // NB: `--option=value`, so that a value that begins with `-` is not taken for an option.
        if let jobs { arguments.append("--jobs=\(jobs)") }
        if let filter { arguments.append("--filter=\(filter)") }
        if let shard { arguments.append("--shard=\(shard.index)/\(shard.count)") }
        if let junit { arguments.append("--junit=\(junit)") }
        if exhaustive { arguments.append("--exhaustive") }
        if update { arguments.append("--update") }
        if bail { arguments.append("--bail") }
        return arguments + output.arguments
    }
}

struct Explore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Dispatches random actions to stores, checks invariants after each, and shrinks a failure to a scenario.",
        discussion: """
            Each run loads the stores in a fresh session and dispatches up to --steps actions made from \
            the action types (edge values first, and values already in the state most of the time). \
            After each action: every --invariant (the rest of an expect line, of the last store), the \
            invariants the store definitions declare, and that a refused action changed nothing; at \
            the end of a run: a fresh replay prints the same diff, undo restores the start and redo \
            the end. The first failure is shrunk and saved as a scenario that fails under 'test'.
            Example: explore todos --invariant 'todos[*].id < $nextID' --seed 7
            """)

    @Argument(help: "The stores to load in each run (the last one is active).")
    var stores: [String]

    @Option(help: "How many runs.")
    var runs = 100

    @Option(help: "Actions per run.")
    var steps = 50

    @Option(help: "The seed (default: a random one, printed): the same seed gives the same runs.")
    var seed: UInt64?

    @Option(
        name: .customLong("invariant"), help: "The rest of an expect line, checked after every action (repeatable).")
    var invariants: [String] = []

    @Option(help: "Where to write the failing scenario (default: explore-STORES-SEED.scenario, never over another).")
    var save: String?

    @Option(help: "Stop starting runs after this many seconds.")
    var time: Double?

    @Option(help: "Only the K-th of N slices of the runs, e.g. 1/4 (for CI matrices).")
    var shard: Shard?

    @Option(
        help:
            "Runs explored at once, each in a thread (the failure reported is the lowest run's either way).")
    var jobs = 1

    /// Set by `explore` for the child it explores in: the folder where each job keeps its run
    /// under way as a script, for the parent to replay when the child dies.
    @Option(help: .private)
    var journal: String?

    @Flag(name: .customLong("no-color"), help: "No colors (also when NO_COLOR is set or stdout is not a terminal).")
    var noColor = false

    @Option(help: "Output format: text, or json (the report as one object).")
    var format: Renderer.Format = .text

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard !stores.isEmpty else { throw ValidationError("give at least one STORE, e.g. explore todos") }
        guard (1...Explorer.maximumRuns).contains(runs), (1...Explorer.maximumSteps).contains(steps) else {
            throw ValidationError("--runs must be 1...\(Explorer.maximumRuns) and --steps 1...\(Explorer.maximumSteps)")
        }
        if let time, !(time > 0 && time <= 31_536_000) {
            throw ValidationError("--time must be seconds above 0 (at most a year)")
        }
    }
}

extension Shard: ExpressibleByArgument {
    public init?(argument: String) {
        try? self.init(parsing: argument)
    }
}
