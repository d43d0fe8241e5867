import NIOHTTP1

/// Who may have the page and its socket: a request to 127.0.0.1 or localhost on the server's
/// port (not another name that resolves there: DNS rebinding), with the token of the printed
/// address, and, from a browser, from the page's own origin (no other site's script).
struct WebAccess: Sendable, Equatable {
    let port: Int
    let token: String

    enum Decision: Equatable {
        case page
        case socket
        case refused(HTTPResponseStatus, String)
    }

    /// What the page may load and connect to: itself, nothing else (no network, no CDN).
    static let contentPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
        + "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    func check(_ head: HTTPRequestHead) -> Decision {
        guard head.method == .GET else { return .refused(.methodNotAllowed, "only GET is served") }
        let origins = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host = head.headers.first(name: "Host"), origins.contains(host.lowercased()) else {
            return .refused(.forbidden, "refused: the page is served as http://127.0.0.1:\(port)/ only")
        }
        if let origin = head.headers.first(name: "Origin"),
            !origins.contains(where: { "http://" + $0 == origin.lowercased() })
        {
            return .refused(.forbidden, "refused: a request from another site (\(origin))")
        }
        let (path, query) = Self.split(head.uri)
        guard path == "/" || path == "/socket" else { return .refused(.notFound, "not found") }
        guard let given = query["token"], Self.same(given, token) else {
            return .refused(.forbidden, "refused: the address's token is missing or wrong")
        }
        if path == "/" { return .page }
        // NB: a browser always sends the page's origin with a WebSocket; a socket without one is
        // not from the page.
        return head.headers.first(name: "Origin") == nil ? .refused(.forbidden, "refused: no origin") : .socket
    }

    /// The path and the query's values (`/socket?token=ab12` → `/socket`, `["token": "ab12"]`).
    static func split(_ uri: String) -> (path: Substring, query: [Substring: Substring]) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri[...], [:]) }
        var query: [Substring: Substring] = [:]
        for pair in uri[uri.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[parts[0]] = parts.count == 2 ? parts[1] : ""
        }
        return (uri[..<mark], query)
    }

    /// Compares in time that does not depend on where the texts differ.
    static func same(_ given: Substring, _ token: String) -> Bool {
        let a = Array(given.utf8)
        let b = Array(token.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
