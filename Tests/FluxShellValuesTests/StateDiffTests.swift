import FluxCore
import FluxShellSystem
import PropertyBased
import Testing

@testable import FluxShellJSON
@testable import FluxShellValues

struct StateDiffTests {
    private func lines(_ old: String, _ new: String) throws -> [String] {
        StateDiff.entries(from: try JSONParser.parse(old), to: try JSONParser.parse(new)).map(\.line)
    }

    @Test func changeInsideAnElementIsReportedAtTheDeepestPath() throws {
        #expect(
            try lines(
                #"{"todos":[{"id":1,"done":false},{"id":2,"done":false}]}"#,
                #"{"todos":[{"id":1,"done":true},{"id":2,"done":false}]}"#) == ["~ todos[0].done: false -> true"])
    }

    @Test func insertionAndRemovalAreOneLineEach() throws {
        #expect(try lines(#"[1,2,3,4]"#, #"[1,9,2,3,4]"#) == ["+ [1]: 9"])
        #expect(try lines(#"[1,2,3,4]"#, #"[1,3,4]"#) == ["- [1]: 2"])
        #expect(try lines(#"{"a":[1,2,3]}"#, #"{"a":[2,3,4]}"#) == ["- a[0]: 1", "+ a[2]: 4"])
    }

    @Test func objectKeysAppearAndDisappear() throws {
        #expect(try lines(#"{"a":1,"b":2}"#, #"{"a":1,"c":3}"#) == ["+ c: 3", "- b: 2"])
        #expect(try lines(#"{"a":1}"#, #"{"a":"1"}"#) == [#"~ a: 1 -> "1""#])
        #expect(try lines(#"{"a":1}"#, #"{"a":1}"#) == [])
    }

    /// One writer prints every line: plain keys bare, others quoted (also after a plain prefix
    /// of the key was written), escapes, negative numbers, nested values, the root.
    @Test func everyLineIsWrittenByTheSameWriter() throws {
        #expect(try lines(#"{"s":{"a b":1}}"#, #"{"s":{"a b":-2}}"#) == [#"~ s["a b"]: 1 -> -2"#])
        #expect(try lines(#"{"ab\"c":1}"#, #"{"ab\"c":2}"#) == [#"~ ["ab\"c"]: 1 -> 2"#])
        #expect(try lines(#"{"x9_é":"a"}"#, #"{"x9_é":"q\"\n\u0001"}"#) == [#"~ x9_é: "a" -> "q\"\n\u0001""#])
        #expect(try lines(#"{"9":1}"#, #"{"9":[1.5,{"k":null}]}"#) == [#"~ ["9"]: 1 -> [1.5,{"k":null}]"#])
        #expect(try lines(#"1"#, #"-9223372036854775808"#) == [#"~ .: 1 -> -9223372036854775808"#])
    }

    /// Applying the entries to the old value gives the new one (the law of a diff).
    @Test(arguments: 0..<300)
    func applyingTheDiffGivesTheNewValue(seed: Int) throws {
        var generator = Xoshiro(seed: (UInt64(seed), 0x9E37_79B9_7F4A_7C15, 1, 2))
        let old = randomValue(&generator, depth: 0)
        let new = mutate(old, &generator, depth: 0)
        let entries = StateDiff.entries(from: old, to: new)
        #expect(apply(entries, to: old) == new, "old \(JSONText.compact(old)) new \(JSONText.compact(new))")
    }

    /// A minimal edit script is never longer than removing everything and inserting everything.
    @Test(arguments: 0..<200)
    func editScriptIsNeverLongerThanTheNaiveOne(seed: Int) {
        var generator = Xoshiro(seed: (UInt64(seed), 0x9E37_79B9_7F4A_7C15, 1, 2))
        let old = (0..<generator.next(upTo: 12)).map { _ in generator.next(upTo: 4) }
        let new = (0..<generator.next(upTo: 12)).map { _ in generator.next(upTo: 4) }
        let script = EditScript.myers(old, new, limit: 100)!
        let edits = script.filter { $0 != .keep }.count
        #expect(edits <= old.count + new.count)
        // And it is a valid script: keeps + removals cover old, keeps + insertions cover new.
        #expect(script.filter { if case .insert = $0 { false } else { true } }.count == old.count)
        #expect(script.filter { if case .remove = $0 { false } else { true } }.count == new.count)
    }

    @Test func typedStatesDiffMemberByMemberWithNilAsNull() {
        struct Item {
            var name: String
            var tags: [String]
        }
        struct Sample {
            var selected: Int?
            var items: [Item]
            var big: ChunkedArray<Int>
        }
        let old = Sample(selected: nil, items: [Item(name: "a", tags: [])], big: ChunkedArray(0..<1_000))
        var new = old
        new.selected = 3
        new.items[0].tags.append("x")
        new.big[700] = -1
        new.big.append(1_000)
        #expect(
            ValueDiffer.entries(from: old, to: new).map(\.line) == [
                "~ selected: null -> 3", #"+ items[0].tags[0]: "x""#, "~ big[700]: 700 -> -1", "+ big[1000]: 1000",
            ])
        #expect(ValueDiffer.entries(from: new, to: new).isEmpty)
    }

