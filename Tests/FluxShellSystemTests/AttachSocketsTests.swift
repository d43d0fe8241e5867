import Testing

@testable import FluxShellSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where apps serve their stores: the claim on a name, and the folder a shell trusts.
struct AttachSocketsTests {
    /// A private folder of this user's, removed by the caller.
    static func folder() -> String {
        var template = Array("/tmp/fluxsh-sockets-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        #expect(made != nil)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func oneAppAtATimeHoldsAName() throws {
        let folder = Self.folder()
        defer { rmdir(folder) }
        let socket = folder + "/notes.sock"
        let first = try AttachSockets.claim(socket, name: "notes")
        #expect(throws: AttachSockets.servedElsewhere("notes", socket)) {
            try AttachSockets.claim(socket, name: "notes")
        }
        first.release()
        #expect(access(folder + "/notes.lock", F_OK) != 0)
        let second = try AttachSockets.claim(socket, name: "notes")
        second.release()
    }

    @Test func aShellTrustsOnlyAPrivateFolderOfItsUser() throws {
        let folder = Self.folder()
        defer { rmdir(folder) }
        #expect(try AttachSockets.checkFolderTrusted(folder))
        #expect(try !AttachSockets.checkFolderTrusted(folder + "/none"))
        chmod(folder, 0o777)
        #expect(throws: ShellError.self) { try AttachSockets.checkFolderTrusted(folder) }
        let link = folder + "-link"
        symlink(folder, link)
        defer { unlink(link) }
        chmod(folder, 0o700)
        #expect(throws: ShellError.self) { try AttachSockets.checkFolderTrusted(link) }
    }
}
