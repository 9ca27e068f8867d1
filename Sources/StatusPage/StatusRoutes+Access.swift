import Clients
import Net
import Wire

/// Who may do what: the token (header or cookie) for `api/*`, the same origin for every POST.
extension StatusRoutes {
    /// The status and reason a request is refused with, or nil. `GET /` and the assets need no
    /// token (the page shows its login form on a 401); `login` needs none either.
    func refusal(_ request: HTTPRequest, path: Substring) -> (Int, String)? {
        if request.method == "POST", let why = crossOrigin(request) { return (403, why) }
        if path.hasPrefix("api/") && !authorized(request) {
            return (401, "this page needs its token (http.token): log in, or send Authorization: Bearer")
        }
        return nil
    }

    /// Whether the request carries the token, as a bearer header or the login cookie.
    func authorized(_ request: HTTPRequest) -> Bool {
        guard let sessionValue else { return true }
        if let header = request.headers["Authorization"], header.hasPrefix("Bearer ") {
            return Self.constantTimeEqual(String(header.dropFirst("Bearer ".count)), settings.token)
        }
        for field in request.headers.values(for: "Cookie") {
            for pair in field.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard trimmed.hasPrefix(Self.cookieName + "=") else { continue }
                if Self.constantTimeEqual(String(trimmed.dropFirst(Self.cookieName.count + 1)), sessionValue) {
                    return true
                }
            }
        }
        return false
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

    /// `POST login` with the form field `token`: the cookie when it is right, 401 when not,
    /// after `StatusPageLimits.wrongTokenDelay`, so guessing is slow (each guess holds one of
    /// the few connections).
    func login(_ request: HTTPRequest) async -> HTTPResponse {
        guard let sessionValue else { return Self.json(200, ["ok": true]) }
        let form = String(decoding: request.body, as: UTF8.self)
        var token: String?
        for pair in form.split(separator: "&") where pair.hasPrefix("token=") {
            token = try? PercentEncoding.decodeQueryComponent(pair.dropFirst("token=".count))
        }
        guard let token, Self.constantTimeEqual(token, settings.token) else {
            logger.info("status page login refused: wrong token")
            try? await EventLoop.sleep(for: StatusPageLimits.wrongTokenDelay)
            return Self.json(401, ["error": "wrong token"])
        }
        var response = Self.json(200, ["ok": true])
        response.headers.add(name: "Set-Cookie", value: Self.cookie(sessionValue))
        return response
    }

    static let cookieName = "tv2mqtt_token"

    /// No `Path`: it defaults to where `login` was posted, the page's own directory behind any
    /// proxy. An empty value with `Max-Age=0` logs out.
    static func cookie(_ value: String) -> String {
        "\(cookieName)=\(value); HttpOnly; SameSite=Strict" + (value.isEmpty ? "; Max-Age=0" : "")
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
