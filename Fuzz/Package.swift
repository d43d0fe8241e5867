// swift-tools-version: 6.1
// libFuzzer targets: `fluxfuzz` over the command parser and whole scripts, `fluxfuzzvalues` over
// the value text parser (every printed form of SPEC §4 read back). Run: make fuzz
import PackageDescription

let package = Package(
    name: "FluxShellFuzz",
    // NB: SwiftPM knows a path dependency by its folder's name; `name:` makes it `FluxShell` in a
    // checkout of any name.
    dependencies: [.package(name: "FluxShell", path: "..")],
    targets: [
        .executableTarget(
            name: "fluxfuzz",
            dependencies: [
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxStores", package: "FluxShell"),
            ]),
        .executableTarget(
            name: "fluxfuzzvalues",
            dependencies: [.product(name: "FluxShell", package: "FluxShell")]),
    ]
)
