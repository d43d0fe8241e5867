/// Renders ``JSONValue``s as text: compact (one line) or pretty (indented).
///
/// Only `"`, `\` and control characters are escaped in strings; other characters print as
/// themselves (`"é"`, `"✓"`).
public enum JSONText {
    /// `{"count":1,"todos":[]}`
    public static func compact(_ value: JSONValue) -> String {
        var output = ""
        writeCompact(value, to: &output)
        return output
    }

    /// Two-space indented JSON, keys in the value's order.
    public static func pretty(_ value: JSONValue) -> String {
        var output = ""
        writePretty(value, indent: 0, to: &output)
        return output
    }

    public static func writeCompact(_ value: JSONValue, to output: inout String) {
        switch value {
        case .array, .object: break
        default: return writeScalar(value, to: &output)
        }
        // NB: iterative over a work list, so a deep value cannot overflow the stack.
        var work: [Step] = [.value(value)]
        while let step = work.popLast() {
            switch step {
            case .text(let text):
                output += text
            case .value(let value):
                switch value {
                case .array(let elements):
                    output += "["
                    work.append(.text("]"))
                    for (index, element) in elements.enumerated().reversed() {
                        work.append(.value(element))
                        if index > 0 { work.append(.text(",")) }
                    }
                case .object(let object):
                    output += "{"
                    work.append(.text("}"))
                    for index in object.keys.indices.reversed() {
                        work.append(.value(object.values[index]))
                        work.append(.text(quoted(object.keys[index]) + ":"))
                        if index > 0 { work.append(.text(",")) }
                    }
                default:
                    writeScalar(value, to: &output)
                }
            }
        }
    }

    private enum Step {
        case text(String)
        case value(JSONValue)
    }

    static func writePretty(_ value: JSONValue, indent: Int, to output: inout String) {
        var work: [(Step, Int)] = [(.value(value), indent)]
        while let (step, depth) = work.popLast() {
            switch step {
            case .text(let text):
                output += text
            case .value(let value):
                let pad = String(repeating: "  ", count: depth + 1)
                let closing = "\n" + String(repeating: "  ", count: depth)
                switch value {
                case .array(let elements) where !elements.isEmpty:
                    output += "["
                    work.append((.text(closing + "]"), depth))
                    for (index, element) in elements.enumerated().reversed() {
                        work.append((.value(element), depth + 1))
                        work.append((.text((index > 0 ? "," : "") + "\n" + pad), depth))
                    }
                case .object(let object) where object.count > 0:
                    output += "{"
                    work.append((.text(closing + "}"), depth))
                    for index in object.keys.indices.reversed() {
                        work.append((.value(object.values[index]), depth + 1))
                        let separator = index > 0 ? "," : ""
                        work.append(
                            (.text(separator + "\n" + pad + quoted(object.keys[index]) + ": "), depth))
                    }
                case .array: output += "[]"
                case .object: output += "{}"
                default: writeScalar(value, to: &output)
                }
            }
        }
    }

    static func writeScalar(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): output += format(number)
        case .string(let text): output += quoted(text)
        case .array, .object: writeCompact(value, to: &output)
        }
    }

    /// A double as JSON: integral values keep a `.0`, non-finite ones (not JSON) print as `null`.
    static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        return String(number)
    }

    /// Whether a UTF-8 byte is written escaped in a JSON string: `"`, `\`, control characters.
    static func needsEscaping(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F }

    /// `"text"` with JSON escapes for `"`, `\` and control characters only.
    public static func quoted(_ text: String) -> String {
        var needsEscape = false
        for unit in text.utf8 where needsEscaping(unit) {
            needsEscape = true
            break
        }
        if !needsEscape { return "\"" + text + "\"" }
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
