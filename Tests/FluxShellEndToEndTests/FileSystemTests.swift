import FluxShellTestSupport
import Foundation
import Testing

@testable import FluxShellSession
@testable import FluxShellSystem
@testable import FluxShellValues

/// The walk for scenario files says what it could not walk: a folder that cannot be read is a
/// usage error (`test` exits 2), a symbolic link that loops a warning.
struct FileSystemTests {
    static func folder() throws -> URL {
        let url = URL(fileURLWithPath: "/tmp/fluxsh-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        chmod(url.path, 0o755)
        chmod(url.appendingPathComponent("sub").path, 0o755)
        for name in ["a.scenario", "sub/c.scenario"] {
            try "load counter\n".write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return url
    }

    @Test func linksThatLoopAreWalkedOnceAndReported() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.path + "/sub/loop", withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: folder.path + "/self", withDestinationPath: "self")
        // NB: a second way to a folder that does not hold the link is no loop: walked once, silently.
        try manager.createSymbolicLink(atPath: folder.path + "/again", withDestinationPath: "sub")

        let walk = FileSystem.files(under: folder.path, withSuffix: ".scenario")
        #expect(walk.files == [folder.path + "/a.scenario", folder.path + "/sub/c.scenario"])
        #expect(
            walk.problems == [
                .init(path: folder.path + "/self", kind: .loop(to: nil)),
                .init(path: folder.path + "/sub/loop", kind: .loop(to: folder.path)),
            ])

        let tested = try Fluxsh.run(["test", "--no-color", "."], in: folder)
        #expect(tested.stdout == "PASS ./a.scenario\nPASS ./sub/c.scenario\n2 passed, 0 failed\n")
        #expect(
            tested.stderr == """
                warning: skipped './self': a symbolic link that leads to itself
                warning: skipped './sub/loop': a symbolic link to '.', which holds it (a loop)

                """)
        #expect(tested.status == 0)
    }

    /// As the user `nobody`: root reads every folder.
    @Test func aFolderThatCannotBeReadIsAUsageError() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        try "load counter\n".write(to: locked.appendingPathComponent("b.scenario"), atomically: true, encoding: .utf8)
        chmod(locked.path, 0o700)
        guard
            let tested = try Fluxsh.asNobody(
                [Fluxsh.binary.path, "test", "--no-color", "."], in: folder)
        else { return }
        #expect(tested.stdout == "PASS ./a.scenario\nPASS ./sub/c.scenario\n2 passed, 0 failed\n")
        #expect(
            tested.stderr
                == "error: cannot read './locked': permission denied (its scenarios, if it holds any, are not run)\n")
        #expect(tested.status == 2)

    }
}
