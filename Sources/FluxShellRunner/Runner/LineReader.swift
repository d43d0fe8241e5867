import FluxShellSystem

/// Where a runner's lines come from: a file's bytes, standard input, the line editor. The runner
/// reads one line at a time and runs it before asking for the next.
package protocol LineSource {
    /// The next line without its newline, or `nil` at the end. `tooLong` is set when the line was
    /// cut at ``maximumLineLength`` (the line is then reported, not run).
    mutating func nextLine(tooLong: inout Bool) -> ArraySlice<UInt8>?
    /// Longer lines are cut off here.
    var maximumLineLength: Int { get }
}

/// Lines of text, from a whole file's bytes or read in blocks from a stream (standard input), for
/// piped mode, `run`, `test` and `--update`, split by the package's one ``LineSplitter``.
///
/// A line longer than ``maximumLineLength`` is cut there (and its caller told so) instead of
/// growing memory without bound; the rest of it is skipped. A UTF-8 byte order mark at the very
/// start (as some editors save a file) is not part of the first line. A last line without its
/// newline is a line.
package struct LineReader: LineSource {
    /// Longer lines are cut off here and reported.
    public static let maximumLineLength = 16 << 20

    private var lines: LineSplitter
    private var isAtEnd: Bool
    /// Nothing has been read yet: a byte order mark may come first.
    private var isAtStart = true
    /// Appends more bytes to the ones it is given, at most as many as it is told; returns how
    /// many (0 at the end).
    private let read: ((_ bytes: inout [UInt8], _ count: Int) -> Int)?

    /// Longer lines are cut off here.
    public var maximumLineLength: Int { lines.maximumLineLength }

    /// The lines of `bytes`.
    public init(bytes: [UInt8], maximumLineLength: Int = Self.maximumLineLength) {
        lines = LineSplitter(bytes: bytes, maximumLineLength: maximumLineLength)
        isAtEnd = true
        read = nil
    }

    /// The lines of a stream: `read` appends the next block of it to the bytes it is given, at
    /// most `count` bytes, and returns how many it appended (0 or less at the end).
    public init(
        maximumLineLength: Int = Self.maximumLineLength,
        read: @escaping (_ bytes: inout [UInt8], _ count: Int) -> Int
    ) {
        lines = LineSplitter(maximumLineLength: maximumLineLength)
        isAtEnd = false
        self.read = read
    }

    /// The next line without its newline, or `nil` at the end. `tooLong` is set when the line
    /// was cut at the maximum length.
    public mutating func nextLine(tooLong: inout Bool) -> ArraySlice<UInt8>? {
        if isAtStart { skipByteOrderMark() }
        while true {
            if let (line, cut) = lines.nextLine() {
                tooLong = cut
                return line
            }
            if isAtEnd {
                tooLong = false
                return lines.takeLastLine()
            }
            fill()
        }
    }

    /// Skips `EF BB BF` at the start of the input.
    private mutating func skipByteOrderMark() {
        isAtStart = false
        while lines.pendingCount < 3, !isAtEnd { fill() }
        lines.dropPrefix([0xEF, 0xBB, 0xBF])
    }

    private mutating func fill() {
        guard let read else {
            isAtEnd = true
            return
        }
        if lines.fill(with: read) <= 0 { isAtEnd = true }
    }
}
