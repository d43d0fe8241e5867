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
