import FluxCore
import FluxShellSystem
import Foundation
import PropertyBased
import Testing

@testable import FluxShellJSON
@testable import FluxShellValues

/// “Printed values” in the reference, row by row: each Swift value's printed form, and that the
/// text reads back.
@Suite struct ValueReaderTests {
    private func printed<T>(_ value: T) -> String { JSONText.compact(ValueReader.read(value)) }

    /// Prints `value`, parses the text, decodes it as `T` again.
    private func roundTrip<T: Decodable>(_ value: T) throws -> T {
        let text = printed(value)
        return try JSONValueDecoder().decode(T.self, from: try JSONParser.parse(text))
    }

    enum Role: String, Codable, CaseIterable { case admin, guest }
    enum Level: Int, Codable, CaseIterable {
        case low = 1
        case high = 2
    }
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
        #expect(printed(UInt64.max) == "18446744073709551615")
        // Exact digits are ordered, compared and read exactly.
        #expect(
            printed(Set<UInt64>([10_000_000_000_000_000_000, 9_999_999_999_999_999_999]))
                == "[9999999999999999999,10000000000000000000]")
        #expect(
            printed(Set([Decimal(10), Decimal(string: "9.99999999999999999999")!])) == "[9.99999999999999999999,10]")
        #expect(try JSONParser.parse("1.50000000000000000000") == JSONParser.parse("1.500000000000000000000"))
        #expect(try JSONParser.parse("18446744073709551615") != JSONParser.parse("18446744073709551614"))
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "9", count: 400)) }
        // Found by the value fuzzer: an integer beyond a Decimal's range still equals itself.
        let huge = "62172" + String(repeating: "2", count: 160)
        #expect(try JSONParser.parse(huge) == JSONParser.parse(huge))
        #expect(try JSONText.compact(JSONParser.parse(huge)) == huge)
        #expect(try JSONParser.parse(huge) != JSONParser.parse("7" + huge.dropFirst()))
        #expect(
            NumberOrder.compare(ValueReader.read(UInt64.max), try JSONParser.parse("18446744073709551614")) == 1)
        #expect(NumberOrder.compare(ValueReader.read(UInt64.max), .int(5)) == 1)
        #expect(printed(Set(["a", "a b", "a!"])) == #"["a","a b","a!"]"#)
        #expect(printed(Decimal(string: "1.0000000000000001")!) == "1.0000000000000001")
        #expect(printed(Decimal(string: "0.1")!) == "0.1")
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
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(Date.self, from: .string("2026-02-30T00:00:00Z"))
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(UUID.self, from: .string("not-a-uuid")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Data.self, from: .string("%%%")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(Level.self, from: .string("medium")) }
    }

    @Test func deepNestingIsBounded() {
        indirect enum Chain {
            case end
            case link(Chain)
        }
        var chain = Chain.end
        for _ in 0..<1_000 { chain = .link(chain) }
        #expect(printed(chain).contains("(too deep)"))
    }
}

// MARK: - Generated values

