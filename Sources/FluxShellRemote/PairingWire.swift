import FluxShell
import NIOCore

/// The two lines an app and `fluxsh listen` exchange inside TLS before the session's lines of the
/// attach protocol: the app's `{"pair":TOKEN,"app":NAME}`, and the listener's `{"paired":NAME}` or
/// a `{"bye":REASON}` that refuses it.
enum PairingWire {
    /// The longest line either side reads before the session: a peer that sends more is refused.
    static let lineLimit = 1_024
    /// How long a peer has, from its connection, to finish TLS and its pairing line.
    static let deadline = TimeAmount.seconds(10)

    /// The app's line: its token in hexadecimal, and its name.
    static func request(token: [UInt8], app: String) -> String {
        JSONText.compact(.object(JSONObject([("pair", .string(Hex.encode(token))), ("app", .string(app))])))
    }

    /// The token and name of an app's line; nil for anything else.
    static func parseRequest(_ line: ArraySlice<UInt8>) -> (token: [UInt8], app: String)? {
        guard case .object(let object)? = try? JSONParser.parse(line), object.count == 2,
            case .string(let hex)? = object["pair"], case .string(let app)? = object["app"],
            hex.unicodeScalars.count == 2 * PairingCode.tokenSize,
            hex.unicodeScalars.allSatisfy({ Hex.value($0) != nil })
        else { return nil }
        return (Hex.decode(Array(hex.unicodeScalars)[...]), app)
    }

    /// The listener's answer to an app it serves.
    static func paired(_ app: String) -> String {
        JSONText.compact(.object(JSONObject([("paired", .string(app))])))
    }

    /// The listener's answer: paired, refused with a reason, or not an answer at all.
    enum Answer: Equatable {
        case paired
        case refused(String)
        case garbled
    }

    static func parseAnswer(_ line: ArraySlice<UInt8>) -> Answer {
        guard case .object(let object)? = try? JSONParser.parse(line), object.count == 1 else { return .garbled }
        if case .string? = object["paired"] { return .paired }
        if case .string(let reason)? = object["bye"] { return .refused(reason) }
        return .garbled
    }

    /// Whether two tokens are the same, in a time that does not depend on where they differ.
    static func sameToken(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The first line a peer sends, gathered from what it sends in pieces; what follows the line is
/// kept for the session.
struct FirstLine {
    private var bytes: [UInt8] = []

    enum Progress {
        /// No whole line yet.
        case waiting
        /// The line, without its newline, and what came after it.
        case line(ArraySlice<UInt8>, rest: ByteBuffer)
        /// Over ``PairingWire/lineLimit`` bytes without a newline.
        case tooLong
    }

    /// NB: keeps at most the limit and one byte: a peer that sends more is refused with what it sent
    /// dropped.
    mutating func take(_ buffer: inout ByteBuffer) -> Progress {
        let readable = buffer.readableBytesView
        let newline = readable.firstIndex(of: 0x0A)
        let end = newline ?? readable.endIndex
        let room = PairingWire.lineLimit + 1 - bytes.count
        bytes.append(contentsOf: readable[..<min(end, readable.startIndex + max(0, room))])
        guard bytes.count <= PairingWire.lineLimit else { return .tooLong }
        guard let newline else {
            buffer.moveReaderIndex(forwardBy: readable.count)
            return .waiting
        }
        buffer.moveReaderIndex(forwardBy: newline - readable.startIndex + 1)
        return .line(bytes[...], rest: buffer)
    }
}

/// Closing a TLS connection: TLS ends with each side's `close_notify`, and a connection that reads
/// only when asked (`autoRead` off, as these are while they pair) does not read the peer's, so its
/// close waits this long: 1 s, where swift-nio-ssl waits 5 s by default.
enum TLSClosing {
    static let timeout = TimeAmount.seconds(1)
}
