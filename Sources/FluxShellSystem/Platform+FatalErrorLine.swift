// NB: @preconcurrency, for the C library's `stderr` stream, a global variable that Swift 6
// refuses to read otherwise; this file only reads it, once, on the main thread.
#if canImport(Glibc)
    @preconcurrency import Glibc
#elseif canImport(Musl)
    @preconcurrency import Musl
#elseif canImport(Darwin)
    @preconcurrency import Darwin
#endif

extension Platform {
    /// How many bytes of the runtime's last line on standard error are kept: a longer line is not
    /// found by ``appendFatalErrorLine(to:)``.
    package static let fatalErrorLineLimit = 4096

    /// Keeps what the Swift runtime writes to standard error, so that a trap handler can read its
    /// fatal error (`Swift/IntegerTypes.swift:9012: Fatal error: Division by zero`, written just
    /// before it traps), which is otherwise only in the pipe: the C library's `stderr` stream, the
    /// runtime's (`fputs` then `fflush`), is made line-buffered into memory of ours.
    ///
    /// Nothing changes in what is written, nor when: each line is written as it ends (the runtime
    /// flushes each message anyway; the shell's own errors never go through `stderr`). A stream's
    /// buffer is not cleared when it is written out, so it still holds the last line, from its
    /// start.
    package static func keepFatalErrorLines() {
        // NB: the stream's buffer: allocated once, zeroed, and never freed, as `stderr` uses it
        // until the process ends. The C stream writes it as `char`, this file reads it as bytes:
        // signed and unsigned bytes may alias.
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: fatalErrorLineLimit)
        buffer.initialize(repeating: 0, count: fatalErrorLineLimit)
        let characters = UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self)
        guard setvbuf(stderr, characters, _IOLBF, fatalErrorLineLimit) == 0 else { return }
        FatalErrorLine.buffer = UnsafeBufferPointer(start: buffer, count: fatalErrorLineLimit)
    }

    /// From a trap handler: appends the runtime's last line on standard error (without its
    /// newline) to `message` when it is a fatal error; `false` when there is none, as after a
    /// release build's failed check, which prints nothing, or when the runtime printed its own
    /// stack trace after the message (`SWIFT_BACKTRACE=enable=no`). Async-signal-safe: reads memory
    /// of ours, allocates nothing when `message` has room for ``fatalErrorLineLimit`` bytes.
    package static func appendFatalErrorLine(to message: inout OutputBuffer) -> Bool {
        guard let buffer = FatalErrorLine.buffer else { return false }
        // NB: the line starts the buffer (the stream writes each line from its start); bytes
        // after its newline are left from longer lines before it.
        let end = buffer.firstIndex { $0 == 0x0A || $0 == 0 } ?? buffer.count
        let line = UnsafeBufferPointer(rebasing: buffer[..<end])
        let isFatalError = ("Fatal error" as StaticString).withUTF8Buffer { mark in
            line.count >= mark.count
                && (0...(line.count - mark.count)).contains { start in
                    (0..<mark.count).allSatisfy { line[start + $0] == mark[$0] }
                }
        }
        guard isFatalError else { return false }
        message.append(line)
        return true
    }
}

/// The memory of ``Platform/keepFatalErrorLines()``.
private enum FatalErrorLine {
    /// NB: nonisolated(unsafe) is safe: set once before any trap handler is installed, then only
    /// read; the bytes it points to are written by the C stream on the thread that writes.
    nonisolated(unsafe) static var buffer: UnsafeBufferPointer<UInt8>?
}
