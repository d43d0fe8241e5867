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
/// files, and writing files atomically (a file is never left half-written).
@_spi(Engine) public enum FileSystem {
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
        var bytes: [UInt8] = []
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 {
            bytes.reserveCapacity(Int(info.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw ShellError("cannot read '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Writes `text` to `path` through a temporary file in the same folder and a rename. What is
    /// not a regular file (`/dev/null`, a pipe, a symbolic link) is written in place instead: a
    /// rename would put a file where the device or the link was.
    public static func writeAtomically(_ text: String, to path: String) throws(ShellError) {
        if kind(of: path) == .directory {
            throw ShellError(
                "cannot write '\(path)': it is a directory",
                hint: "give a file name, e.g. \(path.hasSuffix("/") ? path : path + "/")session.scenario")
        }
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            // NB: O_TRUNC empties a file a link leads to, and is ignored by a device or a pipe.
            let descriptor = open(path, O_WRONLY | O_TRUNC)
            guard descriptor >= 0 else {
                throw ShellError("cannot write '\(path)': \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes {
                    write(descriptor, $0.baseAddress! + offset, $0.count - offset)
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    throw ShellError("cannot write '\(path)': \(String(cString: strerror(errno)))")
                }
                offset += written
            }
            return
        }
        let url = URL(fileURLWithPath: path)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            let folder = url.deletingLastPathComponent().path
            let reason =
                kind(of: folder) == .directory
                ? "permission denied or read-only file system" : "folder '\(folder)' does not exist"
            throw ShellError("cannot write '\(path)': \(reason)")
        }
    }

    public enum Kind { case file, directory, missing }

    public static func kind(of path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        return (info.st_mode & S_IFMT) == S_IFDIR ? .directory : .file
    }

    /// The files under `folder` (recursively) whose names end in `suffix`, sorted by path. A
    /// folder reached again through a symbolic link (a link to a parent) is walked once.
    public static func files(under folder: String, withSuffix suffix: String) -> [String] {
        var found: [String] = []
        var pending = [folder]
        var walked: Set<[UInt64]> = []
        while let current = pending.popLast() {
            var info = stat()
            guard stat(current, &info) == 0, walked.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else {
                continue
            }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: current) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = current.hasSuffix("/") ? current + name : current + "/" + name
                switch kind(of: path) {
                case .directory: pending.append(path)
                case .file where name.hasSuffix(suffix): found.append(path)
                default: break
                }
            }
        }
        return found.sorted()
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
