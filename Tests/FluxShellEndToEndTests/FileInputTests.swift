import FluxShellTestSupport
import Foundation
import Testing

/// Files and streams: what is not a regular file (a pipe, `/dev/stdin`) is read to its end; a
/// file that cannot be read is a usage error, status 2; output that cannot be written is an error,
/// status 1, and a reader that goes ends the shell quietly.
struct FileInputTests {
    @Test func runReadsStandardInputAsAFile() throws {
        let result = try Fluxsh.run(
            ["run", "--no-color", "/dev/stdin"], stdin: "load counter\ndispatch increment\ndispatch add 2\n")
        #expect(result.stdout == "~ count: 0 -> 1\n~ count: 1 -> 3\n", "\(result.stdout)\(result.stderr)")
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// As another user (root runs the tests in CI; elsewhere there is no second user to be).
    @Test func aScenarioThatCannotBeReadIsAUsageError() throws {
        let folder = URL(fileURLWithPath: "/tmp/fluxsh-unreadable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o755)
        let readable = folder.appendingPathComponent("ok.scenario")
        let secret = folder.appendingPathComponent("secret.scenario")
        for file in [readable, secret] {
            try "load counter\ndispatch increment\n~ count: 0 -> 1\n".write(to: file, atomically: true, encoding: .utf8)
        }
        chmod(readable.path, 0o644)
        chmod(secret.path, 0o600)
        guard let result = try Fluxsh.asNobody([Fluxsh.binary.path, "test", "--no-color", readable.path, secret.path])
        else { return }
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(
            (result.stdout + result.stderr).contains(
                "\(secret.path):1: error: cannot read '\(secret.path)': Permission denied"),
            "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS \(readable.path)"))
    }

    @Test func outputThatCannotBeWrittenIsAnErrorAndABrokenPipeEndsQuietly() throws {
        let shell = URL(fileURLWithPath: "/bin/sh")
        let binary = Fluxsh.binary.path
        for arguments in ["", "stores", "run /dev/stdin"] {
            let full = try Fluxsh.run(
                ["-c", "\(binary) \(arguments) > /dev/full"], stdin: "load counter\ndispatch increment\n",
                program: shell)
            #expect(full.status == 1, "\(arguments): \(full.stderr)")
            #expect(
                full.stderr.hasSuffix(
                    "error: cannot write to standard output: No space left on device; what was printed is lost\n"),
                "\(arguments): \(full.stderr)")
        }
        // NB: the input is made in the shell: a writer in this process would meet the closed pipe.
        // The pipeline's commands get the default SIGPIPE back: this process may ignore it
        // (swift-nio ignores it process-wide once it makes a socket, as the agent's tests do), and a
        // child inherits an ignored signal, so `yes` and `head` would complain of the closed pipe
        // instead of ending quietly.
        #if os(Linux)
            let pipeline = ["--default-signal=PIPE", shell.path]
            let program = URL(fileURLWithPath: "/usr/bin/env")
        #else
            let pipeline: [String] = []
            let program = shell
        #endif
        let head = try Fluxsh.run(
            pipeline + ["-c", "{ echo load counter; yes dispatch increment | head -n 100000; } | \(binary) | head -1"],
            program: program)
        #expect(head.stdout.hasPrefix("~ count: 0 -> 1\n"), "\(head.stdout)")
        #expect(head.stderr.isEmpty, "\(head.stderr)")
    }
}