/// “Printed values” in the reference, row by row, over generated values (swift-property-based,
/// which shrinks a failing value and names a seed to reproduce it): `parse(print(v)) == v`, and a
/// value prints the same bytes every time, a `Set` or `Dictionary` whatever order it was built in.
extension ValueReaderTests {
    /// Prints `value` twice (the same text), parses the text and decodes it as `T` again, which
    /// `same` must find equal to `value`; returns the text, for checks of its form.
    ///
    /// NB: an error is recorded here rather than thrown: `propertyCheck` counts recorded issues.
    @discardableResult
    private func expectReadsBack<T: Decodable>(
        _ value: T, same: (T, T) -> Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> String {
        let text = printed(value)
        #expect(printed(value) == text, "printed twice, differently", sourceLocation: sourceLocation)
        do {
            let back = try JSONValueDecoder().decode(T.self, from: try JSONParser.parse(text))
            #expect(
                same(back, value),
                "\(T.self) \(String(reflecting: value)) printed \(text), read back \(String(reflecting: back))",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record(
                "\(T.self) \(String(reflecting: value)) printed \(text), not read back: \(error)",
                sourceLocation: sourceLocation)
        }
        return text
    }

    @discardableResult
    private func expectReadsBack<T: Decodable & Equatable>(
        _ value: T, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> String {
        expectReadsBack(value, same: ==, sourceLocation: sourceLocation)
    }

    /// The printed text of a set or dictionary built again in another order: another capacity,
    /// the elements inserted backwards.
    private func expectSamePrintInAnyOrder<E: Hashable>(
        _ set: Set<E>, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var rebuilt = Set<E>(minimumCapacity: set.count * 4 + 8)
        for element in set.reversed() { rebuilt.insert(element) }
        #expect(printed(rebuilt) == printed(set), "the same set built in another order", sourceLocation: sourceLocation)
    }

    private func expectSamePrintInAnyOrder<K: Hashable, V>(
        _ dictionary: [K: V], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        var rebuilt = [K: V](minimumCapacity: dictionary.count * 4 + 8)
        for (key, value) in dictionary.reversed() { rebuilt[key] = value }
        #expect(
            printed(rebuilt) == printed(dictionary), "the same dictionary built in another order",
            sourceLocation: sourceLocation)
    }

    /// The keys of a printed object, in order.
    private func printedKeys<T>(_ value: T) -> [String] {
        guard case .object(let object) = ValueReader.read(value) else { return [] }
        return object.keys
    }

    // MARK: Numbers

    private func integersReadBack<I: FixedWidthInteger & Codable & Sendable>(
        _ type: I.Type, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async {
        await propertyCheck(
            input: Generate.integer(I.self),
            perform: { value in
                let text = expectReadsBack(value, sourceLocation: sourceLocation)
                #expect(
                    text == String(value), "\(I.self) \(value) prints as its digits", sourceLocation: sourceLocation)
            }, sourceLocation: sourceLocation)
    }

    /// Every width, every magnitude, the extremes: printed as their digits and read back.
    @Test func integersOfEveryWidthReadBack() async {
        await integersReadBack(Int.self)
        await integersReadBack(Int8.self)
        await integersReadBack(Int16.self)
        await integersReadBack(Int32.self)
        await integersReadBack(Int64.self)
        await integersReadBack(UInt.self)
        await integersReadBack(UInt8.self)
        await integersReadBack(UInt16.self)
        await integersReadBack(UInt32.self)
        await integersReadBack(UInt64.self)
    }

    /// Finite doubles print in their shortest round-trip form; `nan`, `inf`, `-inf` as strings.
    /// Read back to the same bits (`-0.0` stays negative), any NaN to a NaN.
    @Test func doublesReadBack() async {
        await propertyCheck(input: Generate.double) { value in
            let text = expectReadsBack(value) { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
            #expect(text == Self.expectedNumberText(value, shortest: value.description))
        }
    }

    /// As doubles, with a `Float`'s own shortest digits (`Float(0.1)` prints `0.1`, not
    /// `0.10000000149011612`), in a `Double`'s notation (`16778000.0` where a `Float` writes `1.6778e+07`).
    @Test func floatsReadBack() async {
        await propertyCheck(input: Generate.float) { value in
            let text = expectReadsBack(value) { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
            let digits = value.isFinite ? Double(value.description)!.description : ""
            #expect(text == Self.expectedNumberText(Double(value), shortest: digits))
        }
    }

    private static func expectedNumberText(_ value: Double, shortest: String) -> String {
        if value.isNaN { return #""nan""# }
        if value.isInfinite { return value < 0 ? #""-inf""# : #""inf""# }
        return shortest
    }

    /// Up to the 38 digits a `Decimal` holds, at any scale: printed as a number, read back.
    @Test func decimalsReadBack() async {
        await propertyCheck(input: Generate.decimal) { value in
            let text = expectReadsBack(value)
            #expect((try? JSONParser.parse(text))?.numberValue != nil, "\(value) printed \(text), not a number")
        }
    }

    // MARK: Truth, text and characters

    @Test func boolsReadBack() async {
        await propertyCheck(input: Gen.bool) { value in
            #expect(expectReadsBack(value) == String(value))
        }
    }

    /// Any Unicode text: only `"`, `\`, control characters (C0 and C1) and the bidirectional
    /// controls escaped, everything else as itself.
    @Test func stringsReadBack() async {
        await propertyCheck(count: 300, input: Generate.string) { value in
            let text = expectReadsBack(value)
            #expect(!text.utf8.contains { $0 < 0x20 || $0 == 0x7F }, "\(text): a control character left unescaped")
            #expect(!text.unicodeScalars.contains(where: JSONText.isHidden), "\(text): a C1 or bidi control left")
            let shown = { (text: String) in
                Array(text.unicodeScalars.filter { !$0.isASCII && !JSONText.isHidden($0) })
            }
            #expect(shown(text) == shown(value), "\(text): a character beyond ASCII escaped")
            if !value.utf8.contains(where: JSONText.needsEscaping),
                !value.unicodeScalars.contains(where: JSONText.isHidden)
            {
                #expect(text == "\"" + value + "\"")
            }
        }
    }

    /// A `Character` (any grapheme: a scalar, a letter and its marks, an emoji sequence, `\r\n`)
    /// prints as a string of that one character. (`Character` is not `Decodable`: read back as a
    /// `String`.)
    @Test func charactersReadBack() async {
        await propertyCheck(count: 300, input: Generate.character) { value in
            let text = printed(value)
            #expect(printed(value) == text)
            #expect(text == printed(String(value)))
            let back = try? JSONValueDecoder().decode(String.self, from: try JSONParser.parse(text))
            #expect(
                back.map { Character($0) == value && $0.count == 1 } == true,
                "\(value.debugDescription) printed \(text)")
        }
    }

    // MARK: Optionals and collections

    /// `null` or the wrapped value's own form.
    @Test func optionalsReadBack() async {
        await propertyCheck(
            input: Generate.integer(Int.self).optional, Generate.string.optional, Generate.millisecondDate.optional
        ) { number, text, date in
            #expect((expectReadsBack(number) == "null") == (number == nil))
            #expect((expectReadsBack(text) == "null") == (text == nil))
            #expect((expectReadsBack(date) == "null") == (date == nil))
            expectReadsBack(Wrapper(number: number, text: text, date: date))
        }
    }
    struct Wrapper: Codable, Equatable {
        var number: Int?
        var text: String?
        var date: Date?
    }

    /// In their order; a `ChunkedArray` prints as the array of its elements.
    @Test func arraysReadBack() async {
        await propertyCheck(
            input: Generate.integer(Int.self).array(of: 0...12), Generate.string.array(of: 0...6),
            Generate.finiteDouble.array(of: 0...4).array(of: 0...4)
        ) { numbers, texts, rows in
            expectReadsBack(numbers)
            expectReadsBack(texts)
            expectReadsBack(rows)
            #expect(printed(ChunkedArray(numbers)) == printed(numbers))
        }
    }

    /// Sorted, numbers by value and strings by their bytes (as dictionary keys are), whatever
    /// order the set was built in.
    @Test func setsReadBackSorted() async {
        let numbers = Generate.clusteredIntegers.map(Set.init)
        await propertyCheck(input: numbers, Generate.string.set(ofAtMost: 0...8)) { numbers, texts in
            let numberText = expectReadsBack(numbers)
            #expect(
                (try? JSONValueDecoder().decode([Int].self, from: JSONParser.parse(numberText))) == numbers.sorted())
            expectSamePrintInAnyOrder(numbers)
            let textText = expectReadsBack(texts)
            let byBytes = texts.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            #expect((try? JSONValueDecoder().decode([String].self, from: JSONParser.parse(textText))) == byBytes)
            expectSamePrintInAnyOrder(texts)
        }
    }

    /// An object whose keys are sorted (`Int` keys by value, as strings), whatever order the
    /// dictionary was built in.
    @Test func dictionariesReadBackSorted() async {
        let byText = zip(Generate.string, Generate.integer(Int.self)).dictionary(ofAtMost: 0...8)
        let byNumber = zip(Generate.clusteredIntegers, Generate.string.array(of: 8)).map { keys, values in
            Dictionary(zip(keys, values), uniquingKeysWith: { first, _ in first })
        }
        await propertyCheck(input: byText, byNumber) { byText, byNumber in
            expectReadsBack(byText)
            #expect(printedKeys(byText) == byText.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            expectSamePrintInAnyOrder(byText)
            expectReadsBack(byNumber)
            #expect(printedKeys(byNumber) == byNumber.keys.sorted().map(String.init))
            expectSamePrintInAnyOrder(byNumber)
        }
    }

    // MARK: Enums

    /// Cases without payload print their raw value (`"admin"`, `2`) or their name (`"idle"`).
    @Test func casesWithoutPayloadReadBack() async {
        await propertyCheck(input: Gen<Role>.case, Gen<Level>.case, Gen<Phase>.case, Gen<Plan>.case) {
            role, level, phase, plan in
            #expect(expectReadsBack(role) == "\"\(role.rawValue)\"")
            #expect(expectReadsBack(level) == "\(level.rawValue)")
            #expect(expectReadsBack(phase) == "\"\(phase)\"")
            #expect(expectReadsBack(plan) == "\"\(plan.rawValue)\"")
        }
    }
    enum Phase: Codable, CaseIterable { case idle, running, done }
    /// Tiers renamed while their stored values stayed: one case's raw value is another's name.
    enum Plan: String, Codable, CaseIterable {
        case free
        case pro = "premium"
        case premium = "enterprise"
    }

    /// `{"CASE":{"LABEL":VALUE,"_0":VALUE}}`, as Swift's synthesized `Codable` writes it; a case
    /// without payload as its name.
    @Test func casesWithPayloadReadBack() async {
        await propertyCheck(input: Generate.event) { event in
            let text = expectReadsBack(event)
            if case .idle = event { #expect(text == #""idle""#) } else { #expect(text.hasPrefix("{\"")) }
        }
    }
    enum Event: Codable, Equatable {
        case idle
        case loading(since: Date)
        case failed(String, attempts: Int)
        case moved(Repository, to: URL?)
        case tagged(Set<String>, note: String?)
        case phase(Phase, Plan)
        case scored([String: Double])
    }

    // MARK: Structs

    /// Keys are the Swift property names in declaration order, never `CodingKeys`; read back.
    @Test func structsWithCodingKeysReadBack() async {
        await propertyCheck(input: Generate.repository, Generate.user) { repository, user in
            expectReadsBack(repository)
            #expect(printedKeys(repository) == ["fullName", "stars"])
            expectReadsBack(user)
            #expect(printedKeys(user) == ["name", "displayName", "createdAt", "isAdmin", "homePage"])
        }
    }
    /// GitHub's `login` kept as `name`, and its `name` as `displayName`: a coding name that is
    /// another property's Swift name.
    struct User: Codable, Equatable {
        var name: String
        var displayName: String?
        var createdAt: Date
        var isAdmin: Bool
        var homePage: URL?
        enum CodingKeys: String, CodingKey {
            case name = "login"
            case displayName = "name"
            case createdAt = "created_at"
            case isAdmin = "site_admin"
            case homePage = "blog"
        }
    }

    /// Structs inside structs, with every row above as members.
    @Test func nestedStructsReadBack() async {
        await propertyCheck(count: 50, input: Generate.profile) { profile in
            expectReadsBack(profile)
        }
    }
    struct Profile: Codable, Equatable {
        var id: UUID
        var user: User
        var repositories: [Repository]
        var pinned: Repository?
        var roles: Set<Role>
        var level: Level
        var status: Event
        var history: [String: [Event]]
        var byID: [Int: Repository]
        var avatar: Data
        var ratio: Double
        var balance: Decimal
    }

    // MARK: Foundation values

    /// ISO 8601 in UTC with milliseconds when there is a fraction of a second, from year 1 to 9999
    /// (whole milliseconds since 1970, as “Printed values” in the reference prints them).
    @Test func datesReadBack() async {
        await propertyCheck(count: 300, input: Generate.milliseconds) { milliseconds in
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            let text = expectReadsBack(date)
            let form =
                milliseconds % 1000 == 0
                ? #/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/# : #/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/#
            #expect(text.wholeMatch(of: form) != nil, "\(milliseconds) ms printed \(text)")
        }
    }

    /// Its absolute string, read back to an equal `URL`.
    @Test func urlsReadBack() async {
        await propertyCheck(count: 200, input: Generate.url) { url in
            #expect(expectReadsBack(url) == JSONText.quoted(url.absoluteString))
        }
    }

    @Test func uuidsReadBack() async {
        await propertyCheck(input: Generate.uuid) { uuid in
            #expect(expectReadsBack(uuid) == "\"\(uuid.uuidString)\"")
        }
    }

    @Test func dataReadsBack() async {
        await propertyCheck(input: Generate.data) { data in
            #expect(expectReadsBack(data) == "\"\(data.base64EncodedString())\"")
        }
    }
}

/// The generators of the property tests above.
private enum Generate {
    /// One of `values`, at random (not shrunk).
    static func one<T: Sendable>(of values: [T]) -> Generator<T, some SendableSequenceType> {
        Gen<T?>.element(of: values).map { $0! }
    }

    /// Integers of every magnitude (a random bit width, then random bits) and the extremes.
    static func integer<I: FixedWidthInteger & Sendable>(_: I.Type) -> Generator<I, some SendableSequenceType> {
        let extremes: [I] = [.min, .min + 1, .max, .max - 1, 0, 1] + (I.isSigned ? [I.zero &- 1] : [])
        return Gen<I>.frequency(
            (1, one(of: extremes)),
            (4, zip(Gen.int(in: 0...I.bitWidth), Gen<I>.value()).map { bits, random in random >> (I.bitWidth - bits) }))
    }

    /// Up to 12 integers: neighbours of one (often beyond 2^53, where a `Double` cannot tell
    /// neighbours apart) and others of any magnitude.
    static var clusteredIntegers: Generator<[Int], some SendableSequenceType> {
        let base = Gen<Int>.frequency((1, Gen.int()), (1, integer(Int.self)))
        return zip(base, Gen.int(in: -3...3).array(of: 0...6), integer(Int.self).array(of: 0...6))
            .map { base, offsets, others in offsets.map { base &+ $0 } + others }
    }

    /// Any finite double: any bits, human-sized decimals (`0.1`, `1e-07`), the edges.
    static var finiteDouble: Generator<Double, some SendableSequenceType> {
        Gen<Double>.frequency(
            (2, Gen<UInt64>.value().map { Double(bitPattern: $0) }.filter { $0.isFinite }),
            (2, zip(Gen.int(in: -999_999...999_999), Gen.int(in: -12...12)).map { Double("\($0)e\($1)")! }),
            (
                1,
                one(of: [
                    0, -0.0, 1, .leastNonzeroMagnitude, -.leastNormalMagnitude, .greatestFiniteMagnitude,
                    -.greatestFiniteMagnitude, .ulpOfOne, 9_007_199_254_740_992, .pi,
                ])
            ))
    }

    /// Finite doubles, and `nan`, `inf`, `-inf`.
    static var double: Generator<Double, some SendableSequenceType> {
        Gen<Double>.frequency((9, finiteDouble), (1, one(of: [.nan, .infinity, -.infinity])))
    }

    static var float: Generator<Float, some SendableSequenceType> {
        Gen<Float>.frequency(
            (4, Gen<UInt32>.value().map { Float(bitPattern: $0) }),
            (2, zip(Gen.int(in: -99_999...99_999), Gen.int(in: -8...8)).map { Float("\($0)e\($1)")! }),
            (
                1,
                one(of: [
                    0, -0.0, 0.1, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
                    -.greatestFiniteMagnitude, .nan, .infinity, -.infinity,
                ])
            ))
    }

    /// 1 to 38 digits, a sign and an exponent: any `Decimal` a person or a parser makes.
    static var decimal: Generator<Decimal, some SendableSequenceType> {
        zip(Gen.bool, Gen.number.string(of: 1...38), Gen.int(in: -40...40))
            .compactMap { negative, digits, exponent in
                Decimal(string: (negative ? "-" : "") + digits + "e" + String(exponent))
            }
    }

    /// A piece of text: a scalar from anywhere in Unicode (weighted toward what JSON escapes),
    /// or a cluster of several (a letter and its mark, emoji sequences, a flag, `\r\n`).
    static var fragment: Generator<String, some SendableSequenceType> {
        let scalar = Gen<UInt32>.frequency(
            (4, Gen<UInt32>.value(in: 0x20...0x7E)),
            (2, Gen<UInt32>.value(in: 0...0x1F)),
            (2, one(of: [0x22, 0x5C, 0x7F, 0x2F, 0x85, 0xA0, 0x2028, 0x2029, 0xFEFF, 0x301, 0x200D, 0xFFFD])),
            (2, Gen<UInt32>.value(in: 0x80...0xFFFF)),
            (1, Gen<UInt32>.value(in: 0x1F300...0x1FAFF)),
            (1, Gen<UInt32>.value(in: 0x10000...0x10FFFF))
        )
        .compactMap { Unicode.Scalar($0).map { String(Character($0)) } }
        let clusters = [
            "e\u{301}", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F1EB}\u{1F1F7}", "\r\n",
            "\u{1F44D}\u{1F3FD}",
            "\u{915}\u{94D}\u{937}", "\u{AC00}\u{11A8}", "\\u0041", "\"\\\"",
        ]
        return Gen<String>.frequency((6, scalar), (1, one(of: clusters)))
    }

    static var string: Generator<String, some SendableSequenceType> { fragment.array(of: 0...10).map { $0.joined() } }

    static var character: Generator<Character, some SendableSequenceType> {
        fragment.compactMap { $0.count == 1 ? $0.first : nil }
    }

    /// Whole milliseconds since 1970, from 0001-01-01 to 9999-12-31, often near now, often whole
    /// seconds, and the edges (1970, 2001, `distantPast` and `distantFuture`, leap days).
    static var milliseconds: Generator<Int64, some SendableSequenceType> {
        let first: Int64 = -62_135_596_800_000
        let last: Int64 = 253_402_300_799_999
        return Gen<Int64>.frequency(
            (3, Gen<Int64>.value(in: first...last)),
            (3, Gen<Int64>.value(in: -2_000_000_000_000...4_000_000_000_000)),
            (1, Gen<Int64>.value(in: (first / 1000)...(last / 1000)).map { $0 * 1000 }),
            (
                1,
                one(of: [
                    0, -1, 1, 999, -999, 250, first, last, 978_307_200_000, 978_307_200_001, 64_092_211_200_000,
                    951_868_799_999, -2_203_891_200_000,
                ])
            ))
    }

    static var millisecondDate: Generator<Date, some SendableSequenceType> {
        milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    /// Absolute and relative URLs: schemes, hosts (IPv6, punycode, Unicode), ports, paths with
    /// escapes and characters a URL must encode, queries and fragments.
    static var url: Generator<URL, some SendableSequenceType> {
        let schemes = one(of: [
            "https://", "http://", "ftp://", "file://", "mailto:", "urn:isbn:", "git+ssh://", "x-app://", "", "//",
        ])
        let hosts = one(of: [
            "example.com", "localhost", "a.b-c.d", "127.0.0.1", "[::1]", "xn--caf-dma.fr", "例え.jp", "user:pw@h", "",
        ])
        let piece = Gen<Character?>.element(of: Array("abcXYZ019-._~!$&'()*+,;=:@%20é✓ ")).map { $0! }.string(of: 0...6)
        return zip(
            schemes, hosts, Gen.int(in: 0...65535).optional(valueRate: 0.2),
            piece.array(of: 0...3), piece.optional(valueRate: 0.3), piece.optional(valueRate: 0.3)
        ).compactMap { scheme, host, port, path, query, fragment -> URL? in
            var text = scheme + host + (port.map { ":\($0)" } ?? "")
            if !path.isEmpty { text += "/" + path.joined(separator: "/") }
            if let query { text += "?" + query }
            if let fragment { text += "#" + fragment }
            return URL(string: text)
        }
    }

    static var uuid: Generator<UUID, some SendableSequenceType> {
        Gen<UInt8>.value().array(of: 16).map { b in
            UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
                ))
        }
    }

    static var data: Generator<Data, some SendableSequenceType> {
        Gen<UInt8>.value().array(of: 0...48).map { Data($0) }
    }

    static var repository: Generator<ValueReaderTests.Repository, some SendableSequenceType> {
        zip(string, integer(Int.self)).map { ValueReaderTests.Repository(fullName: $0, stars: $1) }
    }

    static var user: Generator<ValueReaderTests.User, some SendableSequenceType> {
        zip(string, string.optional, millisecondDate, Gen.bool, url.optional).map {
            ValueReaderTests.User(name: $0, displayName: $1, createdAt: $2, isAdmin: $3, homePage: $4)
        }
    }

    static var event: Generator<ValueReaderTests.Event, some SendableSequenceType> {
        typealias Event = ValueReaderTests.Event
        return Gen<Event>.oneOf(
            Gen.always(Event.idle),
            millisecondDate.map { Event.loading(since: $0) },
            zip(string, integer(Int.self)).map { Event.failed($0, attempts: $1) },
            zip(repository, url.optional).map { Event.moved($0, to: $1) },
            zip(string.set(ofAtMost: 0...4), string.optional).map { Event.tagged($0, note: $1) },
            zip(Gen<ValueReaderTests.Phase>.case, Gen<ValueReaderTests.Plan>.case).map { Event.phase($0, $1) },
            zip(string, finiteDouble).dictionary(ofAtMost: 0...4).map { Event.scored($0) })
    }

    static var profile: Generator<ValueReaderTests.Profile, some SendableSequenceType> {
        let first = zip(
            uuid, user, repository.array(of: 0...3), repository.optional,
            Gen<ValueReaderTests.Role>.case.set(ofAtMost: 0...2),
            Gen<ValueReaderTests.Level>.case)
        let second = zip(
            event, zip(string, event.array(of: 0...2)).dictionary(ofAtMost: 0...3),
            zip(integer(Int.self), repository).dictionary(ofAtMost: 0...3), data, finiteDouble, decimal)
        return zip(first, second).map { first, second in
            ValueReaderTests.Profile(
                id: first.0, user: first.1, repositories: first.2, pinned: first.3, roles: first.4, level: first.5,
                status: second.0, history: second.1, byID: second.2, avatar: second.3, ratio: second.4,
                balance: second.5)
        }
    }
}
