import FluxShell
import Testing

@testable import FluxShellRemote

/// The pairing code as `fluxsh listen` prints it and an app's agent reads it: read back whole,
/// and every malformed code refused with the column of what is wrong.
struct PairingCodeTests {
    static let token = (0..<16).map { UInt8($0 * 7) }
    static let fingerprint = (0..<32).map { UInt8(255 - $0) }
    static let secret = Hex.encode(token + fingerprint)

    @Test func aCodeReadsBackAsPrinted() throws {
        let code = PairingCode(host: "192.168.1.20", port: 40_123, token: Self.token, fingerprint: Self.fingerprint)
        #expect(code.text == "fluxsh://192.168.1.20:40123#\(Self.secret)")
        #expect(try PairingCode(parsing: code.text) == code)
        let named = PairingCode(host: "mac.local", port: 9, token: Self.token, fingerprint: Self.fingerprint)
        #expect(try PairingCode(parsing: named.text) == named)
    }

    @Test func anIPv6HostIsInBrackets() throws {
        let code = PairingCode(host: "fe80::1", port: 5_000, token: Self.token, fingerprint: Self.fingerprint)
        #expect(code.text.hasPrefix("fluxsh://[fe80::1]:5000#"))
        #expect(code.address == "[fe80::1]:5000")
        #expect(try PairingCode(parsing: code.text) == code)
    }

    @Test func spacesAndLineBreaksAroundTheCodeAreIgnored() throws {
        let text = "fluxsh://127.0.0.1:4000#\(Self.secret)"
        #expect(try PairingCode(parsing: "  \(text)\n").port == 4_000)
        #expect(try PairingCode(parsing: "\t\(text) \r\n").token == Self.token)
    }

    @Test(arguments: [
        ("", 1, "the code is empty"),
        ("   \n", 1, "the code is empty"),
        ("http://127.0.0.1:4000#\(secret)", 1, "does not begin with fluxsh://"),
        ("fluxsh://127.0.0.1:4000 #\(secret)", 24, "a space or line break inside the code"),
        ("fluxsh://127.0.0.1:4000#\(secret.prefix(40))\n\(secret.dropFirst(40))", 65, "a space or line break inside"),
        ("fluxsh://:4000#\(secret)", 10, "the host is missing"),
        ("fluxsh://my_mac:4000#\(secret)", 12, "'_' cannot be in a host name"),
        ("fluxsh://127.0.0.1#\(secret)", 19, "the port is missing"),
        ("fluxsh://127.0.0.1:0#\(secret)", 20, "the port is not a number from 1 to 65535"),
        ("fluxsh://127.0.0.1:70000#\(secret)", 20, "the port is not a number"),
        ("fluxsh://127.0.0.1:40x0#\(secret)", 20, "the port is not a number"),
        ("fluxsh://127.0.0.1:4000", 24, "the secret is missing"),
        ("fluxsh://127.0.0.1:4000#\(secret.dropLast(2))", 119, "the secret has 94 digits, not 96"),
        ("fluxsh://127.0.0.1:4000#\(secret)00", 121, "the secret has 98 digits, not 96"),
        (
            "fluxsh://127.0.0.1:4000#\(secret.prefix(10))g\(secret.dropFirst(11))", 35,
            "'g', which is not a hexadecimal digit"
        ),
        ("fluxsh://[::1:4000#\(secret)", 10, "without its closing ]"),
    ])
    func aMalformedCodeIsRefusedAtItsColumn(text: String, column: Int, problem: String) {
        #expect {
            _ = try PairingCode(parsing: text)
        } throws: { error in
            guard let error = error as? ShellError else { return false }
            return error.message.hasPrefix("pairing code, column \(column): ") && error.message.contains(problem)
                && error.hint?.contains("fluxsh://HOST:PORT#SECRET") == true
        }
    }

    @Test func hexadecimalReadsBackAndTakesBothCases() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(Hex.decode(Array(Hex.encode(bytes).unicodeScalars)[...]) == bytes)
        #expect(Hex.decode(Array("AbCd".unicodeScalars)[...]) == [0xAB, 0xCD])
    }

    @Test func anAppsPairingLineIsReadBackAndNothingElseIs() {
        let line = PairingWire.request(token: Self.token, app: "notes")
        let read = PairingWire.parseRequest(Array(line.utf8)[...])
        #expect(read?.token == Self.token)
        #expect(read?.app == "notes")
        for other in [
            #"{"pair":"00","app":"notes"}"#, #"{"pair":"\#(Hex.encode(Self.token))"}"#,
            #"{"pair":"\#(Hex.encode(Self.token))","app":"notes","more":1}"#, "GET / HTTP/1.1", "",
        ] {
            #expect(PairingWire.parseRequest(Array(other.utf8)[...]) == nil, "\(other)")
        }
        #expect(PairingWire.parseAnswer(Array(PairingWire.paired("notes").utf8)[...]) == .paired)
        #expect(PairingWire.parseAnswer(Array(#"{"bye":"refused: no"}"#.utf8)[...]) == .refused("refused: no"))
        #expect(PairingWire.parseAnswer(Array(#"{"attached":"x"}"#.utf8)[...]) == .garbled)
    }

    @Test func tokensAreComparedWhole() {
        #expect(PairingWire.sameToken(Self.token, Self.token))
        #expect(!PairingWire.sameToken(Self.token, Self.token.dropLast() + [0]))
        #expect(!PairingWire.sameToken(Self.token, Array(Self.token.dropLast())))
    }

    @Test func theAgentWaitsLongerAfterEachFailureUpTo30Seconds() {
        let first = PairingDialer.backoff(afterFailures: 1).nanoseconds / 1_000_000
        #expect((400...600).contains(first))
        let third = PairingDialer.backoff(afterFailures: 3).nanoseconds / 1_000_000
        #expect((1_600...2_400).contains(third))
        for failures in [7, 8, 50, 10_000] {
            let delay = PairingDialer.backoff(afterFailures: failures).nanoseconds / 1_000_000
            #expect((24_000...36_000).contains(delay), "\(failures) failures: \(delay) ms")
        }
    }

    @Test func aCertificateIsMadeForEachRunAndItsFingerprintIsItsDigest() throws {
        let one = try RunCertificate.make()
        let other = try RunCertificate.make()
        #expect(one.fingerprint.count == 32)
        #expect(one.fingerprint != other.fingerprint)
        #expect(RunCertificate.fingerprint(of: try one.certificate.toDERBytes()) == one.fingerprint)
        // SHA-256 of "abc", as FIPS 180-2 gives it.
        #expect(
            Hex.encode(RunCertificate.fingerprint(of: Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
