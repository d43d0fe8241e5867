import FluxShellSystem
import Foundation
import Testing

@testable import FluxShellJSON
@testable import FluxShellValues

/// `state PATH` and `expect PATH` read only what the path goes through, and answer exactly as
/// the path looked up in the whole printed state does.
struct PathReadTests {
    struct Item: Equatable {
        var id: Int
        var title: String
        var tags: Set<String>
    }

    struct Sample {
        var items: [Item] = [Item(id: 1, title: "a", tags: ["x"]), Item(id: 2, title: "b", tags: [])]
        var byID: [Int: String] = [10: "ten", 2: "two"]
        var named: [String: Int] = ["count": 3, "b": 2]
        var maybe: Item? = Item(id: 3, title: "c", tags: ["y", "z"])
        var none: Item? = nil
        var status: Status = .failed(reason: "r", attempts: 2)
        var count = 7
    }

    enum Status {
        case idle
        case failed(reason: String, attempts: Int)
    }

    /// Every path of `value`, with the value at it.
    func paths(of value: JSONValue, at path: ValuePath = ValuePath()) -> [(ValuePath, JSONValue)] {
        var result = [(path, value)]
        switch value {
        case .object(let object):
            // A dictionary's keys are `["KEY"]`, and its `.count` is the count whatever its keys.
            for (key, member) in object.members {
                result += paths(of: member, at: path.appending(object.isKeyed ? .entry(key) : .key(key)))
            }
            if object.isKeyed || object["count"] == nil {
                result.append((path.appending(.key("count")), .int(object.count)))
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                result += paths(of: element, at: path.appending(.index(index)))
            }
            result.append((path.appending(.key("count")), .int(elements.count)))
        default:
            break
        }
        return result
    }

    @Test func everyPathReadInPlaceIsThePrintedValue() throws {
        let sample = Sample()
        let whole = ValueReader.read(sample)
        let all = paths(of: whole)
        #expect(all.count > 30)
        var readInPlace = 0
        for (path, expected) in all where !path.segments.isEmpty {
            let inPlace = ValueReader().read(sample, at: path.segments[...])
            #expect(inPlace == nil || inPlace == expected, "\(path)")
            #expect(try path.lookup(in: whole) == expected, "\(path)")
            if inPlace != nil { readInPlace += 1 }
        }
        // Paths into the enum, into sets and to `.count` of structs are left to the whole value.
        #expect(readInPlace >= 24, "\(readInPlace) of \(all.count)")
    }

    @Test(arguments: [
        "items[1].title", "items.count", #"byID["10"]"#, #"named["count"]"#, "maybe.title", "count", "none",
    ])
    func structArrayDictionaryAndOptionalPathsAreReadInPlace(_ text: String) throws {
        let path = try ValuePath.parse(text[...])
        let sample = Sample()
        let value = try #require(ValueReader().read(sample, at: path.segments[...]))
        #expect(try value == path.lookup(in: ValueReader.read(sample)))
    }

    @Test func pathsIntoEnumsOrPastTheEndAreLeftToTheWholeValue() throws {
        let sample = Sample()
        for text in ["status.failed.reason", "items[2]", "items[0].nope", #"byID["3"]"#] {
            #expect(ValueReader().read(sample, at: try ValuePath.parse(text[...]).segments[...]) == nil, "\(text)")
        }
    }

    @Test func keysThatPrintTheSameAndDeepPathsAnswerAsTheWholeValue() throws {
        struct Colliding { var byName: [String?: Int] = [nil: 1, "null": 2] }
        let colliding = Colliding()
        let path = try ValuePath.parse(#"byName["null"]"#[...])
        #expect(ValueReader().read(colliding, at: path.segments[...]) == nil)

        struct Node { var kids: [Node] }
        var tree = Node(kids: [])
        for _ in 0..<60 { tree = Node(kids: [tree]) }
        let deep = try ValuePath.parse(String(repeating: "kids[0].", count: 45).dropLast())
        let inPlace = ValueReader().read(tree, at: deep.segments[...])
        #expect(try inPlace == deep.lookup(in: ValueReader.read(tree)))
    }
}
