import Net
import Testing
import Wire

extension StatusPageSuite {
    /// Home Assistant's ingress: `X-Ingress-Path` becomes the page's `<base>`, so only the
    /// gateway (an `http.allow_from` peer) may name it, and only under the ingress prefix.
    @Suite("Status page ingress")
    struct StatusPageIngressTests {
        static func base(_ response: HTTPResponse) -> String? {
            let html = String(decoding: response.body, as: UTF8.self)
            guard let start = html.firstRange(of: #"<base href=""#) else { return nil }
            return String(html[start.upperBound...].prefix { $0 != "\"" })
        }

        @Test("X-Ingress-Path is honoured only from an allow_from peer, only under /api/hassio_ingress/, never with //")
        func ingressPathFromThePeerOnly() async throws {
            try await withStatusPage(rokuHost: "127.0.9.70") { fixture in
                let response = try await PageClient(port: fixture.port).send(
                    "GET", "/", headers: [("X-Ingress-Path", "/api/hassio_ingress/abc123")])
                #expect(response.status == 200)
                #expect(Self.base(response) == nil, "a client that is no allow_from peer names no base")
            }
            try await withStatusPage(rokuHost: "127.0.9.71", allowFrom: ["127.0.0.1"]) { fixture in
                let client = PageClient(port: fixture.port)
                let good = try await client.send("GET", "/", headers: [("X-Ingress-Path", "/api/hassio_ingress/abc123")])
                #expect(Self.base(good) == "/api/hassio_ingress/abc123/")
                let refused = [
                    "//evil.example/api/hassio_ingress/abc", "/api/hassio_ingress//evil.example", "/elsewhere/abc",
                    "/api/hassio_ingress/", "/api/hassio_ingress/../../x", "/api/hassio_ingress/./x",
                    "api/hassio_ingress/abc", #"/api/hassio_ingress/x"><script>"#,
                ]
                for path in refused {
                    let response = try await client.send("GET", "/", headers: [("X-Ingress-Path", path)])
                    #expect(response.status == 200)
                    #expect(Self.base(response) == nil, "X-Ingress-Path: \(path)")
                }
            }
        }

        @Test("every answer, the page and its assets included, carries Vary and Cache-Control: no-store")
        func noStoreAndVary() async throws {
            try await withStatusPage(token: "s3cret-page-token", rokuHost: "127.0.9.72") { fixture in
                let client = PageClient(port: fixture.port)
                let bearer = ("Authorization", "Bearer s3cret-page-token")
                let answers = [
                    ("GET /", try await client.send("GET", "/")),
                    ("GET /app.js", try await client.send("GET", "/app.js")),
                    ("GET /app.css", try await client.send("GET", "/app.css")),
                    ("GET /api/state", try await client.send("GET", "/api/state", headers: [bearer])),
                    ("GET /api/state without token", try await client.send("GET", "/api/state")),
                    ("GET /nothing", try await client.send("GET", "/nothing")),
                    ("Host elsewhere", try await client.send("GET", "/", headers: [("Host", "elsewhere.example")])),
                ]
                for (what, response) in answers {
                    #expect(response.headers["Cache-Control"] == "no-store", "\(what)")
                    let vary = response.headers["Vary"] ?? ""
                    #expect(vary.contains("X-Ingress-Path") && vary.contains("Cookie"), "\(what): Vary \(vary)")
                }
            }
        }

        @Test("allow_from is compared as addresses: ::ffff:127.0.0.1 admits the peer 127.0.0.1")
        func parsedAddresses() async throws {
            try await withStatusPage(rokuHost: "127.0.9.73", allowFrom: ["::ffff:127.0.0.1"]) { fixture in
                let response = try await PageClient(port: fixture.port).send(
                    "GET", "/", headers: [("X-Ingress-Path", "/api/hassio_ingress/abc")])
                #expect(response.status == 200)
                #expect(Self.base(response) == "/api/hassio_ingress/abc/")
            }
        }
    }
}
