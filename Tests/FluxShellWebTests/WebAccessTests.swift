import NIOHTTP1
import Testing

@testable import FluxShellWeb

/// Who may have the page and its socket: the loopback names on the server's port, the printed
/// token, and the page's own origin; everything else refused with its reason.
struct WebAccessTests {
    let access = WebAccess(port: 8765, token: "ab12cd34")

    func request(
        _ uri: String, host: String? = "127.0.0.1:8765", origin: String? = nil, method: HTTPMethod = .GET
    ) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        if let host { headers.add(name: "Host", value: host) }
        if let origin { headers.add(name: "Origin", value: origin) }
        return HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: headers)
    }

    @Test func thePageAndItsSocketWithTheTokenFromThePage() {
        #expect(access.check(request("/?token=ab12cd34")) == .page)
        #expect(access.check(request("/?token=ab12cd34", host: "localhost:8765")) == .page)
        #expect(access.check(request("/?token=ab12cd34", host: "LOCALHOST:8765")) == .page)
        #expect(
            access.check(request("/socket?token=ab12cd34", origin: "http://127.0.0.1:8765")) == .socket)
        #expect(
            access.check(request("/socket?token=ab12cd34&x=1", host: "localhost:8765", origin: "http://localhost:8765"))
                == .socket)
    }

    @Test func anotherNameForTheMachineIsRefused() {
        // A name that resolves to 127.0.0.1 (DNS rebinding) is not the page's.
        for host in ["attacker.example:8765", "127.0.0.1:9999", "127.0.0.1"] {
            #expect(
                access.check(request("/?token=ab12cd34", host: host))
                    == .refused(.forbidden, "refused: the page is served as http://127.0.0.1:8765/ only"))
        }
        #expect(access.check(request("/?token=ab12cd34", host: nil)) != .page)
    }

    @Test func anotherSitesScriptIsRefused() {
        #expect(
            access.check(request("/socket?token=ab12cd34", origin: "http://attacker.example"))
                == .refused(.forbidden, "refused: a request from another site (http://attacker.example)"))
        #expect(
            access.check(request("/socket?token=ab12cd34"))
                == .refused(.forbidden, "refused: no origin"))
    }

    @Test func aMissingOrWrongTokenIsRefused() {
        let refused = WebAccess.Decision.refused(.forbidden, "refused: the address's token is missing or wrong")
        #expect(access.check(request("/")) == refused)
        #expect(access.check(request("/?token=")) == refused)
        #expect(access.check(request("/?token=ab12cd35")) == refused)
        #expect(access.check(request("/?token=ab12cd34x")) == refused)
        #expect(access.check(request("/?other=ab12cd34")) == refused)
    }

    @Test func otherPathsAndMethodsAreRefused() {
        #expect(access.check(request("/index.html?token=ab12cd34")) == .refused(.notFound, "not found"))
        #expect(
            access.check(request("/?token=ab12cd34", method: .POST))
                == .refused(.methodNotAllowed, "only GET is served"))
    }

    @Test func theQueryIsSplitIntoItsValues() {
        let (path, query) = WebAccess.split("/socket?token=ab&empty=&flag")
        #expect(path == "/socket")
        #expect(query == ["token": "ab", "empty": "", "flag": ""])
        #expect(WebAccess.split("/").query.isEmpty)
    }
}
