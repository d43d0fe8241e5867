import FluxShellTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `test` runs its scenarios in a child process; a parent killed outright (`kill -9`) takes its
/// child with it, and the child removes the parent's working folder.
struct ChildProcessTests {
    #if os(Linux)
        /// The processes whose parent is `parent`, from `/proc/PID/stat`.
        static func children(of parent: pid_t) -> [pid_t] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return names.compactMap { name -> pid_t? in
                guard let pid = pid_t(name),
                    let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                    let close = stat.lastIndex(of: ")")
                else { return nil }
                // NB: after the command's name in parentheses: the state, then the parent's pid.
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                return fields.count > 2 && pid_t(fields[1]) == parent ? pid : nil
            }
        }

        /// Whether `pid` has ended: gone, or a zombie that its new parent has yet to reap.
        static func hasEnded(_ pid: pid_t) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return true }
            return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
        }

        @Test func killingTheParentOfTestEndsItsChildAndRemovesTheWorkingFolder() throws {
            let folder = URL(fileURLWithPath: "/tmp/fluxsh-orphan-\(UUID().uuidString)")
            let temporary = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // NB: a scenario that is a FIFO: the child opens it and waits for its lines, and
            // this test's open for writing returns once the child has opened it.
            let fifo = folder.appendingPathComponent("waiting.scenario").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let process = Process()
            process.executableURL = Fluxsh.binary
            process.arguments = ["test", fifo]
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temporary.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let writer = open(fifo, O_WRONLY | O_CLOEXEC)
            #expect(writer >= 0)
            defer { close(writer) }
            let children = Self.children(of: process.processIdentifier)
            #expect(children.count == 1)
            let working = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            #expect(working.count == 1 && working[0].hasPrefix("fluxsh-test-"), "\(working)")

            kill(process.processIdentifier, SIGKILL)
            // NB: the child's end of the FIFO closes when it ends: POLLERR on the write end.
            var event = pollfd(fd: writer, events: 0, revents: 0)
            let ready = poll(&event, 1, 20_000)
            #expect(ready == 1 && event.revents & Int16(POLLERR) != 0, "the child still reads the scenario")
            for child in children {
                var polls = 0
                while !Self.hasEnded(child), polls < 2_000 {
                    polls += 1
                    usleep(1_000)
                }
                #expect(Self.hasEnded(child), "child \(child) still runs")
                if !Self.hasEnded(child) { kill(child, SIGKILL) }
            }
            // NB: after the child: `Process` sees its process end when every descendant has.
            process.waitUntilExit()
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        }
    #endif
}
