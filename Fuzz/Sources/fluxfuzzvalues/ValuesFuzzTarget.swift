import FluxShell
import Foundation
import IdentifiedCollections
import OrderedCollections
import Tagged

/// An app-shaped value, with the types “Printed values” in the reference gives a text form.
private struct Sample: Codable, Equatable {
    enum Status: Codable, Equatable {
        case idle
        case syncing(since: Date)
        case failed(reason: String, attempts: Int)
    }
    enum Format: Int, Codable, CaseIterable {
        case paperback = 1
        case hardcover, ebook
    }
    var id: UUID
    var title: String
    var link: URL?
    var added: Date
    var price: Decimal?
    var format: Format?
    var tags: Set<String>
    var shelves: [Int: String]
    var cover: Data
    var rating: Double
    var volume: Float
    var status: Status
    var initial: Character?

    enum CodingKeys: String, CodingKey {
        case id, title
        case link = "link_url"
        case added, price, format, tags, shelves, cover, rating, volume, status, initial
    }
}

// swift-format-ignore: AvoidRetroactiveConformances
// The fuzzer's own module only: a user's state with a `Character` member is the input.
extension Character: @retroactive Codable {
    public init(from decoder: any Decoder) throws {
        let text = try String(from: decoder)
        guard text.count == 1, let first = text.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "one character"))
        }
        self = first
    }

    public func encode(to encoder: any Encoder) throws { try String(self).encode(to: encoder) }
}

/// A feature's types that are not `Decodable` (“Printed values” in the reference: every printed form types back anyway).
private struct Member: Identifiable {
    let id: Tagged<Member, UUID>
    var name: String
    var length: Duration
}

private indirect enum Tree {
    case leaf(Int)
    case node(Tree, label: String)
}

private enum Presentation<Child> {
    case dismiss
    indirect case presented(Child)
}

private enum Routed<ID: Hashable, Child> {
    case element(id: ID, action: Child)
}

/// An app's response with `any Error` at several depths: typed as a string, a `DescribedError`.
private struct Outcome {
    var result: Result<Int, any Error>
    var errors: [any Error]
    var nested: Result<Result<Tree, any Error>, any Error>?
}

/// Reads `value` as `T` through `read`; when that works, the printed form must read back to the
/// same printed form (print, parse, print is a fixed point).
private func checkFixedPoint<T>(_ type: T.Type, _ value: JSONValue, _ read: (JSONValue) throws -> T) {
    guard let decoded = try? read(value) else { return }
    let printed = ValueReader.read(decoded)
    guard let again = try? read(printed) else {
        fatalError(
            "\(T.self): the printed form \(JSONText.compact(printed)) of \(JSONText.compact(value)) does not read back")
    }
    let reprinted = ValueReader.read(again)
    guard reprinted == printed else {
        fatalError("\(T.self): \(JSONText.compact(printed)) reads back as \(JSONText.compact(reprinted))")
    }
}

/// Through `Decodable`, for every type “Printed values” in the reference gives a text form.
private func check<T: Decodable>(_ type: T.Type, _ value: JSONValue) {
    checkFixedPoint(type, value) { try JSONValueDecoder().decode(type, from: $0) }
}

/// Built from the printed form, `Decodable` or not.
private func checkAny<T>(_ type: T.Type, _ value: JSONValue) {
    checkFixedPoint(type, value) { try JSONValueDecoder().build(type, from: $0) }
}

/// One fuzz input: a value in text as a user types it. The JSON parser's output must print and
/// parse back to itself; the value read as each §4 type must survive print and parse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self),
        let value = try? JSONParser.parse(text)
    else { return 0 }
    let compact = JSONText.compact(value)
    guard let reparsed = try? JSONParser.parse(compact), reparsed == value, JSONText.compact(reparsed) == compact else {
        fatalError("\(text) prints as \(compact), which does not parse back to it")
    }
    for candidate in [value, .string(text)] {
        check(Int.self, candidate)
        check(Int8.self, candidate)
        check(UInt64.self, candidate)
        check(Double.self, candidate)
        check(Float.self, candidate)
        check(Decimal.self, candidate)
        check(Bool.self, candidate)
        check(String.self, candidate)
        check(Date.self, candidate)
        check(URL.self, candidate)
        check(UUID.self, candidate)
        check(Data.self, candidate)
        check(Sample.Status.self, candidate)
        check(Sample.Format.self, candidate)
        check([Int: String].self, candidate)
        check(Set<Double>.self, candidate)
        check([Date?].self, candidate)
        check(Sample.self, candidate)
        checkAny(Duration.self, candidate)
        checkAny(IndexSet.self, candidate)
        checkAny(OrderedSet<Int>.self, candidate)
        checkAny(OrderedDictionary<String, Duration>.self, candidate)
        checkAny(IdentifiedArrayOf<Member>.self, candidate)
        checkAny(Tagged<Member, UUID>.self, candidate)
        checkAny(Tree.self, candidate)
        checkAny(Presentation<Routed<Int, Tree>>.self, candidate)
        checkAny([Member?].self, candidate)
        checkAny(Measurement<UnitLength>.self, candidate)
        checkAny(Measurement<Unit>.self, candidate)
        checkAny(TimeZone.self, candidate)
        checkAny((any Error).self, candidate)
        checkAny(Result<Int, any Error>.self, candidate)
        checkAny(Outcome.self, candidate)
    }
    return 0
}
