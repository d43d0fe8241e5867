import FluxCore
import PropertyBased
import XCTest

final class ChunkedArrayTests: XCTestCase {
    /// Random edits applied to a ChunkedArray and to an Array give the same elements.
    func testBehavesLikeAnArray() {
        var generator = Xoshiro(seed: (42, 0x9E37_79B9_7F4A_7C15, 1, 2))
        var chunked = ChunkedArray<Int>()
        var plain: [Int] = []
        // NB: enough steps for several pages (4,096 elements each).
        for step in 0..<30_000 {
            switch Int.random(in: 0..<40, using: &generator) {
            case 0..<28:
                chunked.append(step)
                plain.append(step)
            case 28..<34 where !plain.isEmpty:
                let index = Int.random(in: 0..<plain.count, using: &generator)
                XCTAssertEqual(chunked.remove(at: index), plain.remove(at: index))
            case 34..<39 where !plain.isEmpty:
                let index = Int.random(in: 0..<plain.count, using: &generator)
                chunked[index] = -step
                plain[index] = -step
            default:
                chunked.removeAll { $0 % 7 == 0 }
                plain.removeAll { $0 % 7 == 0 }
            }
            XCTAssertEqual(chunked.count, plain.count)
        }
        XCTAssertEqual(Array(chunked), plain)
        XCTAssertEqual(chunked, ChunkedArray(plain))
    }

    func testCopiesShareUntouchedChunks() {
        let original = ChunkedArray(0..<10_000)
        var copy = original
        copy[5_000] = -1
        let shared = original.sharedChunkElements(with: copy)
        XCTAssertGreaterThan(shared.prefix, 4_000)
        XCTAssertGreaterThan(shared.suffix, 4_000)
        XCTAssertLessThanOrEqual(shared.prefix, 5_000)
        XCTAssertLessThan(shared.suffix, 5_000)
        let common = original.commonPrefixAndSuffix(with: copy)
        XCTAssertEqual(common.prefix, 5_000)
        XCTAssertEqual(common.suffix, 4_999)
        XCTAssertNotEqual(original, copy)
        XCTAssertEqual(original[5_000], 5_000)
    }

    /// The chunk-walking comparison agrees with a naive one on random pairs of versions.
    func testCommonPrefixAndSuffixAgreeWithANaiveComparison() {
        var generator = Xoshiro(seed: (42, 0x9E37_79B9_7F4A_7C15, 1, 2))
        for round in 0..<300 {
            // NB: most rounds fit one page (4,096 elements); some span several.
            let size = Int.random(in: 0..<(round % 10 == 0 ? 20_000 : 700), using: &generator)
            let base = ChunkedArray((0..<size).map { $0 % 5 })
            var edited = base
            for _ in 0..<Int.random(in: 0..<4, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: edited.append(Int.random(in: 0..<5, using: &generator))
                case 1 where !edited.isEmpty: edited.remove(at: Int.random(in: 0..<edited.count, using: &generator))
                default:
                    if !edited.isEmpty { edited[Int.random(in: 0..<edited.count, using: &generator)] = 9 }
                }
            }
            let a = Array(base)
            let b = Array(edited)
            var prefix = 0
            while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
            var suffix = 0
            while suffix < min(a.count, b.count) - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
                suffix += 1
            }
            let common = base.commonPrefixAndSuffix(with: edited)
            XCTAssertEqual(common.prefix, prefix, "\(a) vs \(b)")
            XCTAssertEqual(common.suffix, suffix, "\(a) vs \(b)")
            XCTAssertEqual(base == edited, a == b)
        }
    }

    /// Two versions that made the same scattered changes apart (as a state made again from its
    /// actions is) are equal, chunk by chunk; one more change anywhere, even after chunks they
    /// share, makes them differ; equal elements in other chunk bounds are still equal.
    func testVersionsMadeApartCompareChunkByChunk() {
        var generator = Xoshiro(seed: (7, 0x9E37_79B9_7F4A_7C15, 3, 4))
        let base = ChunkedArray(0..<20_000)
        for _ in 0..<50 {
            let edits = (0..<Int.random(in: 1..<20, using: &generator)).map { _ in
                (Int.random(in: 0..<20_000, using: &generator), Int.random(in: -5..<0, using: &generator))
            }
            var first = base
            var second = base
            for (index, value) in edits {
                first[index] = value
                second[index] = value
            }
            XCTAssertEqual(first, second)
            XCTAssertEqual(Array(first), Array(second))
            let last = edits.map(\.0).max()!
            var differs = second
            differs[min(last + Int.random(in: 0..<100, using: &generator), 19_999)] = 7
            XCTAssertNotEqual(first, differs)
            XCTAssertEqual(first == differs, Array(first) == Array(differs))
            var restored = base
            restored[last] = -1
            restored[last] = base[last]
            XCTAssertEqual(restored, base)
            var rebounded = first
            rebounded.insert(rebounded.remove(at: 100), at: 100)
            XCTAssertEqual(rebounded, first)
        }
    }

    /// Changing one element of 100,000 leaves all but its chunk shared with the original.
    func testAChangeCopiesOneChunk() {
        let original = ChunkedArray(0..<100_000)
        for index in [0, 4_095, 4_096, 50_000, 99_999] {
            var copy = original
            copy[index] = -1
            let shared = original.sharedChunkElements(with: copy)
            XCTAssertGreaterThanOrEqual(shared.prefix + shared.suffix, 100_000 - 64, "index \(index)")
            XCTAssertLessThanOrEqual(shared.prefix, index)
            XCTAssertLessThan(shared.suffix, 100_000 - index)
            XCTAssertEqual(original.commonPrefixAndSuffix(with: copy).prefix, index)
            XCTAssertEqual(original.commonPrefixAndSuffix(with: copy).suffix, 99_999 - index)
            XCTAssertEqual(copy.elements(in: (index - min(index, 2))..<(index + 1)).last, -1)
        }
    }

    func testEncodesAsAPlainArray() throws {
        let chunked: ChunkedArray = [1, 2, 3]
        let data = try JSONEncoder().encode(chunked)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "[1,2,3]")
        XCTAssertEqual(try JSONDecoder().decode(ChunkedArray<Int>.self, from: data), chunked)
    }
}
