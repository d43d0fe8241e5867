// swift-tools-version: 6.1
// libFuzzer targets: `fluxfuzz` over the command parser and whole scripts, `fluxfuzzvalues` over
// the value text parser (every printed form of “Printed values” in the reference read back), `fluxfuzzattach` over the
// agent's line handling (bytes from an attached shell). Run: make fuzz
import PackageDescription

// NB: the fuzzers reach the engine's `package` declarations (the parser, the session, the agent's
// line handling), which only modules of the same package see. SwiftPM names a package after its
// folder's name (`-package-name`, lowercased, other characters than letters and digits as `_`), so
// the fuzzers are compiled as part of the package in the folder above, whatever its name.
let engine = Context.packageDirectory.split(separator: "/").dropLast().last.map {
    String($0.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" })
}
let samePackage: [SwiftSetting] = engine.map { [.unsafeFlags(["-package-name", $0])] } ?? []

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
            ], swiftSettings: samePackage),
        .executableTarget(
            name: "fluxfuzzvalues",
            dependencies: [
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Tagged", package: "swift-tagged"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ], swiftSettings: samePackage),
        .executableTarget(
            name: "fluxfuzzattach",
            dependencies: [
                .product(name: "FluxCore", package: "FluxShell"),
                .product(name: "FluxShell", package: "FluxShell"),
            ], swiftSettings: samePackage),
    ]
)
