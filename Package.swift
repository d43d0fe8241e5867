// swift-tools-version: 6.1
import PackageDescription

// What each of the engine's unit-test targets links: the engine's modules, the fixtures they
// share, and the packages whose types the tests' stores hold.
let engineTestDependencies: [Target.Dependency] = [
    "FluxCore", "FluxShell", "FluxShellExplore", "FluxShellFixtures", "FluxShellLanguage", "FluxShellLive",
    "FluxShellRunner", "FluxShellSession", "FluxShellSystem", "FluxShellTestSupport", "FluxShellJSON",
    "FluxShellValues", "FluxStores",
    .product(name: "PropertyBased", package: "swift-property-based"),
    .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
    .product(name: "Tagged", package: "swift-tagged"),
    .product(name: "OrderedCollections", package: "swift-collections"),
]

let package = Package(
    name: "FluxShell",
    products: [
        .library(name: "FluxCore", targets: ["FluxCore"]),
        .library(name: "FluxShell", targets: ["FluxShell"]),
        .library(name: "FluxStores", targets: ["FluxStores"]),
        .library(name: "FluxShellCommand", targets: ["FluxShellCommand"]),
        // What an app links in its debug build to be attached to on its own machine.
        .library(name: "FluxShellAgent", targets: ["FluxShellAgent"]),
        // What an app links to dial `fluxsh listen` from a phone, a simulator or another host
        // (`ShellAgent(serving:as:dialing:)`), and what a shell links to listen; the only product
        // with TLS (swift-nio-ssl and its BoringSSL).
        .library(name: "FluxShellRemote", targets: ["FluxShellRemote"]),
        // The devtools page (`web`, `attach NAME --web`): a user's shell that links it passes
        // `page: WebPage.self` to `FluxShellMain.run`; one that does not builds without it.
        .library(name: "FluxShellWeb", targets: ["FluxShellWeb"]),
        // The Model Context Protocol on stdio (`mcp`, `attach NAME --mcp`): a user's shell that links
        // it passes `tools: MCPServer.self` to `FluxShellMain.run`; the only product with the SDK.
        .library(name: "FluxShellMCP", targets: ["FluxShellMCP"]),
        // What a feature that reads swift-dependencies links to be pinned to the session's
        // environment (`catalog.pinningDependencies()`); the only product with swift-dependencies.
        .library(name: "FluxShellDependencies", targets: ["FluxShellDependencies"]),
        // What a package's own tests link to replay scenarios under `swift test` with each failure
        // at its scenario's line (`result.recordIssues()`); the only product with Swift Testing.
        .library(name: "FluxShellTesting", targets: ["FluxShellTesting"]),
        .executable(name: "fluxsh", targets: ["fluxsh"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        // The agent's and the page's event loops and sockets.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Only for FluxShellRemote: pinned TLS 1.3 between `fluxsh listen` and an app that dials it.
        // Up to the next minor version: `RunCertificate` calls its BoringSSL module, which the
        // package does not offer as a product of its own.
        .package(url: "https://github.com/apple/swift-nio-ssl", .upToNextMinor(from: "2.37.6")),
        // Only for FluxShellMCP: the protocol's official SDK, and the log it is given (silent: the
        // protocol alone goes to standard output). Up to the next minor version: 0.x changes its API.
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", .upToNextMinor(from: "0.12.1")),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // IdentifiedArray prints, reads back and diffs as the array it is (“Printed values” in the
        // reference, rule 3).
        .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
        // Only for the tests and examples: tagged ids, as users' apps hold them.
        .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
        // Only for the benchmark, to compare diffs with what TCA's `_printChanges` uses.
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.3.3"),
        // Only for the tests: generated values with shrinking, `parse(print(v)) == v` per row of
        // “Printed values” in the reference.
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // Only for FluxShellDependencies (and its tests and benchmark): `date`, `uuid`, the clocks, … pinned
        // to the session's environment. Its `Clocks` and `Foundation` traits are all it needs: no
        // OpenCombine, no libcurl.
        .package(
            url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Clocks", "Foundation"]),
        // Only for `make docs`: the API documentation of FluxCore and the engine's modules, built with DocC.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Layer 0: the unidirectional data flow library. No dependencies.
        .target(name: "FluxCore"),
        .testTarget(
            name: "FluxCoreTests",
            dependencies: ["FluxCore", .product(name: "PropertyBased", package: "swift-property-based")]),
        // Prex's API beyond its README, written as a Swift 5 app would: FluxCore must compile there too.
        .testTarget(
            name: "FluxCoreSwift5Tests", dependencies: ["FluxCore"], swiftSettings: [.swiftLanguageMode(.v5)]),

        // Layer 1: the shell's one door to the operating system (files, sockets, the one lock,
        // output buffers) and the error every layer reports.
        .target(name: "FluxShellSystem"),
        // Layer 2: the printed form as text: JSON values, their parser and their one writer, paths
        // into them and patterns over them; no Swift value of an app's.
        .target(
            name: "FluxShellJSON",
            dependencies: [
                "FluxShellSystem", .product(name: "OrderedCollections", package: "swift-collections"),
            ]),
        .testTarget(
            name: "FluxShellJSONTests",
            dependencies: [
                "FluxShellJSON", "FluxShellSystem", .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        // Layer 3: any Swift value read, printed, parsed back and diffed (FluxCore's `ChunkedArray`
        // among them), and an app's actions made from text, with all runtime metadata and pointer
        // code behind typed views.
        .target(
            name: "FluxShellValues",
            dependencies: [
                "FluxCore", "FluxShellSystem", "FluxShellJSON",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
            ]),
        .testTarget(name: "FluxShellSystemTests", dependencies: ["FluxShellSystem", "FluxShellTestSupport"]),
        .testTarget(
            name: "FluxShellValuesTests",
            dependencies: [
                "FluxCore", "FluxShellJSON", "FluxShellValues",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Tagged", package: "swift-tagged"),
            ]),
        // Layer 4: the command language: a line lexed and parsed into a command, and printed back.
        .target(name: "FluxShellLanguage", dependencies: ["FluxShellSystem", "FluxShellJSON"]),
        .testTarget(
            name: "FluxShellLanguageTests",
            dependencies: [
                "FluxShellLanguage", "FluxShellSystem", "FluxShellJSON", "FluxShellValues",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]),
        // Layer 5: stores loaded into a session: the catalog and the seam every form of store goes
        // through, effects and the pinned environment, the session and its commands, completion.
        .target(
            name: "FluxShellSession",
            dependencies: ["FluxCore", "FluxShellSystem", "FluxShellJSON", "FluxShellValues", "FluxShellLanguage"]),
        // Layer 6: scripts and scenarios run through a session, and every line the shell prints.
        .target(
            name: "FluxShellRunner",
            dependencies: [
                "FluxShellSystem", "FluxShellJSON", "FluxShellValues", "FluxShellLanguage", "FluxShellSession",
            ]),
        // Layer 7: a running app's stores in a session (the agent's, `attach`'s and the page's
        // side), and a running app recorded into a scenario.
        .target(
            name: "FluxShellLive",
            dependencies: [
                "FluxCore", "FluxShellSystem", "FluxShellJSON", "FluxShellValues", "FluxShellLanguage",
                "FluxShellSession",
                "FluxShellRunner",
            ]),
        // What a user's package imports: the engine's public API, from the modules above, in one
        // module. Pure: strings in, strings out; no terminal code.
        .target(
            name: "FluxShell",
            dependencies: [
                "FluxShellSystem", "FluxShellJSON", "FluxShellValues", "FluxShellSession", "FluxShellRunner",
                "FluxShellLive",
            ]),
        // `fluxsh explore`: random actions run against a store's checks, failures shrunk to a
        // scenario. Above the engine, which it drives like any user of sessions; no public API.
        .target(
            name: "FluxShellExplore",
            dependencies: [
                "FluxShellLanguage", "FluxShellRunner", "FluxShellSession", "FluxShellSystem", "FluxShellJSON",
                "FluxShellValues",
            ]),
        .testTarget(
            name: "FluxShellExploreTests",
            dependencies: [
                "FluxCore", "FluxShell", "FluxShellExplore", "FluxShellLanguage", "FluxShellLive", "FluxShellRunner",
                "FluxShellSession", "FluxShellSystem", "FluxShellJSON", "FluxShellValues", "FluxStores",
            ]),
        // What the tests share (not products): `Fluxsh` (the built binary run with arguments and
        // input), `Locked` and `SocketPair`; and, for the engine's tests, `Transcript` (a session
        // with strings in and out) and stores written as apps write them.
        .target(name: "FluxShellTestSupport", path: "Tests/TestSupport"),
        .target(
            name: "FluxShellFixtures",
            dependencies: [
                "FluxCore", "FluxShellLanguage", "FluxShellRunner", "FluxShellSession", "FluxShellSystem",
                "FluxShellValues", "FluxStores",
            ],
            path: "Tests/Fixtures"),
        // The engine's unit tests, one target per module.
        .testTarget(
            name: "FluxShellSessionTests",
            dependencies: engineTestDependencies),
        .testTarget(
            name: "FluxShellRunnerTests",
            dependencies: engineTestDependencies + ["FluxShellTesting"]),
        .testTarget(
            name: "FluxShellLiveTests",
            dependencies: engineTestDependencies),
        // The end-to-end tests: the built `fluxsh` (and the test apps beside it) run as processes.
        .testTarget(
            name: "FluxShellEndToEndTests",
            dependencies: [
                "FluxCore", "FluxShell", "FluxShellSession", "FluxShellSystem", "FluxShellJSON", "FluxShellValues",
                "FluxShellCommand",
                "FluxStores", "FluxShellTestSupport",
            ]),

        // The agent an app runs so that `fluxsh attach` opens a session on its stores (“Attaching
        // to a running app” in the reference): a Unix socket served on swift-nio, one engine
        // session per attached shell.
        .target(
            name: "FluxShellAgent",
            dependencies: [
                "FluxCore", "FluxShell", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),

        .testTarget(name: "FluxShellAgentTests", dependencies: ["FluxCore", "FluxShell", "FluxShellAgent"]),

        // An app attached across hosts (“Attaching across hosts” in the reference): the agent
        // dials `fluxsh listen` over TLS 1.3, pinned to the certificate in the pairing code, and the
        // shell's side of it (the listener, its certificate made for the run).
        .target(
            name: "FluxShellRemote",
            dependencies: [
                "FluxCore", "FluxShell", "FluxShellAgent", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        .testTarget(
            name: "FluxShellRemoteTests",
            dependencies: ["FluxCore", "FluxShell", "FluxShellAgent", "FluxShellRemote"]),

        // The Model Context Protocol on stdio: the session's tools for an agent (`fluxsh mcp`,
        // `fluxsh attach NAME --mcp`), through the attach protocol's conversations.
        .target(
            name: "FluxShellMCP",
            dependencies: [
                "FluxShellJSON", "FluxShellLanguage", "FluxShellLive", "FluxShellRunner", "FluxShellSystem",
                .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "FluxShellMCPTests", dependencies: ["FluxShellMCP", .product(name: "MCP", package: "swift-sdk")]),

        // The devtools page in the browser (`fluxsh web`, `fluxsh attach NAME --web`): a loopback
        // HTTP and WebSocket server on swift-nio that serves the page (plain HTML, CSS and
        // JavaScript, embedded in the binary) and speaks the attach protocol to it.
        .target(
            name: "FluxShellWeb",
            dependencies: [
                "FluxShell", "FluxShellSystem", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/page.css"), .embedInCode("Page/page.js")]),

        .testTarget(
            name: "FluxShellWebTests",
            dependencies: ["FluxShellWeb", .product(name: "NIOHTTP1", package: "swift-nio")]),

        // swift-dependencies' values (`date`, `uuid`, the clocks, the random generator, calendar, time
        // zone and locale) set from the session's environment around every command (`pinningDependencies()`).
        .target(name: "FluxShellTesting", dependencies: ["FluxShellRunner", "FluxShellSystem"]),
        .target(
            name: "FluxShellDependencies",
            dependencies: ["FluxShell", .product(name: "Dependencies", package: "swift-dependencies")]),
        .testTarget(
            name: "FluxShellDependenciesTests",
            dependencies: [
                "FluxShell", "FluxShellFixtures", "FluxShellLanguage", "FluxShellDependencies",
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]),

        // The built-in example stores, written with the public API a user has.
        .target(name: "FluxStores", dependencies: ["FluxCore", "FluxShell"]),

        // Layer 8: line editing over libedit (a system library and a C shim for its variadic API).
        .systemLibrary(
            name: "CLibEdit", pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"]), .brew(["libedit"])]),
        .target(name: "EditLineShim", dependencies: ["CLibEdit"]),
        .target(name: "FluxShellTerminal", dependencies: ["FluxShellSystem", "CLibEdit", "EditLineShim"]),
        .testTarget(name: "FluxShellTerminalTests", dependencies: ["FluxShellTerminal"]),

        // Layer 9: the command line (modes, options, exit codes) and the thin executable.
        .target(
            name: "FluxShellCommand",
            dependencies: [
                "FluxShell", "FluxShellExplore", "FluxShellLanguage", "FluxShellTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(name: "FluxShellCommandTests", dependencies: ["FluxShellCommand"]),
        .executableTarget(
            name: "fluxsh",
            dependencies: ["FluxShellCommand", "FluxShellWeb", "FluxShellRemote", "FluxShellMCP", "FluxStores"]),

        // A user's shell with planted bugs, for the end-to-end tests of `explore` (not a product).
        .executableTarget(
            name: "planted-shell", dependencies: ["FluxCore", "FluxShell", "FluxShellCommand", "FluxStores"],
            path: "Tests/PlantedShell"),

        // A running app that serves its store, for the end-to-end tests of `fluxsh attach` (not a product).
        .executableTarget(
            name: "attach-demo",
            dependencies: [
                "FluxCore", "FluxShellAgent", "FluxShellRemote",
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Tagged", package: "swift-tagged"),
            ],
            path: "Tests/AttachDemo"),

        // The fuzzers (`make fuzz`): `fluxfuzz` over command lines and whole scripts, `fluxfuzzvalues`
        // over values typed back, `fluxfuzzattach` over what an attached shell sends the agent. Built
        // as usual, each replays the inputs named on its command line (`FuzzReplay`); built with
        // `-DFUZZING` and `--sanitize=fuzzer` (Scripts/fuzz.sh), libFuzzer drives it.
        .target(name: "FuzzReplay", path: "Fuzz/Sources/FuzzReplay"),
        .executableTarget(
            name: "fluxfuzz", dependencies: ["FluxShell", "FluxShellLanguage", "FluxStores", "FuzzReplay"],
            path: "Fuzz/Sources/fluxfuzz"),
        .executableTarget(
            name: "fluxfuzzvalues",
            dependencies: [
                "FluxShell", "FuzzReplay",
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Tagged", package: "swift-tagged"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            path: "Fuzz/Sources/fluxfuzzvalues"),
        .executableTarget(
            name: "fluxfuzzattach", dependencies: ["FluxCore", "FluxShell", "FuzzReplay"],
            path: "Fuzz/Sources/fluxfuzzattach"),

        // Benchmarks of FluxCore's hot path and the engine's diff: `make bench`.
        .executableTarget(
            name: "fluxbench",
            dependencies: [
                "FluxCore", "FluxShell", "FluxShellExplore", "FluxShellLanguage", "FluxShellSession", "FluxShellSystem",
                "FluxStores", "FluxShellAgent", "FluxShellDependencies", "FluxShellRemote", "FluxShellCommand",
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "CustomDump", package: "swift-custom-dump"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Tagged", package: "swift-tagged"),
            ]),
    ]
)
