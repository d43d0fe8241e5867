import Foundation
import PropertyBased
import Testing

@testable import FluxShellJSON

/// JSON strings as the parser reads them: escapes, UTF-8 as it is, and located errors.
struct JSONParserStringTests {
    @Test(arguments: [
        (#""""#, ""),
        (#""plain text""#, "plain text"),
        (#""é✓ 🙂 ünïcode""#, "é✓ 🙂 ünïcode"),
        (#""a\"b\\c\/d""#, #"a"b\c/d"#),
        (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
        (#""\u0000\u0007\u007f\u00e9""#, "\u{00}\u{07}\u{7F}é"),
        (#""\ud83d\ude42 and \u2713""#, "🙂 and ✓"),
        (#""before é \n after 🙂""#, "before é \n after 🙂"),
        (#""\\""#, #"\"#),
    ])
    func stringsReadAsTheirText(_ json: String, _ text: String) throws {
        #expect(try JSONParser.parse(json[...]) == .string(text))
        #expect(try JSONParser.parse(#"{"k":"# + json + "}") == .object(JSONObject([("k", .string(text))])))
    }

    @Test(arguments: [
        ("\"ab\u{01}c\"", "control character in string (escape it)", 3),
        (#""abc"#, "unterminated string (missing '\"')", 4),
        (#""abc\"#, "unterminated escape", 5),
        (#""a\qb""#, "unknown escape '\\q'", 3),
        (#""\ud800x""#, "unpaired surrogate \\ud800", 7),
        (#""\ud800\u0041""#, "invalid surrogate pair", 13),
        (#""\u12""#, "expected 4 hex digits after \\u", 3),
    ])
    func aBadStringIsAnErrorWhereItGoesWrong(_ json: String, _ message: String, _ offset: Int) {
        #expect(throws: JSONParseError(message: message, offset: offset)) { try JSONParser.parse(json[...]) }
    }

    /// Any text, written as the shell quotes it, reads back as itself, and as Foundation reads it.
    @Test func quotedTextReadsBackAsItself() async {
        let scalars = Gen.oneOf(
            Gen.unicodeScalar(in: "\u{00}"..."\u{7F}"), Gen.unicodeScalar(in: "\u{80}"..."\u{D7FF}"),
            Gen.unicodeScalar(in: "\u{E000}"..."\u{FFFF}"), Gen.unicodeScalar(in: "\u{10000}"..."\u{10FFFF}"))
        await propertyCheck(input: scalars.array(of: 0...24)) { scalars in
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let string = String(text)
            let quoted = JSONText.quoted(string)
            #expect((try? JSONParser.parse(quoted[...])) == .string(string))
            #expect((try? JSONDecoder().decode(String.self, from: Data(quoted.utf8))) == string)
        }
    }
}
