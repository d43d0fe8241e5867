/// Bytes split into lines at each newline (`0x0A`): the one place the package does it, for the
/// lines of a script or of standard input (`LineReader`), the lines a shell sends an app it is
/// attached to (`AttachedShell`), and the frames the app sends back (`AttachConnection`).
///
/// Bytes come in blocks (``append(_:)``, or ``fill(upTo:with:)`` from a read call); complete
/// lines go out without their newline (``nextLine()``). A line longer than
/// ``maximumLineLength`` goes out cut there, marked too long, as soon as the limit is passed, and
/// the rest of it is dropped as it comes, so that memory does not grow with it. Where the input
/// ends, each caller decides what a last line without its newline is: a line
/// (``takeLastLine()``), or nothing (a shell that ended mid-line).
package struct LineSplitter {
    /// Longer lines are cut here.
    package let maximumLineLength: Int
    private var buffer: [UInt8]
    /// Where the bytes not handed out yet begin.
    private var start = 0
    /// How far past `start` has been searched for a newline already.
    private var searched = 0
    /// A line cut at the limit: its rest is dropped, up to its newline.
    private var isSkipping = false

    /// A splitter of the bytes to come.
    package init(maximumLineLength: Int) {
        self.init(bytes: [], maximumLineLength: maximumLineLength)
    }

    /// A splitter of `bytes` (a whole file's), and of any appended after them.
    package init(bytes: [UInt8], maximumLineLength: Int) {
        buffer = bytes
        self.maximumLineLength = maximumLineLength
    }

    /// How many bytes came and were not handed out yet.
    package var pendingCount: Int { buffer.count - start }

    /// The next complete line, or one cut at the limit (`tooLong`); `nil` when the bytes so far
    /// hold neither.
    package mutating func nextLine() -> (line: ArraySlice<UInt8>, tooLong: Bool)? {
        if isSkipping {
            guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
                start = buffer.count
                return nil
            }
            start = newline + 1
            isSkipping = false
        }
        if let newline = buffer[(start + searched)...].firstIndex(of: 0x0A) {
            // NB: the block that brought the newline may have brought the line past the limit.
            let tooLong = newline - start > maximumLineLength
            let line = buffer[start..<(tooLong ? start + maximumLineLength : newline)]
            start = newline + 1
            searched = 0
            return (line, tooLong)
        }
        searched = buffer.count - start
        guard searched > maximumLineLength else { return nil }
        let line = buffer[start..<(start + maximumLineLength)]
        start = buffer.count
        searched = 0
        isSkipping = true
        return (line, true)
    }

    /// Where the input ended: the last line, which has no newline; `nil` when there is none (or
    /// the one there was cut at the limit, and handed out already).
    package mutating func takeLastLine() -> ArraySlice<UInt8>? {
        defer { discardPartialLine() }
        guard !isSkipping, start < buffer.count else { return nil }
        return buffer[start...]
    }

    /// Drops the start of a line whose newline did not come.
    package mutating func discardPartialLine() {
        start = buffer.count
        searched = 0
        isSkipping = false
    }

    /// Drops `prefix` from the bytes not handed out yet, when they begin with it (a UTF-8 byte
    /// order mark at the start of a file).
    package mutating func dropPrefix(_ prefix: [UInt8]) {
        guard buffer[start...].starts(with: prefix) else { return }
        start += prefix.count
        searched = 0
    }

    /// Takes `bytes`, which come after those taken so far.
    package mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Takes what `read` appends to the bytes it is given: at most `count` bytes, read from a
    /// descriptor in place (``Platform/read(_:appendingTo:upTo:retryingInterrupts:)``) or copied
    /// from a block. `read` returns how many it appended (0 or less at the end, or on an error);
    /// so does this.
    package mutating func fill(
        upTo count: Int = 1 << 16, with read: (_ bytes: inout [UInt8], _ count: Int) -> Int
    ) -> Int {
        compact()
        return read(&buffer, count)
    }

    /// Moves the bytes not handed out yet to the front, before more come.
    private mutating func compact() {
        guard start > 0 else { return }
        buffer.removeSubrange(0..<start)
        start = 0
    }
}
