import FluxShellSystem

/// Renders ``JSONValue``s as UTF-8 text: compact (one line) or pretty (indented). The one writer
/// of values in the shell: diff lines, `state`, `--format json` and saved scenarios all go
/// through it.
///
/// Only `"`, `\`, control characters (C0 and C1) and the bidirectional controls are escaped in
/// strings; other characters print as themselves (`"é"`, `"✓"`).
@usableFromInline package enum JSONText {
    /// `{"count":1,"todos":[]}`
    public static func compact(_ value: JSONValue) -> String {
        var output = OutputBuffer()
        writeCompact(value, to: &output)
        return output.text
    }

    /// Two-space indented JSON, keys in the value's order.
    /// `value` on one line when it is at most `width` characters (Unicode scalars) wide, else
    /// over several, indented two spaces a level: how a terminal shows a wide value (“Printed
    /// values” in the reference).
    package static func fitting(_ value: JSONValue, width: Int) -> [String] {
        let compact = compact(value)
        guard compact.unicodeScalars.count > width else { return [compact] }
        return pretty(value).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    public static func pretty(_ value: JSONValue) -> String {
        var output = OutputBuffer()
        writePretty(value, to: &output)
        return output.text
    }

    /// `"text"` escaped as ``writeQuoted(_:to:)`` escapes it.
    public static func quoted(_ text: String) -> String {
        var output = OutputBuffer()
        writeQuoted(text, to: &output)
        return output.text
    }

    /// Appends `value` in one line.
    @inline(__always)
    @usableFromInline package static func writeCompact(_ value: JSONValue, to output: inout OutputBuffer) {
        switch value {
        case .array, .object: writeNested(value, to: &output, layout: nil)
        default: writeScalar(value, to: &output)
        }
    }

    /// Appends `value` indented by two spaces per level, starting at column `indent` levels in.
    package static func writePretty(_ value: JSONValue, indent: Int = 0, to output: inout OutputBuffer) {
        writeNested(value, to: &output, layout: indent)
    }

    /// What is left to write of a nested value: a value, or the punctuation between and after
    /// members at some depth.
    private enum Step {
        case value(JSONValue, depth: Int)
        /// `,` then, when pretty, a new line indented to `depth`.
        case separator(depth: Int)
        /// `"key":` (compact) or `"key": ` (pretty).
        case key(String)
        /// `]` or `}`, on a line of its own at `depth` when pretty.
        case close(UInt8, depth: Int)
    }

    /// NB: iterative over a work list, so a deep value cannot overflow the stack. `layout` is the
    /// starting indent for pretty output, `nil` for compact.
    private static func writeNested(_ value: JSONValue, to output: inout OutputBuffer, layout: Int?) {
        switch value {
        case .array(let elements) where !elements.isEmpty: break
        case .object(let object) where object.count > 0: break
        default: return writeScalar(value, to: &output)
        }
        let isPretty = layout != nil
        func newLine(_ depth: Int, _ output: inout OutputBuffer) {
            guard isPretty else { return }
            output.append(0x0A)
            for _ in 0..<(2 * depth) { output.append(0x20) }
        }
        var work: [Step] = [.value(value, depth: layout ?? 0)]
        while let step = work.popLast() {
            switch step {
            case .separator(let depth):
                output.append(0x2C)
                newLine(depth, &output)
            case .key(let key):
                writeQuoted(key, to: &output)
                output.append(0x3A)
                if isPretty { output.append(0x20) }
            case .close(let bracket, let depth):
                newLine(depth, &output)
                output.append(bracket)
            case .value(let value, let depth):
                switch value {
                case .array(let elements) where !elements.isEmpty:
                    output.append(0x5B)
                    newLine(depth + 1, &output)
                    work.append(.close(0x5D, depth: depth))
                    for index in elements.indices.reversed() {
                        work.append(.value(elements[index], depth: depth + 1))
                        if index > 0 { work.append(.separator(depth: depth + 1)) }
                    }
                case .object(let object) where object.count > 0:
                    output.append(0x7B)
                    newLine(depth + 1, &output)
                    work.append(.close(0x7D, depth: depth))
                    for index in object.keys.indices.reversed() {
                        work.append(.value(object.values[index], depth: depth + 1))
                        work.append(.key(object.keys[index]))
                        if index > 0 { work.append(.separator(depth: depth + 1)) }
                    }
                default:
                    writeScalar(value, to: &output)
                }
            }
        }
    }

    /// Appends a value that holds no other: a scalar, `[]` or `{}` (a nested value in one line).
    package static func writeScalar(_ value: JSONValue, to output: inout OutputBuffer) {
        switch value {
        case .null: output.append("null")
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .int(let number): output.appendDecimal(number)
        case .double(let number): output.append(format(number))
        case .number(let text): output.append(text)
        case .string(let text): writeQuoted(text, to: &output)
        case .array(let elements):
            if elements.isEmpty { output.append("[]") } else { writeCompact(value, to: &output) }
        case .object(let object):
            if object.count == 0 { output.append("{}") } else { writeCompact(value, to: &output) }
        }
    }

    /// A double as JSON: integral values keep a `.0`, non-finite ones (not JSON) print as `null`.
    package static func format(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        return String(number)
    }

    /// Whether a UTF-8 byte is written escaped in a JSON string: `"`, `\`, control characters.
    static func needsEscaping(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F }

    /// Whether `text` holds a byte written escaped, or the first two bytes of a character that is
    /// though it is not ASCII: a C1 control (`C2 80`–`C2 9F`) or a bidirectional control (`D8 9C`,
    /// `E2 80 …`, `E2 81 …`), which a terminal would obey or which would show the text reversed.
    /// `é`, `€` or `—` alone do not send a string to the slow path.
    static func needsEscaping(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if needsEscaping(byte) { return true }
            switch previous {
            case 0xC2: if byte <= 0x9F { return true }
            case 0xD8: if byte == 0x9C { return true }
            case 0xE2: if byte == 0x80 || byte == 0x81 { return true }
            default: break
            }
            previous = byte
        }
        return false
    }

    /// Whether `scalar` is written as a `\u` escape although JSON lets it stand: a C1 control
    /// (U+0080–U+009F) or a bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069).
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Appends `"text"` with JSON escapes for `"`, `\`, control characters (C0 and C1) and the
    /// bidirectional controls.
    @usableFromInline package static func writeQuoted(_ text: String, to output: inout OutputBuffer) {
        output.append(0x22)
        // NB: escapes are rare: the text is copied whole unless a byte needs one or may start a
        // character that does.
        if !needsEscaping(text) {
            output.append(text)
        } else {
            for scalar in text.unicodeScalars {
                if scalar.isASCII {
                    writeEscaping(UInt8(scalar.value), to: &output)
                } else if isHidden(scalar) {
                    output.append("\\u" as StaticString)
                    for shift in stride(from: 12, through: 0, by: -4) {
                        output.append(hexDigit(UInt8((scalar.value >> UInt32(shift)) & 0xF)))
                    }
                } else {
                    for byte in scalar.utf8 { output.append(byte) }
                }
            }
        }
        output.append(0x22)
    }

    /// Appends UTF-8 `text` as the inside of a JSON string, byte by byte: `"`, `\` and C0
    /// controls escaped (C1 and bidirectional controls stay as they are): for a signal handler, which cannot make a `String` (piped `--format json` when a
    /// store traps). Nothing is allocated but `output`'s growth.
    public static func writeEscaped(_ text: borrowing OutputBuffer, to output: inout OutputBuffer) {
        text.forEachByte { writeEscaping($0, to: &output) }
    }

    /// Appends each whole line of UTF-8 `text` (within `range` of its bytes: all of them by
    /// default) as `prefix`, the line escaped byte by byte as the inside of a JSON string (as
    /// ``writeEscaped(_:to:)`` escapes: the values in it were escaped when rendered), `suffix`
    /// and a newline; a last line without its newline is
    /// left out. For frames written straight from rendered text, with no string made for each line
    /// (an attached shell's `app`, `out` and `err` lines).
    public static func writeLines(
        of text: borrowing OutputBuffer, in range: Range<Int>? = nil, between prefix: StaticString,
        and suffix: StaticString, to output: inout OutputBuffer
    ) {
        var lineStart = output.count
        var atStart = true
        text.forEachByte(in: range) { byte in
            if atStart {
                lineStart = output.count
                output.append(prefix)
                atStart = false
            }
            if byte == 0x0A {
                output.append(suffix)
                output.append(0x0A)
                atStart = true
            } else {
                writeEscaping(byte, to: &output)
            }
        }
        if !atStart { output.removeAll(after: lineStart) }
    }

    /// Appends `byte`, escaped when it needs to be.
    @inline(__always)
    private static func writeEscaping(_ byte: UInt8, to output: inout OutputBuffer) {
        guard needsEscaping(byte) else { return output.append(byte) }
        output.append(0x5C)
        switch byte {
        case 0x22, 0x5C: output.append(byte)
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            output.append("u00" as StaticString)
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0xF))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }
}

extension JSONText {
    /// Appends `value` in one line, with a mark written in place of the value at each place
    /// `marks` names (relative to `value`): a `dispatch` argument's `$PATH`s, a pattern's `*`s.
    package static func writeCompact(
        _ value: JSONValue, marking marks: [(place: ArraySlice<ValuePath.Segment>, text: String)], to text: inout String
    ) {
        if let mark = marks.first(where: { $0.place.isEmpty }) {
            text += mark.text
            return
        }
        // The marks under `segment`, relative to it.
        func under(_ segment: ValuePath.Segment) -> [(place: ArraySlice<ValuePath.Segment>, text: String)] {
            marks.compactMap { $0.place.first == segment ? ($0.place.dropFirst(), $0.text) : nil }
        }
        switch value {
        case .array(let elements) where !marks.isEmpty:
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                writeCompact(element, marking: under(.index(index)), to: &text)
            }
            text += "]"
        case .object(let object) where !marks.isEmpty:
            text += "{"
            for (number, member) in object.members.enumerated() {
                if number > 0 { text += "," }
                text += quoted(member.key) + ":"
                writeCompact(member.value, marking: under(.key(member.key)), to: &text)
            }
            text += "}"
        default:
            text += compact(value)
        }
    }
}
