import FluxShell

/// Buffered standard output and error. Output is flushed before anything is written to standard
/// error and before the process waits for more input, so a program driving `fluxsh` through pipes
/// sees each answer as soon as it is complete, while a large piped script is written in big blocks.
final class StandardStreams: @unchecked Sendable {
    // NB: @unchecked Sendable is safe: a `fluxsh` process writes from its main thread only; the
    // scenario runner's worker threads never touch the streams (they hand back strings).
    static let shared = StandardStreams()

    // NB: written from the main thread only (see above): no run-time exclusivity checks.
    @exclusivity(unchecked) private var buffer: OutputBuffer
    private let flushThreshold = 1 << 16

    init() { buffer = OutputBuffer(capacity: flushThreshold + 4096) }

    func out(_ line: String) {
        buffer.appendLine(line)
        if buffer.count >= flushThreshold { flush() }
    }

    /// Lets `write` append UTF-8 text (whole lines, each ending in a newline) to the buffer.
    func append(_ write: (inout OutputBuffer) -> Void) {
        write(&buffer)
        if buffer.count >= flushThreshold { flush() }
    }

    func err(_ line: String) {
        flush()
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        bytes.withUnsafeBytes { Platform.write(2, $0) }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { Platform.write(1, $0) }
        buffer.removeAll()
    }
}

/// Standard input as lines, read in large blocks; output is flushed before each block is read.
struct LineReader {
    /// Longer lines are cut off here and reported, instead of growing memory without bound.
    static let maximumLineLength = 16 << 20

    private var buffer: [UInt8] = []
    private var start = 0
    private var isAtEnd = false
    private let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line without its newline, or `nil` at the end of input. `tooLong` is set when the
    /// line was cut at ``maximumLineLength``.
    mutating func nextLine(tooLong: inout Bool) -> ArraySlice<UInt8>? {
        tooLong = false
        // NB: how far past `start` has been searched already; `fill` may move the bytes.
        var searched = 0
        while true {
            if let newline = buffer[(start + searched)...].firstIndex(of: 0x0A) {
                // NB: the chunk that brought the newline may have brought the line past the limit.
                tooLong = newline - start > Self.maximumLineLength
                let line = buffer[start..<min(newline, start + Self.maximumLineLength)]
                start = newline + 1
                return line
            }
            searched = buffer.count - start
            if searched > Self.maximumLineLength {
                tooLong = true
                let line = buffer[start..<(start + Self.maximumLineLength)]
                skipRestOfLine()
                return line
            }
            if isAtEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                return line
            }
            fill()
        }
    }

    private mutating func fill() {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        StandardStreams.shared.flush()
        let chunk = 1 << 16
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        let count = buffer.withUnsafeMutableBytes { raw in
            Platform.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: raw[oldCount...]))
        }
        buffer.removeLast(chunk - max(0, count))
        if count <= 0 { isAtEnd = true }
    }

    private mutating func skipRestOfLine() {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                start = newline + 1
                return
            }
            start = buffer.count
            if isAtEnd { return }
            fill()
        }
    }
}
