import Net
import StatusPage
import Testing
import Wire

extension StatusPageSuite {
    /// The login cookie: a random session per login, held by the bridge, ended by logout,
    /// `Secure` when the page was reached over HTTPS through the allowed proxy.
    @Suite("Status page sessions")
    struct StatusPageSessionTests {
        static let token = "s3cret-page-token"

        /// A logged-out cookie is a wrong token: no delay here (`TokenFailuresTests` times it).
        static var limits: StatusPageLimits {
            var limits = StatusPageLimits()
            limits.wrongTokenDelay = .zero
            return limits
        }

        static func login(_ client: PageClient, headers: [(String, String)] = []) async throws -> (String, String) {
            let response = try await client.send("POST", "/login", headers: headers, body: Array("token=\(token)".utf8))
            let cookie = try #require(response.headers["Set-Cookie"])
            let pair = try #require(cookie.split(separator: ";").first.map(String.init))
            return (cookie, pair)
        }

        @Test("each login gets its own session; logout ends it, so its cookie no longer passes")
        func logout() async throws {
            try await withStatusPage(token: Self.token, rokuHost: "127.0.9.44", limits: Self.limits) { fixture in
                let client = PageClient(port: fixture.port)
                let (firstCookie, first) = try await Self.login(client)
                let (_, second) = try await Self.login(client)
                #expect(first != second, "a random session per login, not a digest of the token")
                #expect(!firstCookie.contains("Secure"), "reached over plain HTTP")
                #expect(try await client.send("GET", "/api/state", headers: [("Cookie", first)]).status == 200)
                let out = try await client.send("POST", "/logout", headers: [("Cookie", first)])
                #expect(out.status == 200)
                #expect(try await client.send("GET", "/api/state", headers: [("Cookie", first)]).status == 401)
                #expect(try await client.send("GET", "/api/state", headers: [("Cookie", second)]).status == 200)
            }
        }

        @Test("the cookie is Secure when the allowed proxy says the page came over HTTPS")
        func secure() async throws {
            try await withStatusPage(token: Self.token, rokuHost: "127.0.9.45", allowFrom: ["127.0.0.1"]) { fixture in
                let client = PageClient(port: fixture.port)
                let (overHTTPS, _) = try await Self.login(client, headers: [("X-Forwarded-Proto", "https")])
                #expect(overHTTPS.contains("; Secure"))
                let (plain, _) = try await Self.login(client)
                #expect(!plain.contains("Secure"))
            }
            try await withStatusPage(token: Self.token, rokuHost: "127.0.9.46") { fixture in
                // Not from an allowed proxy: the header is the client's own word.
                let (cookie, _) = try await Self.login(
                    PageClient(port: fixture.port), headers: [("X-Forwarded-Proto", "https")])
                #expect(!cookie.contains("Secure"))
            }
        }
    }
}
