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
@usableFromInline
package struct OutputFile: Sendable {
    let descriptor: Int32
    #if !canImport(Darwin)
        /// Whether a failed write can raise SIGPIPE: the descriptor is a pipe, a FIFO or a socket
        /// (or of a kind that `fstat` could not tell).
        private let canRaiseBrokenPipe: Bool
    #endif

    /// Wraps a descriptor that is already open for writing.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
        #if !canImport(Darwin)
            var status = stat()
            if fstat(descriptor, &status) == 0 {
                let kind = status.st_mode & mode_t(S_IFMT)
                canRaiseBrokenPipe = kind == mode_t(S_IFIFO) || kind == mode_t(S_IFSOCK)
            } else {
                canRaiseBrokenPipe = true
            }
        #endif
    }

    /// Starts the file at `path` anew with `header`, to be written on: a new file holding
    /// `header` replaces the old one in one rename (``FileReplacement``: mode and owner kept,
    /// links resolved, planted links refused), so the old content is there until the new file
    /// has begun; a device or a pipe is written in place.
    ///
    /// - Throws: a ``ShellError`` saying why the file cannot be created or `header` written; the
    ///   file is then as it was.
    package static func create(_ path: String, startingWith header: String = "") throws(ShellError) -> OutputFile {
        let replacement = try FileReplacement(path, verb: "create")
        let file = OutputFile(descriptor: replacement.descriptor)
        if let code = file.write(header) {
            replacement.abandon()
            throw ShellError("cannot create '\(path)': \(reason(code))")
        }
        try replacement.commit()
        return file
    }

    /// Writes all of `text` in one `write(2)` call, more only when the system writes part of it
    /// (or is interrupted by a signal).
    ///
    /// A pipe whose reader is gone (`app | head`) is a failed write, `EPIPE`, not a SIGPIPE that
    /// kills the process (on Darwin, for a file ``create(_:startingWith:)`` opened); the signal's disposition,
    /// process-wide, is left as the app set it.
    ///
    /// - Returns: `nil`, or the `errno` of the failed write.
    package func write(_ text: String) -> Int32? {
        #if canImport(Darwin)
            // NB: a file `create` opened does not raise SIGPIPE (F_SETNOSIGPIPE).
            return writeAll(text)
        #else
            // NB: Linux raises SIGPIPE only for pipes, FIFOs and sockets; a regular file, a
            // terminal or /dev/null is written without the three more system calls below, which
            // cost more than the write itself.
            guard canRaiseBrokenPipe else { return writeAll(text) }
            // NB: safe because SIGPIPE for a failed write(2) is raised in the writing thread
            // (synchronously, before write returns): blocked here, it waits pending in this
            // thread alone, where no other thread's handler or sigwait sees it, and is taken back
            // before the old mask returns. One already pending before (the app's, or raised by
            // `kill`) is left pending, as a second standard signal would merge into it anyway.
            var brokenPipe = sigset_t()
            sigemptyset(&brokenPipe)
            sigaddset(&brokenPipe, SIGPIPE)
            var previousMask = sigset_t()
            pthread_sigmask(SIG_BLOCK, &brokenPipe, &previousMask)
            var pending = sigset_t()
            sigpending(&pending)
            let wasPending = sigismember(&pending, SIGPIPE) == 1
            let failure = writeAll(text)
            if failure == EPIPE, !wasPending {
                var noWait = timespec(tv_sec: 0, tv_nsec: 0)
                while sigtimedwait(&brokenPipe, nil, &noWait) < 0, errno == EINTR {}
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            return failure
        #endif
    }

    /// The `write(2)` calls of ``write(_:)``.
    private func writeAll(_ text: String) -> Int32? {
        let failure = Platform.write(descriptor, text)
        return failure == 0 ? nil : failure
    }

    /// Closes the descriptor.
    ///
    /// - Returns: `nil`, or the `errno` of a failed close (on some file systems the last
    ///   write's error shows only there).
    @discardableResult
    package func close() -> Int32? {
        // NB: not retried on EINTR: on Linux the descriptor is closed even then, and a second
        // close could close one that another thread has just opened.
        systemClose(descriptor) == 0 ? nil : errno
    }

    /// `errno` in words: `no space left on device`.
    package static func reason(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        let reason = String(cString: text)
        guard let first = reason.first else { return "error \(code)" }
        return first.lowercased() + reason.dropFirst()
    }

    /// Writes `text` to standard error, as far as it can (a closed standard error is ignored).
    package static func writeToStandardError(_ text: String) {
        _ = OutputFile(descriptor: 2).write(text)
    }
}

// NB: `OutputFile`'s own `close` shadows the libc function inside it.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
