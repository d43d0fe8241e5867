import Foundation
import Testing

@testable import FluxShell

/// SPEC §4, row by row: each Swift value's printed form, and that the text reads back.
@Suite struct ValueReaderTests {
    private func printed<T>(_ value: T) -> String { JSONText.compact(ValueReader.read(value)) }

    /// Prints `value`, parses the text, decodes it as `T` again.
    private func roundTrip<T: Decodable>(_ value: T) throws -> T {
        let text = printed(value)
        return try JSONValueDecoder().decode(T.self, from: try JSONParser.parse(text))
    }

    enum Role: String, Codable, CaseIterable { case admin, guest }
    enum Level: Int, Codable, CaseIterable { case low = 1, high = 2 }
    enum Status: Codable, Equatable {
        case idle
        case loading(since: Date)
        case failed(String, attempts: Int)
    }
    struct Repository: Codable, Equatable {
        var fullName: String
        var stars: Int
        enum CodingKeys: String, CodingKey {
            case fullName = "full_name"
            case stars = "stargazers_count"
        }
    }
    struct Failure: Error, CustomStringConvertible { var description: String { "offline" } }
    final class Node {
        var name: String
        var next: Node?
        init(name: String) { self.name = name }
    }

    @Test func numbers() throws {
        #expect(printed(42) == "42")
        #expect(printed(Int8(-3)) == "-3")
        #expect(printed(UInt64.max) == "1.8446744073709552e+19")
        #expect(printed(0.1) == "0.1")
        #expect(printed(1e-07) == "1e-07")
        #expect(printed(Float(0.1)) == "0.1")
        #expect(printed(Double.nan) == #""nan""#)
        #expect(printed(-Double.infinity) == #""-inf""#)
        #expect(printed(Decimal(string: "12.25")!) == "12.25")
        #expect(printed(Decimal(7)) == "7")
        #expect(try roundTrip(0.1) == 0.1)
        #expect(try roundTrip(Float(0.1)) == Float(0.1))
        #expect(try roundTrip(Double.infinity) == .infinity)
        #expect(try roundTrip(Double.nan).isNaN)
        #expect(try roundTrip(Decimal(string: "12.25")!) == Decimal(string: "12.25")!)
        // Found by the value fuzzer: a Decimal too long for a Double prints in a Double's
        // exponent form, which `Decimal(string:)` alone refuses; it reads back to the same print.
        let long = Decimal(string: String(repeating: "62", count: 80))!
        #expect(printed(long) == "6.262626262626263e+159")
        #expect(printed(try roundTrip(long)) == printed(long))
        let tiny = try #require(Decimal(string: "1e-120"))
        #expect(printed(tiny) == "1e-120")
        #expect(printed(try roundTrip(tiny)) == printed(tiny))
        // Also found by it: `Decimal(string:)` reads `-e` as a number; the shell does not.
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Decimal.self, from: .string("-e")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Decimal.self, from: .string("12abc")) }
        #expect(try JSONValueDecoder().decode(Decimal.self, from: .string("12.5")) == Decimal(string: "12.5"))
    }

    @Test func truthTextAndCharacters() throws {
        #expect(printed(true) == "true")
        #expect(printed("é ✓ \"q\"\n") == #""é ✓ \"q\"\n""#)
        #expect(printed(Character("x")) == #""x""#)
        #expect(try roundTrip("tab\there") == "tab\there")
    }

    @Test func optionals() throws {
        #expect(printed(Int?.none) == "null")
        #expect(printed(Int?.some(3)) == "3")
        #expect(try roundTrip(String?.none) == nil)
        #expect(try roundTrip(String?.some("a")) == "a")
    }

    @Test func arraysSetsAndDictionaries() throws {
        #expect(printed([3, 1, 2]) == "[3,1,2]")
        #expect(printed(Set([10, 2, 33, -1])) == "[-1,2,10,33]")
        #expect(printed(Set(["b", "B", "a", "é"])) == #"["B","a","b","é"]"#)
        #expect(printed([10: "ten", 2: "two", 1: "one"]) == #"{"1":"one","2":"two","10":"ten"}"#)
        #expect(printed(["b": 1, "a": 2]) == #"{"a":2,"b":1}"#)
        #expect(printed([Role.guest: 1, .admin: 2]) == #"{"admin":2,"guest":1}"#)
        #expect(try roundTrip(Set(["x", "y"])) == Set(["x", "y"]))
        #expect(try roundTrip([10: "ten", 2: "two"]) == [10: "ten", 2: "two"])
    }

    @Test func structsClassesAndTuples() throws {
        let repository = Repository(fullName: "apple/swift", stars: 5)
        #expect(printed(repository) == #"{"fullName":"apple/swift","stars":5}"#)
        #expect(try roundTrip(repository) == repository)
        #expect(printed((1, "a")) == #"{"_0":1,"_1":"a"}"#)
        #expect(printed((x: 1, y: 2)) == #"{"x":1,"y":2}"#)
        let node = Node(name: "a")
        node.next = node
        #expect(printed(node) == #"{"name":"a","next":"(cycle)"}"#)
    }

    @Test func enums() throws {
        #expect(printed(Role.admin) == #""admin""#)
        #expect(printed(Level.high) == "2")
        #expect(printed(Status.idle) == #""idle""#)
        let since = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(printed(Status.loading(since: since)) == #"{"loading":{"since":"2026-11-18T11:06:40Z"}}"#)
        #expect(printed(Status.failed("x", attempts: 2)) == #"{"failed":{"_0":"x","attempts":2}}"#)
        #expect(try roundTrip(Status.idle) == .idle)
        #expect(try roundTrip(Status.loading(since: since)) == .loading(since: since))
        #expect(try roundTrip(Status.failed("x", attempts: 2)) == .failed("x", attempts: 2))
        #expect(try roundTrip(Level.high) == .high)
        // A case name is accepted beside the raw value.
        #expect(try JSONValueDecoder().decode(Level.self, from: .string("high")) == .high)
    }

    @Test func foundationValues() throws {
        #expect(printed(Date(timeIntervalSince1970: 0)) == #""1970-01-01T00:00:00Z""#)
        #expect(printed(Date(timeIntervalSince1970: 0.25)) == #""1970-01-01T00:00:00.250Z""#)
        #expect(printed(Date(timeIntervalSince1970: -1)) == #""1969-12-31T23:59:59Z""#)
        #expect(printed(URL(string: "https://example.com/a?b=1")!) == #""https://example.com/a?b=1""#)
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(printed(uuid) == #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#)
        #expect(printed(Data("hello".utf8)) == #""aGVsbG8=""#)
        #expect(try roundTrip(uuid) == uuid)
        #expect(try roundTrip(URL(string: "https://example.com")!) == URL(string: "https://example.com")!)
        #expect(try roundTrip(Data([0, 255, 7])) == Data([0, 255, 7]))
        // A time-zone offset is accepted; the date prints in UTC.
        let offset = try JSONValueDecoder().decode(Date.self, from: .string("2026-11-22T11:00:00+01:00"))
        #expect(printed(offset) == #""2026-11-22T10:00:00Z""#)
    }

    @Test func errorsClosuresAndOpaqueValues() {
        #expect(printed(Failure()) == #""offline""#)
        let error: (any Error)? = Failure()
        #expect(printed(error) == #""offline""#)
        let closure: () -> Void = {}
        #expect(printed(closure) == #""(Function)""#)
    }

    @Test func badTextIsRefusedWithTheFormItWants() {
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Date.self, from: .string("yesterday")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Date.self, from: .string("2026-02-30T00:00:00Z")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UUID.self, from: .string("not-a-uuid")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Data.self, from: .string("%%%")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Level.self, from: .string("medium")) }
    }

    @Test func deepNestingIsBounded() {
        indirect enum Chain { case end, link(Chain) }
        var chain = Chain.end
        for _ in 0..<1_000 { chain = .link(chain) }
        #expect(printed(chain).contains("(too deep)"))
    }

    /// `parse(print(v)) == v` over generated values of every parseable row.
    @Test(arguments: 0..<100)
    func printedValuesReadBack(seed: Int) throws {
        struct Sample: Codable, Equatable {
            var number: Int
            var ratio: Double
            var name: String
            var tags: Set<String>
            var scores: [Int: String]
            var when: Date
            var id: UUID
            var link: URL?
            var blob: Data
            var role: Role
            var status: Status
            var list: [Int]
        }
        var random = SplitMix(seed: UInt64(seed))
        func text() -> String {
            let alphabet = Array("aZ é✓\"\\\n0_-")
            return String((0..<random.next(upTo: 8)).map { _ in alphabet[random.next(upTo: alphabet.count)] })
        }
        let milliseconds = Int64(random.next(upTo: 4_000_000_000_000)) - 1_000_000_000_000
        let when = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let sample = Sample(
            number: Int(bitPattern: UInt(truncatingIfNeeded: random.next())),
            ratio: Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF),
            name: text(), tags: Set((0..<random.next(upTo: 5)).map { _ in text() }),
            scores: Dictionary(uniqueKeysWithValues: (0..<random.next(upTo: 5)).map { ($0 * 7 - 3, text()) }),
            when: when, id: UUID(), link: random.next(upTo: 2) == 0 ? nil : URL(string: "https://example.com/\(random.next(upTo: 99))"),
            blob: Data((0..<random.next(upTo: 6)).map { _ in UInt8(random.next(upTo: 256)) }),
            role: Role.allCases[random.next(upTo: 2)],
            status: [Status.idle, .loading(since: when), .failed(text(), attempts: random.next(upTo: 9))][random.next(upTo: 3)],
            list: (0..<random.next(upTo: 6)).map { _ in random.next(upTo: 100) - 50 })
        #expect(try roundTrip(sample) == sample)
    }
}
