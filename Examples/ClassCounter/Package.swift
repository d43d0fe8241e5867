// swift-tools-version: 6.1
// A counter written the way a VueFlux app is written: a `final class` state of observable
// `Variable`s with `fileprivate` members, changed only by its `Mutations`, read through
// `Computed`, and a store object that runs it. The shell registers the store object in one
// expression (make:, state:, send:). Build: swift build --package-path Examples/ClassCounter
import PackageDescription

let package = Package(
    name: "ClassCounter",
    // NB: `name:` gives the path dependency the name the products below use, in a checkout of any name.
    dependencies: [.package(name: "FluxShell", path: "../..")],
    targets: [
        // Stands in for VueFlux and VueFluxReactive (not available to the build): `Store`,
        // `State`, `Mutations`, `Actions`, `Computed`, `Executor`, `Variable`, `Constant`.
        .target(name: "MiniVue"),
        // The app's feature: knows its Flux library, nothing of FluxShell.
        .target(name: "CounterFeature", dependencies: ["MiniVue"]),
        // The shell: a snapshot of what the store shows, and the store object registered, with
        // the devtools page (`vcountersh web`).
        .executableTarget(
            name: "vcountersh",
            dependencies: [
                "CounterFeature", "MiniVue",
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxShellCommand", package: "FluxShell"),
                .product(name: "FluxShellWeb", package: "FluxShell"),
            ]),
    ]
)
