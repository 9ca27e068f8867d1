import Bridge
import Clients
import Configuration
import Net
import Support
import Wire

/// Answers the page's requests. Paths are matched relative (without the leading `/` and the
/// query), as the page asks for them from wherever it is served.
final class StatusRoutes: Sendable {
    let service: BridgeService
    let feed: StatusFeed
    let settings: BridgeConfiguration.HTTP
    let limits: StatusPageLimits
    let logger: Logger
    /// The logins' sessions, which the `tv2mqtt_session` cookie names (`Sessions`).
    let sessions: Sessions
    /// Wrong tokens per source address (`access`).
    let failures: TokenFailures
    /// `settings.allowFrom`, parsed (`isAllowedPeer`).
    let allowedPeers: Set<String>

    init(
        service: BridgeService, feed: StatusFeed, settings: BridgeConfiguration.HTTP, limits: StatusPageLimits,
        logger: Logger
    ) {
        self.service = service
        self.feed = feed
        self.settings = settings
        self.limits = limits
        self.logger = logger
        failures = TokenFailures(limits: limits)
        sessions = Sessions(limits: limits)
        allowedPeers = Self.peerSet(settings.allowFrom)
    }

    /// The request's path without its leading slashes and its query: `api/state`.
    static func path(_ request: HTTPRequest) -> Substring {
        let target = request.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return target.drop { $0 == "/" }
    }

    func handle(_ request: HTTPRequest, from remote: SocketAddress) async -> HTTPServerReply {
        let path = Self.path(request)
        if let why = misdirected(request) {
            logger.debug(
                "refused a request",
                [("from", remote.ip), ("why", "Host"), ("host", String((request.headers["Host"] ?? "").prefix(64)))])
            return HTTPServerReply(Self.json(421, ["error": .string(why)]))
        }
        switch access(request, path: path, from: remote) {
        case .allowed: break
        case .refused(let status, let why, let closes):
            logger.debug("refused a request", [("from", remote.ip), ("path", String(path.prefix(64))), ("why", why)])
            return HTTPServerReply(Self.refusedResponse(status, why, closes: closes))
        case .wrongToken(let via):
            return HTTPServerReply(await refuseWrongToken(via: via, from: remote))
        }
        switch (request.method, path) {
        case ("GET", ""), ("GET", "index.html"):
            return HTTPServerReply(page(request, from: remote))
        case ("GET", "app.css"):
            return HTTPServerReply(Self.asset(StatusPageAssets.css, type: "text/css; charset=utf-8"))
        case ("GET", "app.js"):
            return HTTPServerReply(Self.asset(StatusPageAssets.js, type: "text/javascript; charset=utf-8"))
        case ("POST", "login"):
            return HTTPServerReply(await login(request, from: remote))
        case ("POST", "logout"):
            return HTTPServerReply(logout(request, from: remote))
        case ("GET", "api/state"):
            return HTTPServerReply(Self.json(200, await state()))
        case ("GET", "api/events"):
            // Reached only when the stream was not taken over: every slot is taken.
            let why = tooManyStreams(from: remote) ?? allStreamsTaken
            return HTTPServerReply(Self.json(503, ["error": .string(why)]))
        case ("POST", _) where path.hasPrefix("api/"):
            return HTTPServerReply(await command(path.dropFirst("api/".count), body: request.body, from: remote))
        case (_, ""), (_, "index.html"), (_, "app.css"), (_, "app.js"), (_, "login"), (_, "logout"),
            (_, "api/state"), (_, "api/events"):
            var response = Self.json(405, ["error": .string("method \(request.method.prefix(16)) not allowed here")])
            response.headers.set(name: "Allow", value: path == "login" || path == "logout" ? "POST" : "GET")
            return HTTPServerReply(response)
        default:
            return HTTPServerReply(Self.json(404, ["error": "not found"]))
        }
    }

    /// `GET /`: the page, with a `<base>` naming Home Assistant's ingress path when the
    /// gateway gives one (`ingressPath`), so the page's relative URLs resolve under it even
    /// without a trailing slash.
    private func page(_ request: HTTPRequest, from remote: SocketAddress) -> HTTPResponse {
        var html = StatusPageAssets.html
        if let ingress = ingressPath(request, from: remote), let head = html.firstRange(of: "<head>") {
            let base = ingress.hasSuffix("/") ? ingress : ingress + "/"
            html.insert(contentsOf: "<base href=\"\(base)\">", at: head.upperBound)
        }
        return Self.asset(html, type: "text/html; charset=utf-8")
    }

    /// The request fields an answer depends on besides its URL.
    static let varyFields = "Host, X-Ingress-Path, Cookie, Authorization, Origin, Sec-Fetch-Site"

    static func asset(_ text: String, type: String) -> HTTPResponse {
        var response = HTTPResponse(status: 200, body: Array(text.utf8))
        response.headers.set(name: "Content-Type", value: type)
        addSecurityHeaders(&response)
        return response
    }

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        var response = HTTPResponse(status: status, body: value.serializedBytes())
        response.headers.set(name: "Content-Type", value: "application/json")
        addSecurityHeaders(&response)
        return response
    }

    /// Nothing from elsewhere: no framing by other sites, no sniffing, no referrer. Nothing
    /// kept by a cache either (`no-store`, the page included: it carries the ingress path,
    /// `api/*` what a token may read), and `Vary` names what an answer depends on, for a
    /// cache that stores anyway.
    static func addSecurityHeaders(_ response: inout HTTPResponse) {
        response.headers.set(name: "Cache-Control", value: "no-store")
        response.headers.set(name: "Vary", value: varyFields)
        response.headers.set(name: "X-Content-Type-Options", value: "nosniff")
        response.headers.set(name: "Referrer-Policy", value: "no-referrer")
        response.headers.set(
            name: "Content-Security-Policy",
            value:
                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'; base-uri 'self'; form-action 'self'"
        )
    }
}