    /// A `-` path indexes the old state, inside an element that moved too: the element's old
    /// index, where `+` and `~` inside it give its new one.
    @Test func aRemovalInsideAMovedElementGivesItsOldIndex() throws {
        struct Todo {
            var name: String
            var tags: [String]
        }
        let old = [Todo(name: "a", tags: []), Todo(name: "k", tags: []), Todo(name: "b", tags: ["t", "u"])]
        let new = [Todo(name: "k", tags: []), Todo(name: "b", tags: ["u", "v"]), Todo(name: "x", tags: [])]
        let expected = [
            #"- [0]: {"name":"a","tags":[]}"#, #"- [2].tags[0]: "t""#, #"+ [1].tags[1]: "v""#,
            #"+ [2]: {"name":"x","tags":[]}"#,
        ]
        #expect(ValueDiffer.entries(from: old, to: new).map(\.line).sorted() == expected.sorted())
        let printedOld = ValueReader().read(old)
        let printedNew = ValueReader().read(new)
        let entries = StateDiff.entries(from: printedOld, to: printedNew)
        #expect(entries.map(\.line).sorted() == expected.sorted())
        #expect(apply(entries, to: printedOld) == printedNew)
        #expect(apply(ValueDiffer.entries(from: old, to: new), to: printedOld) == printedNew)
    }

    /// Undo puts back the first of a list of structs that are not `Identifiable` (its strings
    /// made anew, so no bit compares equal): one insertion at the front, not a change of every
    /// element and an append.
    @Test func anElementPutBackAtTheFrontIsOneInsertion() {
        struct Todo {
            var title: String
            var done: Bool
        }
        func title(_ number: Int) -> String { "a title long enough to live on the heap, number \(number)" }
        let old = (2...4).map { Todo(title: title($0), done: false) }
        let new = (1...4).map { Todo(title: title($0), done: false) }
        #expect(
            ValueDiffer.entries(from: old, to: new).map(\.line) == [
                #"+ [0]: {"title":"\#(title(1))","done":false}"#
            ])
    }

    @Test func largeArraysFallBackToPairingByIndex() {
        let old = JSONValue.array((0..<5_000).map { .int($0) })
        let new = JSONValue.array((0..<5_000).map { .int($0 % 2 == 0 ? $0 : -$0) })
        let entries = StateDiff.entries(from: old, to: new)
        #expect(apply(entries, to: old) == new)
    }

    // MARK: - Helpers

    /// Applies entries in order: `-` paths index the old array, `+` and `~` the new one.
    private func apply(_ entries: [DiffEntry], to value: JSONValue) -> JSONValue {
        // Removals first (deepest and highest indices first), then insertions and changes in order.
        var result = value
        let removals = entries.filter { $0.operation == .removed }.sorted { lhs, rhs in
            lhs.path.segments.lexicographicallyPrecedes(rhs.path.segments, by: segmentOrder) == false
        }
        for entry in removals { result = edit(result, entry.path.segments[...]) { _ in nil } }
        for entry in entries where entry.operation != .removed {
            result = edit(result, entry.path.segments[...], inserting: entry.operation == .added) { _ in entry.new }
        }
        return result
    }

    private func segmentOrder(_ a: ValuePath.Segment, _ b: ValuePath.Segment) -> Bool {
        switch (a, b) {
        case (.index(let x), .index(let y)): x < y
        case (.key(let x), .key(let y)), (.entry(let x), .entry(let y)), (.key(let x), .entry(let y)),
            (.entry(let x), .key(let y)):
            x < y
        case (.index, .key), (.index, .entry): true
        case (.key, .index), (.entry, .index): false
        case (.every, _), (_, .every), (.id, _), (_, .id):
            // A diff line's path never holds [*] or [id:]: the edit below fails on it.
            false
        }
    }

    private func edit(
        _ value: JSONValue, _ path: ArraySlice<ValuePath.Segment>, inserting: Bool = false,
        _ change: (JSONValue?) -> JSONValue?
    ) -> JSONValue {
        guard let first = path.first else { return change(value) ?? .null }
        let rest = path.dropFirst()
        switch (first, value) {
        case (.key(let key), .object(var object)), (.entry(let key), .object(var object)):
            if rest.isEmpty {
                object[key] = change(object[key])
            } else {
                object[key] = edit(object[key] ?? .null, rest, inserting: inserting, change)
            }
            return .object(object)
        case (.index(let index), .array(var elements)):
            if rest.isEmpty {
                if inserting, let new = change(nil) {
                    elements.insert(new, at: index)
                } else if let new = change(elements[index]) {
                    elements[index] = new
                } else {
                    elements.remove(at: index)
                }
            } else {
                elements[index] = edit(elements[index], rest, inserting: inserting, change)
            }
            return .array(elements)
        default:
            return value
        }
    }

    private func randomValue(_ generator: inout Xoshiro, depth: Int) -> JSONValue {
        switch depth > 2 ? generator.next(upTo: 3) : generator.next(upTo: 6) {
        case 0: return .int(generator.next(upTo: 5))
        case 1: return .string(["a", "b", "c"][generator.next(upTo: 3)])
        case 2: return .bool(generator.next(upTo: 2) == 0)
        case 3, 4:
            return .array((0..<generator.next(upTo: 6)).map { _ in randomValue(&generator, depth: depth + 1) })
        default:
            var object = JSONObject()
            for key in ["x", "y", "z"] where generator.next(upTo: 3) > 0 {
                object[key] = randomValue(&generator, depth: depth + 1)
            }
            return .object(object)
        }
    }

    private func mutate(_ value: JSONValue, _ generator: inout Xoshiro, depth: Int) -> JSONValue {
        switch value {
        case .array(var elements):
            for _ in 0..<generator.next(upTo: 3) {
                switch generator.next(upTo: 3) {
                case 0:
                    elements.insert(
                        randomValue(&generator, depth: depth + 1), at: generator.next(upTo: elements.count + 1))
                case 1 where !elements.isEmpty: elements.remove(at: generator.next(upTo: elements.count))
                default:
                    if !elements.isEmpty {
                        let index = generator.next(upTo: elements.count)
                        elements[index] = mutate(elements[index], &generator, depth: depth + 1)
                    }
                }
            }
            return .array(elements)
        case .object(var object):
            for key in ["x", "y", "z", "w"] where generator.next(upTo: 3) == 0 {
                object[key] =
                    generator.next(upTo: 4) == 0 ? nil : mutate(object[key] ?? .null, &generator, depth: depth + 1)
            }
            return .object(object)
        default:
            return generator.next(upTo: 2) == 0 ? value : randomValue(&generator, depth: depth)
        }
    }
}

