import Testing

@testable import FluxShellRunner
@testable import FluxShellSystem
@testable import FluxShellValues

/// A script's lines, through the one `LineSplitter`: whole files and streams read in blocks give the same
/// lines; a line over the limit is cut, reported, and the rest of it skipped.
struct LineReaderTests {
    private func lines(_ reader: consuming LineReader) -> [(String, Bool)] {
        var result: [(String, Bool)] = []
        var tooLong = false
        while let line = reader.nextLine(tooLong: &tooLong) {
            result.append((String(decoding: line, as: UTF8.self), tooLong))
        }
        return result
    }

    /// A stream that hands out `text` `block` bytes at a time.
    private func stream(_ text: String, block: Int, limit: Int = LineReader.maximumLineLength) -> LineReader {
        let bytes = Array(text.utf8)
        var offset = 0
        return LineReader(maximumLineLength: limit) { buffer, most in
            let count = min(block, most, bytes.count - offset)
            buffer += bytes[offset..<(offset + count)]
            offset += count
            return count
        }
    }

    @Test(arguments: ["", "a", "a\n", "a\nb", "a\n\nb\n", "x\r\ny\r\n", "\n\n", "é✓\nlast"])
    func filesAndStreamsGiveTheSameLines(_ text: String) {
        let expected = lines(LineReader(bytes: Array(text.utf8)))
        // NB: split as bytes: in a Swift string, "\r\n" is one character, not a "\n".
        let pieces = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        let naive =
            text.isEmpty
            ? [] : pieces.dropLast(text.utf8.last == 0x0A ? 1 : 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(expected.map(\.0) == naive)
        for block in [1, 2, 3, 64] {
            let streamed = lines(stream(text, block: block))
            #expect(streamed.map(\.0) == expected.map(\.0), "block \(block)")
        }
    }

    @Test func aByteOrderMarkAtTheStartIsNotPartOfTheFirstLine() {
        let text = "\u{FEFF}load counter\n\u{FEFF}x\n"
        #expect(lines(LineReader(bytes: Array(text.utf8))).map(\.0) == ["load counter", "\u{FEFF}x"])
        for block in [1, 2, 64] {
            #expect(lines(stream(text, block: block)).map(\.0) == ["load counter", "\u{FEFF}x"])
        }
        #expect(lines(LineReader(bytes: [0xEF, 0xBB])).map(\.0) == ["\u{FFFD}"])
    }

    @Test func aLineOverTheLimitIsCutReportedAndItsRestSkipped() {
        let text = "ok\n0123456789abcdef\nnext\n0123456789"
        let expected: [(String, Bool)] = [("ok", false), ("01234567", true), ("next", false), ("01234567", true)]
        for reader in [LineReader(bytes: Array(text.utf8), maximumLineLength: 8), stream(text, block: 3, limit: 8)] {
            let result = lines(reader)
            #expect(result.map(\.0) == expected.map(\.0))
            #expect(result.map(\.1) == expected.map(\.1))
        }
        #expect(
            lines(LineReader(bytes: Array(text.utf8), maximumLineLength: .max)).map(\.0) == [
                "ok", "0123456789abcdef", "next", "0123456789",
            ])
    }
}
