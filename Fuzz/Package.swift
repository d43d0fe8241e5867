// swift-tools-version: 6.1
// The libFuzzer target over the command parser and argument decoding. Run: make fuzz
import PackageDescription

let package = Package(
    name: "FluxShellFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(
            name: "fluxfuzz",
            dependencies: [
                .product(name: "FluxShell", package: "main"),
                .product(name: "FluxStores", package: "main"),
            ])
    ]
)
