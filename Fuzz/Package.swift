// swift-tools-version: 6.1
// libFuzzer targets: `fluxfuzz` over the command parser and whole scripts, `fluxfuzzvalues` over
// the value text parser (every printed form of SPEC §4 read back), `fluxfuzzattach` over the
// agent's line handling (bytes from an attached shell). Run: make fuzz
import PackageDescription

let package = Package(
    name: "FluxShellFuzz",
    // NB: SwiftPM knows a path dependency by its folder's name; `name:` makes it `FluxShell` in a
    // checkout of any name.
    dependencies: [
        .package(name: "FluxShell", path: ".."),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .executableTarget(
            name: "fluxfuzz",
            dependencies: [
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxStores", package: "FluxShell"),
            ]),
        .executableTarget(
            name: "fluxfuzzvalues",
            dependencies: [
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Tagged", package: "swift-tagged"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]),
        .executableTarget(
            name: "fluxfuzzattach",
            dependencies: [
                .product(name: "FluxCore", package: "FluxShell"),
                .product(name: "FluxShell", package: "FluxShell"),
            ]),
    ]
)
