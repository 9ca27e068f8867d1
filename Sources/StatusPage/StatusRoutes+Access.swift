import Clients
import Net
import Wire

/// Who may do what: the token (header or cookie) for `api/*`, the same origin for every POST.
extension StatusRoutes {
    /// What the access checks make of a request (`access`).
    enum Access: Equatable {
        case allowed
        case refused(status: Int, why: String, closes: Bool)
        /// A wrong token: counted, delayed, then 401 (`refuseWrongToken`).
        case wrongToken(via: String)
    }

    /// What a request's token (header or cookie) is: none, the right one, or a wrong one.
    enum Credential: Equatable {
        case none, valid
        case wrong(via: String)
    }

    /// The checks every `api/*` request and every POST passes: the same origin for a POST, the
    /// token for `api/*`, and the source's failure budget for any request carrying a token,
    /// the right one too (else the right token would still be told apart at once). `GET /`
    /// and the assets need no token (the page shows its login form on a 401).
    func access(_ request: HTTPRequest, path: Substring, from remote: SocketAddress) -> Access {
        if request.method == "POST", let why = crossOrigin(request) {
            return .refused(status: 403, why: why, closes: false)
        }
        guard path.hasPrefix("api/") else { return .allowed }
        // Another site's page may not read the page's data or take its event streams (GETs
        // included; a link to `GET /` from elsewhere still opens the page).
        if let site = request.headers["Sec-Fetch-Site"], site == "cross-site" || site == "same-site" {
            return .refused(status: 403, why: "a request from another site (Sec-Fetch-Site: \(site))", closes: false)
        }
        let credential = credential(request)
        if !settings.token.isEmpty, credential != .none, failures.isSpent(by: remote.ip) {
            return .refused(status: 429, why: Self.budgetSpent, closes: true)
        }
        switch credential {
        case .valid: return .allowed
        case .wrong(let via): return .wrongToken(via: via)
        case .none:
            return .refused(
                status: 401, why: "this page needs its token (http.token): log in, or send Authorization: Bearer",
                closes: false)
        }
    }

    static let budgetSpent = "too many wrong tokens from this address: try again in a minute"

    /// A refusal's answer: `{"error": why}`, closing the connection when `closes`.
    static func refusedResponse(_ status: Int, _ why: String, closes: Bool) -> HTTPResponse {
        var response = json(status, ["error": .string(why)])
        if closes { response.headers.set(name: "Connection", value: "close") }
        return response
    }

    /// Counts a wrong token against its source, waits the delay every wrong token waits, and
    /// says so in the log once per source and window.
    func refuseWrongToken(via: String, from remote: SocketAddress) async -> HTTPResponse {
        if await failures.fail(from: remote.ip) == 1 {
            logger.warning(
                "a wrong status page token was sent",
                [
                    ("from", remote.ip), ("via", via),
                    ("budget", "\(limits.tokenFailureBudget) per \(limits.tokenFailureWindow.components.seconds) s"),
                ])
        }
        return Self.refusedResponse(401, "wrong token", closes: true)
    }

    /// The token a request carries, as a bearer header or the login cookie.
    func credential(_ request: HTTPRequest) -> Credential {
        if settings.token.isEmpty { return .valid }
        if let header = request.headers["Authorization"], header.hasPrefix("Bearer ") {
            return Self.constantTimeEqual(String(header.dropFirst("Bearer ".count)), settings.token)
                ? .valid : .wrong(via: "bearer")
        }
        let sent = Self.sessionCookies(request)
        if sent.contains(where: sessions.isValid) { return .valid }
        return sent.isEmpty ? .none : .wrong(via: "cookie")
    }

    /// The session ids the request's `tv2mqtt_session` cookies hold.
    static func sessionCookies(_ request: HTTPRequest) -> [String] {
        var ids: [String] = []
        for field in request.headers.values(for: "Cookie") {
            for pair in field.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                if trimmed.hasPrefix(cookieName + "=") { ids.append(String(trimmed.dropFirst(cookieName.count + 1))) }
            }
        }
        return ids
    }

    /// Why a POST is not from the page's own origin, or nil when it is: `Sec-Fetch-Site` is
    /// `same-origin` or `none` (typed by the user), or else `Origin` names the `Host` asked for
    /// (or the one a proxy forwarded). A POST with neither is refused: browsers send one.
    func crossOrigin(_ request: HTTPRequest) -> String? {
        if let site = request.headers["Sec-Fetch-Site"] {
            return site == "same-origin" || site == "none"
                ? nil : "a request from another site (Sec-Fetch-Site: \(site.prefix(32)))"
        }
        guard let origin = request.headers["Origin"] else {
            return "a POST needs Origin or Sec-Fetch-Site (same origin only)"
        }
        let authority = origin.split(separator: "://", maxSplits: 1).dropFirst().first.map(String.init)
        let hosts = [request.headers["Host"], request.headers["X-Forwarded-Host"]].compactMap { $0?.lowercased() }
        guard let authority, hosts.contains(authority.lowercased()) else {
            return "a request from another origin (\(origin.prefix(64)))"
        }
        return nil
    }

    /// `POST login` with the form field `token`: the cookie when it is right; a wrong one
    /// spends the source's failure budget like any wrong token (`refuseWrongToken`).
    func login(_ request: HTTPRequest, from remote: SocketAddress) async -> HTTPResponse {
        if settings.token.isEmpty { return Self.json(200, ["ok": true]) }
        if failures.isSpent(by: remote.ip) { return Self.refusedResponse(429, Self.budgetSpent, closes: true) }
        let form = String(decoding: request.body, as: UTF8.self)
        var token: String?
        for pair in form.split(separator: "&") where pair.hasPrefix("token=") {
            token = try? PercentEncoding.decodeQueryComponent(pair.dropFirst("token=".count))
        }
        guard let token, Self.constantTimeEqual(token, settings.token) else {
            return await refuseWrongToken(via: "login", from: remote)
        }
        var response = Self.json(200, ["ok": true])
        response.headers.add(
            name: "Set-Cookie",
            value: cookie(sessions.create(), maxAge: limits.sessionLifetime, secure: isHTTPS(request, from: remote)))
        return response
    }

    /// `POST logout`: its sessions end here, and the browser is told to forget the cookie.
    func logout(_ request: HTTPRequest, from remote: SocketAddress) -> HTTPResponse {
        for id in Self.sessionCookies(request) { sessions.remove(id) }
        var response = Self.json(200, ["ok": true])
        response.headers.add(
            name: "Set-Cookie", value: cookie("", maxAge: .zero, secure: isHTTPS(request, from: remote)))
        return response
    }

    static let cookieName = "tv2mqtt_session"

    /// No `Path`: it defaults to where `login` was posted, the page's own directory behind any
    /// proxy. An empty value with `Max-Age=0` logs out.
    func cookie(_ value: String, maxAge: Duration, secure: Bool) -> String {
        "\(Self.cookieName)=\(value); HttpOnly; SameSite=Strict; Max-Age=\(maxAge.components.seconds)"
            + (secure ? "; Secure" : "")
    }

    /// Whether the browser reached the page over HTTPS: said by `X-Forwarded-Proto` from an
    /// `http.allow_from` proxy only; from anyone else the header is the client's own word.
    func isHTTPS(_ request: HTTPRequest, from remote: SocketAddress) -> Bool {
        isAllowedPeer(remote) && request.headers["X-Forwarded-Proto"]?.lowercased() == "https"
    }

    /// Compares without returning early, so the time taken says nothing about the token.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0 && x.count == y.count
    }
}
