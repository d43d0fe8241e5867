import FluxShellTestSupport
import Foundation
import Testing

/// A write past the file-size limit (`ulimit -f`) is an error like any failed write: the process
/// is not ended by SIGXFSZ, the hidden file beside the target is removed, and the session goes on.
struct FileSizeLimitTests {
    /// `fluxsh ARGUMENTS` under a file-size limit of `blocks` (of 512 bytes, as `sh` counts them).
    private func limited(_ blocks: Int, _ arguments: [String], stdin: String = "", in folder: URL) throws
        -> Fluxsh.Output
    {
        try Fluxsh.run(
            ["-c", "ulimit -f \(blocks); exec \"$0\" \"$@\"", Fluxsh.binary.path] + arguments, stdin: stdin, in: folder,
            program: URL(fileURLWithPath: "/bin/sh"))
    }

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xfsz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func hiddenFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
    }

    @Test func saveTestUpdateAndJUnitPastTheLimitAreErrors() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let title = String(repeating: "a", count: 100)
        let lines = (1...40).map { _ in "dispatch add title: \(title)" }
        let saved = try limited(
            2, ["--store", "todos"],
            stdin: (lines + ["save big.scenario", "state todos.count"]).joined(separator: "\n") + "\n", in: here)
        #expect(saved.status == 1)
        #expect(saved.stderr == "<stdin>:41: error: cannot write 'big.scenario': file too large\n")
        #expect(saved.stdout.hasSuffix("\n40\n"))
        #expect(try hiddenFiles(in: here).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: here.appendingPathComponent("big.scenario").path))

        // --update writes the blocks exhaustive mode asks for, and the scenario outgrows the limit
        // (about 4 KB before, 9 KB after): an error at that file, not a trap.
        let bare = ["exhaustive on", "load todos"] + lines.prefix(33)
        try (bare.joined(separator: "\n") + "\n").write(
            to: here.appendingPathComponent("grow.scenario"), atomically: true, encoding: .utf8)
        let updated = try limited(10, ["test", "--update", "--no-color", "grow.scenario"], in: here)
        #expect(!updated.stdout.contains("trapped") && !updated.stderr.contains("trapped"), "\(updated.stdout)")
        #expect(updated.stdout.contains("cannot write 'grow.scenario': file too large"), "\(updated.stdout)")
        #expect(updated.status != 0)
        #expect(try hiddenFiles(in: here).isEmpty)

        // --junit past the limit: the reference's error, status 2.
        for index in 0..<30 {
            try "load counter\nexpect count == 1\n".write(
                to: here.appendingPathComponent("s\(index).scenario"), atomically: true, encoding: .utf8)
        }
        let junit = try limited(
            2, ["test", "--junit", "report.xml", "--no-color"] + (0..<30).map { "s\($0).scenario" }, in: here)
        #expect(junit.stderr.contains("error: cannot write 'report.xml': file too large"), "\(junit.stderr)")
        #expect(junit.status == 2)
        #expect(try hiddenFiles(in: here).isEmpty)
    }

    @Test func standardOutputPastTheLimitIsAnError() throws {
        let here = try folder()
        defer { try? FileManager.default.removeItem(at: here) }
        let input = String(repeating: "dispatch increment\n", count: 3000)
        let result = try Fluxsh.run(
            ["-c", "ulimit -f 2; exec \"$0\" --store counter > out.txt", Fluxsh.binary.path], stdin: input, in: here,
            program: URL(fileURLWithPath: "/bin/sh"))
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: cannot write to standard output: "), "\(result.stderr)")
    }
}
