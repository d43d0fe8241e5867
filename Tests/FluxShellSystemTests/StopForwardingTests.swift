import Testing

@testable import FluxShellSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C while `fluxsh` has no child running (it is starting one) is not lost: the next child
/// gets it as soon as it is the one being waited for.
struct StopForwardingTests {
    @Test func aStopWhileNoChildRunsGoesToTheNextChild() throws {
        Platform.forwardStopSignals()
        defer { Platform.childToStop = 0 }
        raise(SIGINT)
        let spawned = Platform.spawn(
            "/bin/sleep", arguments: ["sleep", "30"], environment: [], standardOutput: nil, standardError: nil)
        let pid = try #require(spawned)
        Platform.childToStop = pid
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { break }
        }
        #expect(status & 0x7F == SIGINT, "the child ended otherwise: wait status \(status)")
        // NB: taken once: the child after it runs undisturbed.
        let next = try #require(
            Platform.spawn(
                "/bin/sh", arguments: ["sh", "-c", "exit 3"], environment: [], standardOutput: nil,
                standardError: nil))
        Platform.childToStop = next
        while waitpid(next, &status, 0) < 0 {
            guard errno == EINTR else { break }
        }
        #expect(status & 0x7F == 0 && (status >> 8) & 0xFF == 3)
    }
}
