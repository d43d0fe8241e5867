import FluxShellTestSupport
import Testing

@testable import FluxShellSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one splitter of bytes into lines, as pushed in blocks (what a shell sends an attached app,
/// what the app sends back); its use on files and standard input is in `LineReaderTests`.
struct LineSplitterTests {
    /// Appends `blocks` one by one, taking the lines each completes; then the last line, if asked.
    private func lines(
        _ blocks: [[UInt8]], limit: Int = .max, takingLastLine: Bool = true
    ) -> [(text: String, tooLong: Bool)] {
        var splitter = LineSplitter(maximumLineLength: limit)
        var result: [(String, Bool)] = []
        for block in blocks {
            splitter.append(block)
            while let (line, tooLong) = splitter.nextLine() {
                result.append((String(decoding: line, as: UTF8.self), tooLong))
            }
        }
        if takingLastLine, let last = splitter.takeLastLine() {
            result.append((String(decoding: last, as: UTF8.self), false))
        }
        return result
    }

    @Test(arguments: ["", "a", "a\n", "a\nb", "a\n\nb\n", "x\r\ny\r\n", "\n\n", "é✓\nlast"])
    func aTextCutAnywhereGivesTheSameLines(_ text: String) {
        let bytes = Array(text.utf8)
        let whole = lines([bytes])
        let pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let expected = bytes.isEmpty ? [] : pieces.dropLast(bytes.last == 0x0A ? 1 : 0)
        #expect(whole.map(\.text) == expected.map { String(decoding: $0, as: UTF8.self) })
        for cut in 0...bytes.count {
            let split = lines([Array(bytes[..<cut]), Array(bytes[cut...])])
            #expect(split.map(\.text) == whole.map(\.text), "cut at \(cut)")
        }
    }

    @Test func aLineOverTheLimitIsHandedOutOnceAsSoonAsItPassesIt() {
        var splitter = LineSplitter(maximumLineLength: 8)
        splitter.append(Array("ok\n0123456".utf8))
        #expect(splitter.nextLine().map { String(decoding: $0.line, as: UTF8.self) } == "ok")
        #expect(splitter.nextLine() == nil)
        // NB: past the limit, with no newline yet: cut and marked at once, not kept.
        splitter.append(Array("789abc".utf8))
        let cut = splitter.nextLine()
        #expect(cut.map { String(decoding: $0.line, as: UTF8.self) } == "01234567")
        #expect(cut?.tooLong == true)
        #expect(splitter.pendingCount == 0)
        // Its rest is dropped as it comes, however long, and the next line is whole.
        for _ in 0..<100 {
            splitter.append(Array("defghij".utf8))
            #expect(splitter.nextLine() == nil)
            #expect(splitter.pendingCount == 0)
        }
        splitter.append(Array("xyz\nnext\n".utf8))
        let next = splitter.nextLine()
        #expect(next.map { String(decoding: $0.line, as: UTF8.self) } == "next")
        #expect(next?.tooLong == false)
        #expect(splitter.nextLine() == nil)
    }

    @Test func aLineOverTheLimitWithItsNewlineInTheSameBlockIsCut() {
        #expect(lines([Array("0123456789\nab\n".utf8)], limit: 8).map(\.text) == ["01234567", "ab"])
        #expect(lines([Array("0123456789\nab\n".utf8)], limit: 8).map(\.tooLong) == [true, false])
        // A line of exactly the limit is whole.
        #expect(lines([Array("01234567\n".utf8)], limit: 8).map(\.tooLong) == [false])
    }

    @Test func theEndOfInputDecidesWhatALastLineWithoutItsNewlineIs() {
        #expect(lines([Array("a\nlast".utf8)]).map(\.text) == ["a", "last"])
        #expect(lines([Array("a\nlast".utf8)], takingLastLine: false).map(\.text) == ["a"])
        // A last line cut at the limit was handed out already: nothing is left of it.
        #expect(lines([Array("0123456789".utf8)], limit: 8).map(\.text) == ["01234567"])

        var splitter = LineSplitter(maximumLineLength: 8)
        splitter.append(Array("half a li".utf8))
        splitter.discardPartialLine()
        splitter.append(Array("ne\nwhole\n".utf8))
        #expect(splitter.nextLine().map { String(decoding: $0.line, as: UTF8.self) } == "ne")
        #expect(splitter.nextLine().map { String(decoding: $0.line, as: UTF8.self) } == "whole")
        #expect(splitter.takeLastLine() == nil)
    }

    @Test func aReadLandsAfterTheBytesNotHandedOutAndTakesNoMoreThanItIsTold() throws {
        let (reader, writer) = try SocketPair.connected()
        defer {
            close(reader)
            close(writer)
        }
        #expect(Platform.write(writer, Array("ab\ncdefghijklmnopqrstuvwxyz".utf8)) == 0)
        var splitter = LineSplitter(maximumLineLength: .max)
        let read = splitter.fill(upTo: 16) { bytes, count in
            Platform.read(reader, appendingTo: &bytes, upTo: count)
        }
        #expect(read == 16)
        #expect(splitter.pendingCount == 16)
        #expect(splitter.nextLine().map { String(decoding: $0.line, as: UTF8.self) } == "ab")
        #expect(splitter.fill(upTo: 16) { Platform.read(reader, appendingTo: &$0, upTo: $1) } == 11)
        #expect(splitter.takeLastLine().map { String(decoding: $0, as: UTF8.self) } == "cdefghijklmnopqrstuvwxyz")
    }

    @Test func aFailedReadAddsNothingAndLeavesItsErrorNumber() {
        var bytes = Array("kept".utf8)
        let read = Platform.read(-1, appendingTo: &bytes, upTo: 16)
        let error = errno
        #expect(read == -1)
        #expect(error == EBADF)
        #expect(bytes == Array("kept".utf8))
        var splitter = LineSplitter(bytes: Array("c".utf8), maximumLineLength: .max)
        #expect(splitter.fill { _, _ in -1 } == -1)
        #expect(splitter.pendingCount == 1)
    }

    @Test func aPrefixIsDroppedOnlyWhereItIs() {
        var splitter = LineSplitter(bytes: [0xEF, 0xBB, 0xBF] + Array("x\n".utf8), maximumLineLength: .max)
        splitter.dropPrefix([0xEF, 0xBB, 0xBF])
        #expect(splitter.nextLine().map { String(decoding: $0.line, as: UTF8.self) } == "x")
        var other = LineSplitter(bytes: Array("y\n".utf8), maximumLineLength: .max)
        other.dropPrefix([0xEF, 0xBB, 0xBF])
        #expect(other.nextLine().map { String(decoding: $0.line, as: UTF8.self) } == "y")
    }
}
