// swift-tools-version: 6.1
// A weather search written the way a Composable Architecture app is written (TCA's Search
// example): a `Reducer` with a `body` of `Scope` and `Reduce`, a child feature for the forecast,
// actions that carry `Result<…, any Error>` responses; and a search as you type on swift-dependencies
// (`@Dependency(\.uuid)`, `\.date`, `\.continuousClock`), pinned to the shell's session. The shell
// registers each in one line. Build: swift build --package-path Examples/WeatherSearch
import PackageDescription

let package = Package(
    name: "WeatherSearch",
    // NB: `name:` gives the path dependency the name the products below use, in a checkout of any name.
    dependencies: [
        .package(name: "FluxShell", path: "../.."),
        // As a TCA app has it: `CitySearch` reads `@Dependency(\.uuid)`, `\.date` and `\.continuousClock`
        // (the traits FluxShell's own use of it needs: no OpenCombine, no libcurl).
        .package(
            url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Clocks", "Foundation"]),
    ],
    targets: [
        // Stands in for the Composable Architecture (not available to the build): `Reducer`,
        // `Reduce`, `Scope`, `ReducerBuilder`, `Effect`, `AnyCasePath`, in TCA's shape.
        .target(name: "MiniComposable"),
        // The app's feature: knows its architecture library, nothing of FluxShell.
        .target(
            name: "WeatherFeature",
            dependencies: ["MiniComposable", .product(name: "Dependencies", package: "swift-dependencies")]),
        // The shell: one line registers the root reducer; `pinningDependencies()` gives the features
        // the session's ids and clock; FluxShellWeb gives it the devtools page (`weathersh web`).
        .executableTarget(
            name: "weathersh",
            dependencies: [
                "WeatherFeature",
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxShellCommand", package: "FluxShell"),
                .product(name: "FluxShellDependencies", package: "FluxShell"),
                .product(name: "FluxShellWeb", package: "FluxShell"),
            ]),
    ]
)
