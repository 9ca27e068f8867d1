import Net
import StatusPage
import Testing
import Wire

extension StatusPageSuite {
    /// Who may read and drive the page: the token, the same origin, no secret sent.
    @Suite("Status page access")
    struct StatusPageAccessTests {
        static let token = "s3cret-page-token"

        @Test("api requests without the token get 401; the bearer header and the login cookie pass")
        func token() async throws {
            try await withStatusPage(token: Self.token, rokuHost: "127.0.9.10") { fixture in
                let client = PageClient(port: fixture.port)
                #expect(try await client.send("GET", "/api/state").status == 401)
                #expect(try await client.send("GET", "/api/events").status == 401)
                let wrong = try await client.send("GET", "/api/state", headers: [("Authorization", "Bearer nope")])
                #expect(wrong.status == 401)
                let bearer = try await client.send(
                    "GET", "/api/state", headers: [("Authorization", "Bearer \(Self.token)")])
                #expect(bearer.status == 200)
                let badLogin = try await client.send("POST", "/login", body: Array("token=nope".utf8))
                #expect(badLogin.status == 401)
                let login = try await client.send("POST", "/login", body: Array("token=\(Self.token)".utf8))
                #expect(login.status == 200)
                let cookie = try #require(login.headers["Set-Cookie"])
                #expect(cookie.contains("HttpOnly"))
                #expect(cookie.contains("SameSite=Strict"))
                #expect(!cookie.contains(Self.token), "the cookie holds a digest, not the token")
                let value = try #require(cookie.split(separator: ";").first.map(String.init))
                let withCookie = try await client.send("GET", "/api/state", headers: [("Cookie", value)])
                #expect(withCookie.status == 200)
                let command = try await client.send(
                    "POST", "/api/tv/\(fixture.tvID)/set", body: Array(#"{"key":"Home"}"#.utf8))
                #expect(command.status == 401)
            }
        }

        @Test("a POST from another origin, or with no origin at all, gets 403")
        func origin() async throws {
            try await withStatusPage(rokuHost: "127.0.9.11") { fixture in
                let client = PageClient(port: fixture.port)
                let body = Array(#"{"key":"Home"}"#.utf8)
                let path = "/api/tv/\(fixture.tvID)/set"
                let other = try await client.send(
                    "POST", path, headers: [("Origin", "http://evil.example")], body: body)
                #expect(other.status == 403)
                let crossSite = try await client.send(
                    "POST", path,
                    headers: [("Sec-Fetch-Site", "cross-site"), ("Origin", "http://127.0.0.1:\(fixture.port)")],
                    body: body)
                #expect(crossSite.status == 403)
                let none = try await client.send("POST", path, body: body, sameOrigin: false)
                #expect(none.status == 403)
                let sameOrigin = try await client.send(
                    "POST", path, headers: [("Sec-Fetch-Site", "same-origin")], body: body, sameOrigin: false)
                #expect(sameOrigin.status != 403)
                let keypresses = fixture.log.entries.filter { $0["kind"] == "keypress" }
                #expect(keypresses.count <= 1, "only the same-origin POST may reach the TV")
            }
        }

        @Test("no secret reaches the browser: the page token shows only as ***")
        func noSecret() async throws {
            try await withStatusPage(token: Self.token, rokuHost: "127.0.9.12") { fixture in
                let client = PageClient(port: fixture.port)
                let state = try await client.send(
                    "GET", "/api/state", headers: [("Authorization", "Bearer \(Self.token)")])
                let text = String(decoding: state.body, as: UTF8.self)
                #expect(!text.contains(Self.token))
                #expect(try JSONParser.parse(state.body)["config"]?["http"]?["token"] == "***")
            }
        }
    }
}

extension StatusPageSuite {
    /// `http.allow_from` (the add-on's ingress gateway): other addresses are closed unanswered.
    @Suite("Status page allow_from")
    struct StatusPageAllowFromTests {
        @Test("a client not in http.allow_from is closed without an answer; a listed one is served")
        func allowFrom() async throws {
            try await withStatusPage(rokuHost: "127.0.9.13", allowFrom: ["127.0.0.99"]) { fixture in
                let client = PageClient(port: fixture.port)
                var answered: HTTPResponse?
                do {
                    answered = try await client.send("GET", "/")
                } catch {
                    answered = nil
                }
                #expect(answered == nil, "127.0.0.1 is not in allow_from")
            }
            try await withStatusPage(rokuHost: "127.0.9.14", allowFrom: ["127.0.0.1"]) { fixture in
                let page = try await PageClient(port: fixture.port).send("GET", "/")
                #expect(page.status == 200)
            }
        }
    }
}
