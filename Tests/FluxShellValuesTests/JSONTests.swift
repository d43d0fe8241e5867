import FluxShellSystem
import Testing

@testable import FluxShellJSON
@testable import FluxShellValues

struct JSONTests {
    @Test func compactKeepsKeyOrderAndEscapesOnlyWhatJSONNeeds() throws {
        let value = try JSONParser.parse(#"{"z":1,"a":[true,null,"é ✓ \"q\" \\ \n \u0001"],"m":{}}"#)
        #expect(JSONText.compact(value) == #"{"z":1,"a":[true,null,"é ✓ \"q\" \\ \n \u0001"],"m":{}}"#)
    }

    /// What a trap handler writes, from bytes it holds: escaped as a quoted string is.
    @Test func escapedBytesMatchAQuotedString() {
        let text = "é ✓ \"q\" \\ \n \r \t \u{8} \u{C} \u{1} \u{1F} \u{7F} end"
        var bytes = OutputBuffer()
        bytes.append(text)
        var escaped = OutputBuffer()
        JSONText.writeEscaped(bytes, to: &escaped)
        #expect("\"" + escaped.text + "\"" == JSONText.quoted(text))
        #expect(escaped.text == #"é ✓ \"q\" \\ \n \r \t \b \f \u0001 \u001f \u007f end"#)
    }

    @Test func prettyIsIndentedJSON() throws {
        let value = try JSONParser.parse(#"{"count":0,"todos":[{"id":1}],"e":[]}"#)
        #expect(
            JSONText.pretty(value)
                == "{\n  \"count\": 0,\n  \"todos\": [\n    {\n      \"id\": 1\n    }\n  ],\n  \"e\": []\n}")
    }

    @Test func largeObjectsParseCompareAndDiffInLinearTime() throws {
        let count = 50_000
        let forward = "{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let backward = "{" + (0..<count).reversed().map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let a = try JSONParser.parse(forward)
        let b = try JSONParser.parse(backward)
        #expect(a.count == count)
        #expect(a == b)
        var changed = b
        if case .object(var object) = changed {
            object["k7"] = .int(-7)
            object["extra"] = .null
            changed = .object(object)
        }
        #expect(StateDiff.entries(from: a, to: changed).map(\.line) == ["~ k7: 7 -> -7", "+ extra: null"])
        #expect(try JSONParser.parse(#"{"a":1,"a":2}"#) == .object(JSONObject([("a", .int(2))])))
    }

    @Test func numbers() throws {
        #expect(try JSONParser.parse("-12") == .int(-12))
        #expect(try JSONParser.parse("1.5") == .double(1.5))
        #expect(try JSONParser.parse("1e3") == .double(1000))
        #expect(JSONText.compact(.double(2)) == "2.0")
        #expect(JSONValue.int(1) == .double(1.0))
        #expect(throws: JSONParseError.self) { try JSONParser.parse("1e999") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("01x") }
    }

    @Test func surrogatePairsAndBadEscapes() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\ud83d""#) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\q""#) }
    }

    @Test func readerKeepsDeclarationOrderAndSortsDictionaries() throws {
        struct Sample {
            var zeta = 1
            var alpha = "a"
            var scores = ["bob": 2, "alice": 1, "carol": 3]
            var maybe: Int? = nil
            var list = [1.5, 2]
        }
        let json = ValueReader.read(Sample())
        #expect(
            JSONText.compact(json)
                == #"{"zeta":1,"alpha":"a","scores":{"alice":1,"bob":2,"carol":3},"maybe":null,"list":[1.5,2.0]}"#)
    }

    @Test func decoderReportsRangeAndTypeErrorsWithTheirPath() {
        enum Action: Decodable { case set(UInt8) }
        #expect(throws: DecodingError.self) {
            try JSONValueDecoder().decode(
                Action.self, from: .object(JSONObject([("set", .object(JSONObject([("_0", .int(300))])))])))
        }
        do {
            _ = try JSONValueDecoder().decode(
                Action.self, from: .object(JSONObject([("set", .object(JSONObject([("_0", .string("x"))])))])))
            Issue.record("decoding a string as UInt8 succeeded")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["set", "_0"])
            #expect(context.debugDescription == #"expected a whole number, found "x""#)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
