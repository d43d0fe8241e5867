#if canImport(FoundationEssentials)
    // NB: FoundationEssentials, not Foundation: it spares every fluxsh start loading ICU.
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file-system access of the engine: reading scripts and scenarios, finding scenario
/// files, and writing files atomically (a file is never left half-written; ``FileReplacement``).
package enum FileSystem {
    /// The bytes of a file, or a ``ShellError`` saying why it cannot be read.
    public static func read(_ path: String) throws(ShellError) -> [UInt8] {
        switch kind(of: path) {
        case .missing: throw ShellError("cannot read '\(path)': no such file")
        case .directory: throw ShellError("cannot read '\(path)': it is a directory")
        case .file: break
        }
        // NB: open(2) and read(2) until the end, blocking: a pipe, a FIFO, `/dev/stdin` or a
        // process substitution (`run <(…)`) is read as a file is, which a read that asks for the
        // size first, or will not wait, refuses.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ShellError("cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let block = 1 << 16
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            // NB: room for the last read's block too, which finds the end: no copy to grow.
            bytes.reserveCapacity(Int(info.st_size) + block)
        }
        while true {
            let count = Platform.read(descriptor, appendingTo: &bytes, upTo: block)
            guard count >= 0 else {
                throw ShellError("cannot read '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
        }
    }

    /// `path` with its links, `.` and `..` resolved, absolute: two paths that name the same file
    /// give the same text; `path` itself when it names nothing.
    public static func resolvedPath(_ path: String) -> String {
        // NB: realpath(3) with no buffer allocates the result, which is freed here once copied.
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Writes `text` to `path`: a new file written beside it that replaces it in one rename,
    /// keeping its mode and owner, so that the file is never left half-written; a device or a pipe
    /// is written in place. See ``FileReplacement`` for links and what is refused.
    ///
    /// - Parameter durable: whether the content is on disk before the rename (`fsync`); a
    ///   working file that no one keeps can do without.
    /// - Throws: a ``ShellError`` saying why, and the file is as it was.
    public static func writeAtomically(_ text: String, to path: String, durable: Bool = true) throws(ShellError) {
        let replacement = try FileReplacement(path)
        let file = OutputFile(descriptor: replacement.descriptor)
        if let code = file.write(text) {
            replacement.abandon()
            throw ShellError("cannot write '\(path)': \(OutputFile.reason(code))")
        }
        try replacement.commit(durable: durable)
        if let code = file.close(), replacement.isInPlace {
            throw ShellError("cannot write '\(path)': \(OutputFile.reason(code))")
        }
    }

    public enum Kind { case file, directory, missing }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The device and inode of the file at `path` (links followed), which two names of one file
    /// share; `nil` when it cannot be read.
    public static func identity(of path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return identity(info)
    }

    /// The device and inode a `stat` gave.
    private static func identity(_ info: stat) -> [UInt64] {
        [UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino)]
    }

    /// What a walk for files met that it could not walk: each is reported, none is silent.
    public struct WalkProblem: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A folder that cannot be read (or an entry whose kind cannot be told), and why.
            case unreadable(reason: String)
            /// A symbolic link to a folder that holds it (walking it would never end), or one that
            /// leads to itself; `to` is the folder's path in this walk, or `nil`.
            case loop(to: String?)
        }

        public var path: String
        public var kind: Kind
    }

    /// The files under `folder` (recursively) whose names end in `suffix`, sorted by path, and
    /// what could not be walked (an unreadable folder, a link that loops), sorted by path. A
    /// folder reached again through another link is walked once, silently; one reached through
    /// a link inside itself is a loop.
    public static func files(under folder: String, withSuffix suffix: String) -> (
        files: [String], problems: [WalkProblem]
    ) {
        var found: [String] = []
        var problems: [WalkProblem] = []
        var walked: Set<[UInt64]> = []
        // NB: each folder with the identities and paths of the folders that lead to it.
        var pending: [(path: String, ancestors: [(identity: [UInt64], path: String)])] = [(folder, [])]
        while let (current, ancestors) = pending.popLast() {
            var info = stat()
            guard stat(current, &info) == 0 else {
                problems.append(WalkProblem(path: current, kind: .unreadable(reason: OutputFile.reason(errno))))
                continue
            }
            let identity = identity(info)
            if let ancestor = ancestors.first(where: { $0.identity == identity }) {
                problems.append(WalkProblem(path: current, kind: .loop(to: ancestor.path)))
                continue
            }
            guard walked.insert(identity).inserted else { continue }
            let names: [String]
            switch Self.names(in: current) {
            case .success(let list): names = list
            case .failure(let failure):
                problems.append(WalkProblem(path: current, kind: .unreadable(reason: OutputFile.reason(failure.code))))
                continue
            }
            for name in names where !name.hasPrefix(".") {
                let path = current.hasSuffix("/") ? current + name : current + "/" + name
                var entry = stat()
                guard stat(path, &entry) == 0 else {
                    let code = errno
                    if code == ELOOP {
                        problems.append(WalkProblem(path: path, kind: .loop(to: nil)))
                    } else if code != ENOENT {
                        // NB: a link that leads nowhere is no scenario and no folder: not a problem.
                        problems.append(WalkProblem(path: path, kind: .unreadable(reason: OutputFile.reason(code))))
                    }
                    continue
                }
                if (entry.st_mode & S_IFMT) == S_IFDIR {
                    pending.append((path, ancestors + [(identity, current)]))
                } else if name.hasSuffix(suffix) {
                    found.append(path)
                }
            }
        }
        return (found.sorted(), problems.sorted { $0.path < $1.path })
    }

    package struct ListingFailure: Error { package let code: Int32 }

    /// The names in `folder` (`.` and `..` left out), or the `errno` of the failure.
    package static func names(in folder: String) -> Result<[String], ListingFailure> {
        Platform.names(in: folder)
    }
}

extension FileSystem {
    /// The names in a folder, folders with a trailing `/`; hidden entries left out.
    public static func entries(in folder: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.map { name in
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            return kind(of: path) == .directory ? name + "/" : name
        }
    }
}
