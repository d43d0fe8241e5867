#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every libc and environment access of the command-line layer: terminals, environment
/// variables, raw reads and writes of the standard streams, exiting; files and signals in the
/// extensions beside it, child processes in ``ChildProcess``.
package enum Platform {
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// The columns of the terminal on standard output, or `nil` when it is not one (or says 0).
    package static func terminalColumns() -> Int? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Colors on standard output: on a terminal only, never with `--no-color` or `NO_COLOR`.
    package static func colorsOnStandardOutput(noColor: Bool) -> Bool {
        !noColor && environment("NO_COLOR") == nil && isTerminal(1)
    }

    package static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }

    /// Writes all of `bytes`, retrying short writes; gives up silently on a closed pipe.
    ///
    /// - Returns: 0, or the `errno` of the write that failed (the rest is not written).
    @discardableResult
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return 0
    }

    /// Appends what one read of at most `count` bytes gives to `bytes`: how many bytes, 0 at the
    /// end of input, -1 on an error, with `errno` as the read set it. A read a signal
    /// interrupted is tried again, unless `retryingInterrupts` is false (a caller that waits for
    /// input and checks for Ctrl-C in between).
    package static func read(
        _ descriptor: Int32, appendingTo bytes: inout [UInt8], upTo count: Int, retryingInterrupts: Bool = true
    ) -> Int {
        guard count > 0 else { return 0 }
        let oldCount = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        // NB: the array's new end is lent to read(2) for the call only, and read(2) writes no
        // more than its count: a block lands in place, with no copy. It is what read(2) takes,
        // so no measurement applies.
        var read = 0
        var error: Int32 = 0
        repeat {
            read = bytes.withUnsafeMutableBytes { raw in
                systemRead(descriptor, raw.baseAddress! + oldCount, count)
            }
            error = read < 0 ? errno : 0
        } while error == EINTR && retryingInterrupts
        bytes.removeLast(count - max(0, read))
        if read < 0 { errno = error }
        return read
    }

    /// Writes all of `bytes`, as ``write(_:_:)`` does.
    @discardableResult
    package static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
        write(descriptor, bytes[...])
    }

    /// Writes all of `bytes`, as ``write(_:_:)`` does.
    @discardableResult
    package static func write(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Int32 {
        // NB: the array's storage is lent to write(2) for the call only, which reads no more
        // than its count. It is what write(2) takes, so no measurement applies.
        bytes.withUnsafeBytes { write(descriptor, $0) }
    }

    /// Writes all of `text`'s UTF-8, as ``write(_:_:)`` does.
    @discardableResult
    package static func write(_ descriptor: Int32, _ text: String) -> Int32 {
        var text = text
        // NB: the text's own bytes, lent to write(2) for the call only, as an array's are.
        return text.withUTF8 { write(descriptor, UnsafeRawBufferPointer($0)) }
    }

    /// The text of an `errno`: `No space left on device`.
    package static func describe(errorNumber: Int32) -> String { String(cString: strerror(errorNumber)) }

    /// Whether `errorNumber` is a write to a pipe whose reader went (`| head -1`).
    package static func isBrokenPipe(_ errorNumber: Int32) -> Bool { errorNumber == EPIPE }

    /// Writes all of `text`, as ``write(_:_:)`` does, whether it fails or not.
    package static func writeWhole(_ descriptor: Int32, _ text: String) { write(descriptor, text) }

    package static func ignoreBrokenPipe() { signal(SIGPIPE, SIG_IGN) }

    package static func exit(_ status: Int32) -> Never { systemExit(status) }

    package static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

// NB: module-qualified names differ between Glibc, Musl and Darwin; these pin the libc calls
// that `Platform`'s own methods shadow.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
private func systemExit(_ status: Int32) -> Never { exit(status) }

extension Platform {
    /// `mkdir -p`; whether the folder exists afterwards.
    package static func makeDirectories(_ path: String) -> Bool {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST { return false }
        }
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

extension OutputBuffer {
    /// Writes the text to `descriptor`, as ``Platform/write(_:_:)`` does: 0, or the `errno` of the
    /// write that failed.
    package func write(to descriptor: Int32) -> Int32 {
        // NB: the buffer's bytes are lent to write(2) for the call only (see `write(_:_:)`).
        withUnsafeBytes { Platform.write(descriptor, $0) }
    }

    /// Writes the text up to its last newline to `descriptor`, leaving out a line not finished:
    /// for a trap handler, since it calls nothing but write(2) and allocates nothing.
    package func writeWholeLines(to descriptor: Int32) {
        // NB: the bytes up to the newline, within the buffer's count, are lent to write(2) for the
        // call only; a slice of the array would retain its storage, which a trap handler avoids.
        withUnsafeBytes { bytes in
            guard let newline = bytes.lastIndex(of: 0x0A) else { return }
            Platform.write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[...newline]))
        }
    }
}
