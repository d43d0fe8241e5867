import FluxShell

/// What `fluxsh listen` prints and an app's agent dials: `fluxsh://HOST:PORT#SECRET`
/// (reference: "Attaching across hosts").
///
/// SECRET is 96 hexadecimal digits: the one-session token (16 bytes), then the SHA-256 fingerprint
/// of the certificate the listener made for its run (32 bytes). HOST is an IPv4 address, a name,
/// or an IPv6 address in brackets.
package struct PairingCode: Sendable, Equatable {
    static let scheme = "fluxsh://"
    static let tokenSize = 16
    static let fingerprintSize = 32

    package let host: String
    package let port: Int
    package let token: [UInt8]
    package let fingerprint: [UInt8]

    package init(host: String, port: Int, token: [UInt8], fingerprint: [UInt8]) {
        self.host = host
        self.port = port
        self.token = token
        self.fingerprint = fingerprint
    }

    /// The code as printed: one line.
    package var text: String {
        "\(Self.scheme)\(address)#\(Hex.encode(token))\(Hex.encode(fingerprint))"
    }

    /// `HOST:PORT`, for the agent's messages.
    package var address: String { Self.address(host: host, port: port) }

    /// `HOST:PORT`, an IPv6 host in brackets.
    static func address(host: String, port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Reads a code as `fluxsh listen` printed it; spaces and newlines around it are ignored.
    ///
    /// - Throws: ``ShellError`` naming the column (of the code without what surrounds it) and
    ///   what is wrong there.
    package init(parsing given: String) throws(ShellError) {
        let text = Array(
            given.unicodeScalars.drop(while: \.properties.isWhitespace).reversed()
                .drop(while: \.properties.isWhitespace).reversed())
        func fail(_ column: Int, _ problem: String) -> ShellError {
            ShellError(
                "pairing code, column \(column): \(problem)",
                hint: "pass the line fluxsh listen printed, whole, as it is: fluxsh://HOST:PORT#SECRET")
        }
        if text.isEmpty { throw fail(1, "the code is empty") }
        if let space = text.firstIndex(where: \.properties.isWhitespace) {
            throw fail(space + 1, "a space or line break inside the code")
        }
        let scheme = Array(Self.scheme.unicodeScalars)
        guard text.starts(with: scheme) else { throw fail(1, "it does not begin with \(Self.scheme)") }
        var index = scheme.count
        let host: String
        if index < text.count, text[index] == "[" {
            guard let close = text[index...].firstIndex(of: "]") else {
                throw fail(index + 1, "an IPv6 address without its closing ]")
            }
            host = String(String.UnicodeScalarView(text[(index + 1)..<close]))
            guard !host.isEmpty, host.unicodeScalars.allSatisfy({ $0 == ":" || $0 == "." || Hex.value($0) != nil })
            else { throw fail(index + 2, "not an IPv6 address") }
            index = close + 1
        } else {
            let end = text[index...].firstIndex { $0 == ":" || $0 == "#" } ?? text.count
            host = String(String.UnicodeScalarView(text[index..<end]))
            guard !host.isEmpty else { throw fail(index + 1, "the host is missing") }
            if let bad = host.unicodeScalars.firstIndex(where: { !Self.isHostCharacter($0) }) {
                throw fail(
                    index + host.unicodeScalars.distance(from: host.unicodeScalars.startIndex, to: bad) + 1,
                    "'\(host.unicodeScalars[bad])' cannot be in a host name")
            }
            index = end
        }
        guard index < text.count, text[index] == ":" else { throw fail(index + 1, "the port is missing (:PORT)") }
        index += 1
        let portEnd = text[index...].firstIndex(of: "#") ?? text.count
        let digits = text[index..<portEnd]
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ ("0"..."9").contains($0) }),
            let port = Int(String(String.UnicodeScalarView(digits))), (1...65_535).contains(port)
        else { throw fail(index + 1, "the port is not a number from 1 to 65535") }
        index = portEnd
        guard index < text.count else { throw fail(index + 1, "the secret is missing (#SECRET)") }
        index += 1
        let secret = text[index...]
        let size = 2 * (Self.tokenSize + Self.fingerprintSize)
        if let bad = secret.firstIndex(where: { Hex.value($0) == nil }) {
            throw fail(bad + 1, "the secret has '\(text[bad])', which is not a hexadecimal digit")
        }
        guard secret.count == size else {
            throw fail(
                index + min(secret.count, size) + 1,
                "the secret has \(secret.count) digits, not \(size) (was the code cut short?)")
        }
        let bytes = Hex.decode(secret)
        self.init(
            host: host, port: port, token: Array(bytes.prefix(Self.tokenSize)),
            fingerprint: Array(bytes.suffix(Self.fingerprintSize)))
    }

    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "." || scalar == "-"
    }
}

/// Bytes as lowercase hexadecimal digits, and back.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var text = String.UnicodeScalarView()
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(text)
    }

    static func value(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 48)
        case "a"..."f": UInt8(scalar.value - 87)
        case "A"..."F": UInt8(scalar.value - 55)
        default: nil
        }
    }

    /// The bytes of an even number of hexadecimal digits (checked by the caller).
    static func decode(_ digits: ArraySlice<Unicode.Scalar>) -> [UInt8] {
        stride(from: digits.startIndex, to: digits.endIndex, by: 2).map { index in
            value(digits[index])! << 4 | value(digits[index + 1])!
        }
    }
}
