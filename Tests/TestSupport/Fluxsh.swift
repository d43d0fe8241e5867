import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `fluxsh` with arguments and standard input, and compares standard output,
/// standard error and the exit status.
package struct Fluxsh {
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `fluxsh` built with these tests: beside the test bundle, in the build folder this
    /// build used (debug, release, or a sanitizer's), not a fixed path that may hold a stale one.
    package static let binary = executable("fluxsh")

    /// Whether these tests and the executables beside them run under the thread sanitizer
    /// (`make tsan`), whose runtime takes the signals a few tests send a child for itself: it
    /// reports a stack overflow as its own error, and faults under a file size limit.
    package static let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

    /// An executable of this package built with the tests (`fluxsh`, `planted-shell`).
    package static func executable(_ name: String) -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        for folder in [beside, beside.deletingLastPathComponent()] {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        preconditionFailure("no \(name) beside \(beside.path): build it with the tests (swift build --build-tests)")
    }

    package struct Output {
        package var stdout: String
        package var stderr: String
        package var status: Int32
    }

    package static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:], in folder: URL? = nil,
        program: URL = binary
    ) throws -> Output {
        try run(arguments, stdinData: Data(stdin.utf8), environment: environment, in: folder, program: program)
    }

    package static func run(
        _ arguments: [String], stdinData: Data, environment: [String: String] = [:], in folder: URL? = nil,
        program: URL = binary
    ) throws -> Output {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.currentDirectoryURL = folder ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // NB: write and read on separate threads, so large inputs and outputs cannot deadlock.
        let writer = Thread {
            input.fileHandleForWriting.write(stdinData)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let errorData = Locked(Data())
        let errorRead = DispatchSemaphore(value: 0)
        let errorReader = Thread {
            errorData.set(error.fileHandleForReading.readDataToEndOfFile())
            errorRead.signal()
        }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorRead.wait()
        return Output(
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData.get(), as: UTF8.self),
            status: process.terminationStatus)
    }

    /// `runuser -u nobody -- ARGUMENTS`, or `nil` where there is no second user to be (not root,
    /// no runuser). `fluxsh` itself (``binary``) is run from a copy that user can reach, wherever
    /// the package lies (under `/root`, in a folder only its owner may enter).
    package static func asNobody(_ arguments: [String], in folder: URL? = nil) throws -> Fluxsh.Output? {
        let runuser = URL(fileURLWithPath: "/usr/sbin/runuser")
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: runuser.path) else { return nil }
        var arguments = arguments
        if arguments.first == binary.path { arguments[0] = try binaryForOtherUsers().path }
        return try Fluxsh.run(["-u", "nobody", "--"] + arguments, in: folder, program: runuser)
    }

    /// A copy of ``binary`` that any user can run: `fluxsh` in a folder of the temporary folder
    /// that anyone may enter, made anew when the binary changed. (The Swift libraries it loads
    /// are the toolchain's, which anyone may read.)
    package static func binaryForOtherUsers() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp/fluxsh-tests-\(getuid())-for-other-users")
        let copy = folder.appendingPathComponent("fluxsh")
        let manager = FileManager.default
        let source = try manager.attributesOfItem(atPath: binary.path)
        if let existing = try? manager.attributesOfItem(atPath: copy.path),
            existing[.size] as? Int == source[.size] as? Int,
            existing[.modificationDate] as? Date == source[.modificationDate] as? Date
        {
            return copy
        }
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        // NB: copied beside it, then renamed over it: a test process running at the same time
        // never runs half a file.
        let partial = folder.appendingPathComponent("fluxsh-\(UUID().uuidString)")
        try manager.copyItem(at: binary, to: partial)
        try manager.setAttributes(
            [.posixPermissions: 0o755, .modificationDate: source[.modificationDate] as Any], ofItemAtPath: partial.path)
        guard rename(partial.path, copy.path) == 0 else {
            try? manager.removeItem(at: partial)
            throw CocoaError(.fileWriteUnknown)
        }
        return copy
    }
}

/// A value shared between threads, behind a lock.
package final class Locked<T>: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: T
    package init(_ value: T) { self.value = value }
    package func set(_ new: T) { lock.withLock { value = new } }
    package func get() -> T { lock.withLock { value } }
}
