#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// This executable run again as a child process: `fluxsh explore` explores in one, so that a trap
/// in a store's mutation ends the child, not the exploration.
enum ChildProcess {
    /// How a child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
    }

    /// The running executable's path.
    static var executablePath: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return CommandLine.arguments.first ?? "fluxsh"
    }

    /// Runs this executable with `arguments` and `environment` added to this process's, standard
    /// output and error sent to files (`nil`: shared with this process), and waits for it.
    static func run(
        _ arguments: [String], environment: [String: String], standardOutput: String? = nil, standardError: String? = nil
    ) -> Ending? {
        let path = executablePath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardOutput {
            posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        if let standardError {
            posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        var environmentLines = environment.map { "\($0.key)=\($0.value)" }
        var index = 0
        while let entry = environ[index] {
            let line = String(cString: entry)
            if let name = line.split(separator: "=", maxSplits: 1).first, environment[String(name)] == nil {
                environmentLines.append(line)
            }
            index += 1
        }
        // NB: the C strings live until the child is spawned: strdup'd, freed below.
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environmentLines.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let spawned = argv.withUnsafeBufferPointer { arguments in
            envp.withUnsafeBufferPointer { environment in
                posix_spawn(&pid, path, &actions, nil, arguments.baseAddress!, environment.baseAddress!)
            }
        }
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // NB: the wait status's encoding: low 7 bits the signal (0 for a normal exit), then the
        // exit status in the next byte.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}