extension Xoshiro {
    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func next(upTo bound: Int) -> Int { bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &self) }
}

/// the reference’s “Diff lines” rules for enums, sets and dictionaries, on typed values.
@Suite struct ValueDiffTests {
    enum Status: Equatable {
        case idle
        case loading(since: Int)
        case failed(reason: String, code: Int)
    }
    struct Sample {
        var status: Status = .idle
        var tags: Set<String> = []
        var byID: [Int: String] = [:]
        var history: [Status] = []
        var error: (any Error)?
    }
    struct Failure: Error {}

    private func lines(_ old: Sample, _ new: Sample) -> [String] { ValueDiffer.entries(from: old, to: new).map(\.line) }

    @Test func aCaseChangeIsOneLineAndAPayloadChangeIsAtItsDeepestPath() {
        var a = Sample()
        var b = a
        b.status = .loading(since: 1)
        #expect(lines(a, b) == [#"~ status: "idle" -> {"loading":{"since":1}}"#])
        a = b
        b.status = .loading(since: 2)
        #expect(lines(a, b) == ["~ status.loading.since: 1 -> 2"])
        a = b
        b.status = .failed(reason: "x", code: 2)
        #expect(lines(a, b) == [#"~ status: {"loading":{"since":2}} -> {"failed":{"reason":"x","code":2}}"#])
        a.history = [.idle, .loading(since: 1)]
        b.history = [.idle, .failed(reason: "y", code: 1)]
        b.status = a.status
        #expect(lines(a, b) == [#"~ history[1]: {"loading":{"since":1}} -> {"failed":{"reason":"y","code":1}}"#])
    }

    @Test func aSetIsDiffedAsItsSortedArrayWithoutPairing() {
        var a = Sample()
        a.tags = ["b", "d"]
        var b = a
        b.tags = ["a", "d", "e"]
        #expect(lines(a, b) == [#"- tags[0]: "b""#, #"+ tags[0]: "a""#, #"+ tags[2]: "e""#])
    }

    /// Lines come in the state's order (“Printed values” in the reference): removed keys among the
    /// others, by key.
    @Test func dictionaryKeysSortByValueAndChangeAtTheirPaths() {
        var a = Sample()
        a.byID = [10: "ten", 2: "two"]
        var b = a
        b.byID = [10: "TEN", 3: "three"]
        #expect(lines(a, b) == [#"- byID["2"]: "two""#, #"+ byID["3"]: "three""#, #"~ byID["10"]: "ten" -> "TEN""#])
    }

    @Test func anErrorMemberIsComparedByItsDescription() {
        let a = Sample()
        var b = a
        b.error = Failure()
        #expect(lines(a, b) == [#"~ error: null -> "Failure()""#])
        #expect(lines(b, b).isEmpty)
    }
}
