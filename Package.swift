// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "FluxShell",
    products: [
        .library(name: "FluxCore", targets: ["FluxCore"]),
        .library(name: "FluxShell", targets: ["FluxShell"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Layer 0: the unidirectional data flow library. No dependencies.
        .target(name: "FluxCore"),
        .testTarget(name: "FluxCoreTests", dependencies: ["FluxCore"]),

        // Layer 1: the shell engine: commands, values, paths, diffs, sessions, scenarios.
        // Pure: strings in, strings out; no terminal code.
        .target(name: "FluxShell", dependencies: ["FluxCore"]),

        // Benchmark of FluxCore's hot path: `make bench`.
        .executableTarget(name: "fluxbench", dependencies: ["FluxCore"]),
    ]
)
