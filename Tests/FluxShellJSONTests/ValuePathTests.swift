import FluxShellSystem
import Testing

@testable import FluxShellJSON

struct ValuePathTests {
    let state = try! JSONParser.parse(
        #"{"count":2,"todos":[{"id":1,"title":"a"},{"id":2,"title":"b"}],"scores":{"alice":3,"bob smith":1}}"#)

    @Test(arguments: ["count", ".count", "todos[1].title", #"scores["alice"]"#, #"scores["bob smith"]"#, ".", "todos"])
    func parsePrintParseIsTheIdentity(_ text: String) throws {
        let path = try ValuePath.parse(text[...])
        #expect(try ValuePath.parse(path.description[...]) == path)
    }

    @Test func lookups() throws {
        #expect(try ValuePath.parse("count").lookup(in: state) == .int(2))
        #expect(try ValuePath.parse("todos[1].title").lookup(in: state) == .string("b"))
        #expect(try ValuePath.parse(#"scores["bob smith"]"#).lookup(in: state) == .int(1))
        #expect(try ValuePath.parse("todos.count").lookup(in: state) == .int(2))
        #expect(try ValuePath.parse("scores.count").lookup(in: state) == .int(2))
        #expect(try ValuePath.parse(".").lookup(in: state) == state)
    }

    @Test func lookupErrorsSayWhatIsThere() {
        func message(_ text: String) -> String? {
            do {
                _ = try ValuePath.parse(text[...]).lookup(in: state)
                return nil
            } catch { return error.text }
        }
        #expect(message("todos[5]") == "index 5 is past the end of todos (2 elements)")
        #expect(message("cont") == "no key 'cont' in the state (did you mean 'count'?)")
        #expect(
            message("todos.title")
                == "todos is an array, not an object: no key 'title' (use an index such as todos[0] or .count)")
        #expect(message("count.x") == "count is a number, which has no x")
    }

    @Test func aPathOf100000SegmentsIsAnErrorNotACrash() throws {
        let long = String(repeating: "a.", count: 100_000) + "a"
        let path = try ValuePath.parse(long[...])
        #expect(path.segments.count == 100_001)
        #expect(throws: ShellError.self) { try path.lookup(in: state) }
    }

    @Test func theDeepestPartThatNamesAValueIsFoundInOnePass() throws {
        let nested = try JSONParser.parse(#"{"a":{"b":[{"id":7,"c":[null]}]}}"#)
        let path = try ValuePath.parse("a.b[0].c[0].d.e"[...])
        let deepest = path.deepestValue(in: nested)
        #expect(deepest.count == 5)
        #expect(deepest.value == .null)
        #expect(try ValuePath.parse("a.b[0].c"[...]).deepestValue(in: nested).count == 4)
        #expect(try ValuePath.parse("x"[...]).deepestValue(in: nested).count == 0)
    }

    @Test func idsAreResolvedAlongTheWay() throws {
        let nested = try JSONParser.parse(#"{"lists":[{"id":3,"items":[{"id":"x","n":1},{"id":"y","n":2}]}]}"#)
        let path = try ValuePath.parse(#"lists[id: 3].items[id: "y"].n"#[...])
        #expect(try path.resolvingIDs(in: nested) == ValuePath.parse("lists[0].items[1].n"[...]))
        #expect(
            throws: ShellError("no element of lists[0].items has the id \"z\"", hint: "its ids include \"x\", \"y\"")
        ) {
            try ValuePath.parse(#"lists[id: 3].items[id: "z"].n"#[...]).resolvingIDs(in: nested)
        }
    }
}
