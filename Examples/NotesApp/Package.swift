// swift-tools-version: 6.1
// What a user of FluxShell writes: a feature module of their own (state, actions, mutation)
// and a shell executable that registers it in one line. Build: swift build --package-path Examples/NotesApp
import PackageDescription

let package = Package(
    name: "NotesApp",
    // NB: SwiftPM knows a path dependency by its folder's name (`main`, `wt-notes`, …), so
    // `package: "FluxShell"` alone fails in a checkout not named FluxShell; `name:` gives it the
    // name the products below use, in every checkout.
    dependencies: [.package(name: "FluxShell", path: "../..")],
    targets: [
        // The app's own feature: knows FluxCore only, nothing of the shell.
        .target(
            name: "NotesFeature",
            dependencies: [.product(name: "FluxCore", package: "FluxShell")]),
        // The 10-line shell: the built-in counter plus the notes store.
        .executableTarget(
            name: "notesh",
            dependencies: [
                .product(name: "FluxShellCommand", package: "FluxShell"),
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxStores", package: "FluxShell"),
                "NotesFeature",
            ]),
        // The app itself, running: its debug build serves its store to `notesh attach notes`.
        .executableTarget(
            name: "notes-app",
            dependencies: [
                .product(name: "FluxCore", package: "FluxShell"),
                .product(name: "FluxShellAgent", package: "FluxShell"), "NotesFeature",
            ]),
    ]
)
