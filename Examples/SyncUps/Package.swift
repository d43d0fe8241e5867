// swift-tools-version: 6.1
// A meeting planner in the style of TCA's SyncUps, as an app built on swift-identified-collections
// and swift-tagged holds it: identified arrays, tagged ids, durations, index sets, ordered sets, and
// a framework's generic action wrappers from a module of their own. None of it is Codable; the
// shell types every value back from how it prints. Build: swift build --package-path Examples/SyncUps
import PackageDescription

let package = Package(
    name: "SyncUps",
    dependencies: [
        // NB: `name:` gives the path dependency the name the products below use, in a checkout of any name.
        .package(name: "FluxShell", path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-tagged", from: "0.10.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        // A framework's navigation tools, as TCA's `PresentationAction` and `IdentifiedAction`:
        // generic wrapper enums of another module, knowing nothing of FluxShell.
        .target(name: "FeatureKit"),
        // The app's feature: knows FluxCore and its own libraries, nothing of the shell.
        .target(
            name: "SyncUpsFeature",
            dependencies: [
                "FeatureKit",
                .product(name: "FluxCore", package: "FluxShell"),
                .product(name: "IdentifiedCollections", package: "swift-identified-collections"),
                .product(name: "Tagged", package: "swift-tagged"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]),
        // The shell: one line registers the store.
        .executableTarget(
            name: "syncupsh",
            dependencies: [
                "SyncUpsFeature",
                .product(name: "FluxShell", package: "FluxShell"),
                .product(name: "FluxShellCommand", package: "FluxShell"),
                // `syncupsh web`: the devtools page in a browser.
                .product(name: "FluxShellWeb", package: "FluxShell"),
            ]),
    ]
)
