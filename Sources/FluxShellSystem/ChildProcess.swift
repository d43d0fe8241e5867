#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// This executable run again as a child process: `fluxsh explore` explores in one, so that a trap
/// in a store's mutation ends the child, not the exploration.
package enum ChildProcess {
    /// How a child ended.
    package enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// The running executable, to start again: on Linux `/proc/self/exe`, which names this very
    /// file even when it was replaced or deleted since (a rebuild during a long exploration).
    package static var executablePath: String? {
        #if canImport(Darwin)
            var size: UInt32 = 4096
            var buffer = [CChar](repeating: 0, count: Int(size))
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
            return String(cString: buffer)
        #else
            return access("/proc/self/exe", X_OK) == 0 ? "/proc/self/exe" : nil
        #endif
    }

    /// The parent a child started with, for ``endIfOrphaned()``.
    private static let parent = LockedValue<pid_t>(0)

    /// In a child: remembers its parent, so that ``endIfOrphaned()`` can tell when it ended.
    package static func rememberParent() { parent.withLock { $0 = getppid() } }

    /// In a child: ends it when its parent ended (the parent was killed), so that no orphan
    /// explores on unseen. Asked at each run (one `getppid` a run; `prctl`'s death signal is not
    /// visible to Swift, being variadic).
    package static func endIfOrphaned() {
        let parent = parent.withLock { $0 }
        if parent != 0, getppid() != parent { exit(143) }
    }

    /// Runs this executable with `arguments` (after `argv[0]`, kept as this process's so that the
    /// child names itself the same) and this process's environment, standard output and error
    /// sent to files (`nil`: shared with this process), and waits for it. The child's traps are
    /// not symbolicated (`SWIFT_BACKTRACE=enable=no`): its fatal error line is all that is read,
    /// and a backtrace would take seconds.
    package static func run(
        _ arguments: [String], standardOutput: String? = nil, standardError: String? = nil
    ) -> Ending? {
        guard let path = executablePath else { return nil }
        guard let lifeline = Lifeline() else { return nil }
        defer { lifeline.close() }
        let backtrace = "SWIFT_BACKTRACE=enable=no"
        var environmentLines = [backtrace, Self.lifelineVariable + "=" + String(lifeline.readEnd)]
        if let folder = workingFolder.withLock({ $0 }) {
            environmentLines.append(Self.workingFolderVariable + "=" + folder)
        }
        let replaced = ["SWIFT_BACKTRACE=", Self.lifelineVariable + "=", Self.workingFolderVariable + "="]
        environmentLines += Platform.environmentLines().filter { line in !replaced.contains { line.hasPrefix($0) } }
        guard
            let pid = Platform.spawn(
                path, arguments: [CommandLine.arguments.first ?? path] + arguments, environment: environmentLines,
                standardOutput: standardOutput, standardError: standardError)
        else { return nil }
        lifeline.closeReadEnd()
        return wait(for: pid)
    }

    // MARK: - Dying with the parent

    /// The variable that tells a child the descriptor of its end of the lifeline.
    private static let lifelineVariable = "FLUXSH_PARENT_LIFELINE"
    /// The variable that tells a child the parent's working folder, to remove if the parent dies.
    private static let workingFolderVariable = "FLUXSH_PARENT_FOLDER"

    /// The private folder of this process's working files (``makeTemporaryFolder(named:)``): its
    /// children remove it when this process dies before it could.
    private static let workingFolder = LockedValue<String?>(nil)

    /// A pipe whose write end only the parent holds: when the parent ends, however it ends
    /// (`kill -9` included), the kernel closes it, and the child's read returns end-of-file.
    private struct Lifeline {
        let readEnd: Int32
        let writeEnd: Int32

        init?() {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { return nil }
            // NB: the write end is not inherited by any child (close-on-exec); the read end is,
            // by the child being started, at its number, which the environment tells it.
            _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        /// After the spawn: only the child holds the read end.
        func closeReadEnd() { _ = systemClose(readEnd) }

        /// After the wait.
        func close() {
            _ = systemClose(readEnd)
            _ = systemClose(writeEnd)
        }
    }

    /// In a child started by ``run(_:standardOutput:standardError:)``: ends this process as
    /// soon as its parent has ended, after removing the parent's working folder (which the parent
    /// can no longer remove). A thread waits on the lifeline, so it costs nothing until then.
    /// Does nothing in a process that no `fluxsh` started.
    package static func endWithParent() {
        guard let text = Platform.environment(lifelineVariable), let descriptor = Int32(text), descriptor > 2 else {
            return
        }
        let folder = Platform.environment(workingFolderVariable).flatMap { $0.isEmpty ? nil : $0 }
        unsetenv(lifelineVariable)
        unsetenv(workingFolderVariable)
        // NB: the lifeline is this process's alone: a child of its own does not keep it open.
        guard fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else { return }
        // NB: a thread of its own, not a queue's: the scenarios may hold every worker of the
        // queues, and the end of the lifeline must be seen at once.
        Platform.startThread {
            var byte: [UInt8] = []
            // NB: no one writes to the lifeline: any return is its end, the parent's.
            _ = Platform.read(descriptor, appendingTo: &byte, upTo: 1)
            if let folder { removeFolder(folder) }
            Platform.exitAtOnce(128 + SIGHUP)
        }
    }

    /// Removes `folder` and the files in it (a working folder holds no folder).
    private static func removeFolder(_ folder: String) {
        // NB: the files are removed by name, taken from the folder itself: a file made while
        // they are removed is taken in the next round.
        for _ in 0..<3 {
            guard case .success(let names) = FileSystem.names(in: folder) else { return }
            for name in names { unlink(folder + "/" + name) }
            if rmdir(folder) == 0 || errno == ENOENT { return }
        }
    }

    /// Waits for child `pid` to end (passing it SIGINT and SIGTERM meanwhile).
    private static func wait(for pid: pid_t) -> Ending? {
        Platform.childToStop = pid
        defer { Platform.childToStop = 0 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // NB: the wait status's encoding: low 7 bits the signal (0 for a normal exit), then the
        // exit status in the next byte.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }

    /// What a child that died said: its fatal error, else its signal.
    package static func cause(_ errors: String, signal: Int32) -> String {
        if let line = errors.split(separator: "\n").first(where: {
            $0.contains("Fatal error") || $0.contains("fatal error")
        }) {
            return String(line)
        }
        return Platform.deathDescription(signal)
    }

    /// A file's text, or "" when it cannot be read.
    package static func contents(of path: String) -> String {
        guard let bytes = try? FileSystem.read(path) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A new private folder under `TMPDIR` (or `/tmp`), or `nil` with the reason. The children
    /// started after it remove it if this process dies first.
    package static func makeTemporaryFolder(named stem: String) -> (path: String?, error: String?) {
        let base = Platform.environment("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/" + stem + "-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            return (nil, "cannot make a temporary folder in \(base): \(String(cString: strerror(errno)))")
        }
        // NB: the folder's path is the template as `mkdtemp` filled it in, up to its terminating zero.
        let folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        workingFolder.withLock { $0 = folder }
        return (folder, nil)
    }
}

// NB: `Lifeline.close` shadows libc's `close` inside the type.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
