// swift-tools-version: 6.1
// A to-do list written the way a ReSwift app is written: actions that are structs (and an enum)
// conforming to a marker protocol that is not `Sendable`, a pure reducer that switches on the
// action's type, a store with curried middleware. The shell registers the reducer and its action
// types in one expression. Build: swift build --package-path Examples/ReduxTodos
import PackageDescription

let package = Package(
    name: "ReduxTodos",
    // NB: `name:` gives the path dependency the name the products below use, in a checkout of any name.
    dependencies: [.package(name: "FluxShell", path: "../..")],
    targets: [
        // Stands in for ReSwift (not available to the build): the same API shape, `Action`,
        // `Reducer`, `Store`, `Middleware`, `StoreSubscriber`.
        .target(name: "MiniRedux"),
        // The app's feature: knows its Redux library, nothing of FluxShell.
        .target(name: "TodoFeature", dependencies: ["MiniRedux"]),
        // The shell: one expression registers the reducer and its action types.
        .executableTarget(
            name: "todosh",
            dependencies: [
                "TodoFeature",
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxShellCommand", package: "FluxShell"),
            ]),
        // The app itself, running: its debug build serves its store to `todosh attach todos`
        // through a middleware.
        .executableTarget(
            name: "todo-app",
            dependencies: [
                "MiniRedux", "TodoFeature",
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxShellAgent", package: "FluxShell"),
            ]),
    ]
)
