#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written through its descriptor, each ``write(_:)`` in one `write(2)` call: when it
/// returns, the bytes are the kernel's, so a crash of the process afterwards loses none of them.
///
/// NB: no buffering on purpose (``ScenarioRecorder`` writes one line per dispatched action and
/// must not lose the last ones when the app crashes); not `FileHandle`, whose `write(_:)` raises
/// an Objective-C exception on Darwin when a write fails, which Swift cannot catch.
struct OutputFile: Sendable {
    let descriptor: Int32

    /// Wraps a descriptor that is already open for writing.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Creates `path`, or empties it when it exists, for writing.
    ///
    /// - Throws: a ``ShellError`` saying why the file cannot be created.
    static func create(_ path: String) throws(ShellError) -> OutputFile {
        if FileSystem.kind(of: path) == .directory {
            throw ShellError(
                "cannot create '\(path)': it is a directory",
                hint: "give a file name, e.g. \(path.hasSuffix("/") ? path : path + "/")session.scenario")
        }
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            let code = errno
            var hint: String?
            if code == ENOENT {
                let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
                hint = "folder '\(folder.isEmpty ? "/" : folder)' does not exist"
            }
            throw ShellError("cannot create '\(path)': \(reason(code))", hint: hint)
        }
        return OutputFile(descriptor: descriptor)
    }

    /// Writes all of `text` in one `write(2)` call, more only when the system writes part of it
    /// (or is interrupted by a signal).
    ///
    /// - Returns: `nil`, or the `errno` of the failed write.
    func write(_ text: String) -> Int32? {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Closes the descriptor.
    ///
    /// - Returns: `nil`, or the `errno` of a failed close (on some file systems the last
    ///   write's error shows only there).
    @discardableResult
    func close() -> Int32? {
        // NB: not retried on EINTR: on Linux the descriptor is closed even then, and a second
        // close could close one that another thread has just opened.
        systemClose(descriptor) == 0 ? nil : errno
    }

    /// `errno` in words: `no space left on device`.
    static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let reason = String(cString: text)
        guard let first = reason.first else { return "error \(code)" }
        return first.lowercased() + reason.dropFirst()
    }

    /// Writes `text` to standard error, as far as it can (a closed standard error is ignored).
    static func writeToStandardError(_ text: String) {
        _ = OutputFile(descriptor: 2).write(text)
    }
}

// NB: `OutputFile`'s own `write` and `close` shadow the libc functions inside it.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
