/// Where a runner's lines come from: a file's bytes, standard input, the line editor. The runner
/// reads one line at a time and runs it before asking for the next.
package protocol LineSource {
    /// The next line without its newline, or `nil` at the end. `tooLong` is set when the line was
    /// cut at ``maximumLineLength`` (the line is then reported, not run).
    mutating func nextLine(tooLong: inout Bool) -> ArraySlice<UInt8>?
    /// Longer lines are cut off here.
    var maximumLineLength: Int { get }
}

/// Lines of text, from a whole file's bytes or read in blocks from a stream (standard input):
/// the one place input is split into lines, for piped mode, `run`, `test` and `--update`.
///
/// A line longer than ``maximumLineLength`` is cut there (and its caller told so) instead of
/// growing memory without bound; the rest of it is skipped. A UTF-8 byte order mark at the very
/// start (as some editors save a file) is not part of the first line.
package struct LineReader: LineSource {
    /// Longer lines are cut off here and reported.
    public static let maximumLineLength = 16 << 20

    private var buffer: [UInt8]
    private var start = 0
    private var isAtEnd: Bool
    /// Nothing has been read yet: a byte order mark may come first.
    private var isAtStart = true
    /// Longer lines are cut off here.
    public let maximumLineLength: Int
    /// Reads more bytes into the buffer it is given; returns how many (0 at the end).
    private let read: ((UnsafeMutableRawBufferPointer) -> Int)?

    /// The lines of `bytes`.
    public init(bytes: [UInt8], maximumLineLength: Int = Self.maximumLineLength) {
        buffer = bytes
        isAtEnd = true
        read = nil
        self.maximumLineLength = maximumLineLength
    }

    /// The lines of a stream, which `read` fills into the buffer it is given, returning how many
    /// bytes it read (0 or less at the end).
    public init(maximumLineLength: Int = Self.maximumLineLength, read: @escaping (UnsafeMutableRawBufferPointer) -> Int)
    {
        buffer = []
        isAtEnd = false
        self.read = read
        self.maximumLineLength = maximumLineLength
    }

    /// The next line without its newline, or `nil` at the end. `tooLong` is set when the line
    /// was cut at the maximum length.
    public mutating func nextLine(tooLong: inout Bool) -> ArraySlice<UInt8>? {
        tooLong = false
        if isAtStart { skipByteOrderMark() }
        // NB: how far past `start` has been searched already; `fill` may move the bytes.
        var searched = 0
        while true {
            if let newline = buffer[(start + searched)...].firstIndex(of: 0x0A) {
                // NB: the block that brought the newline may have brought the line past the limit.
                tooLong = newline - start > maximumLineLength
                let line = buffer[start..<(tooLong ? start + maximumLineLength : newline)]
                start = newline + 1
                return line
            }
            searched = buffer.count - start
            if searched > maximumLineLength {
                tooLong = true
                let line = buffer[start..<(start + maximumLineLength)]
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

    /// Skips `EF BB BF` at the start of the input.
    private mutating func skipByteOrderMark() {
        isAtStart = false
        while buffer.count - start < 3, !isAtEnd { fill() }
        if buffer[start...].starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
    }

    private mutating func fill() {
        guard let read else {
            isAtEnd = true
            return
        }
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let block = 1 << 16
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: block))
        let count = buffer.withUnsafeMutableBytes { raw in
            read(UnsafeMutableRawBufferPointer(rebasing: raw[oldCount...]))
        }
        buffer.removeLast(block - max(0, count))
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
