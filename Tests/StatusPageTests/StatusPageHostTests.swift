import Net
import Testing
import Wire

extension StatusPageSuite {
    /// DNS rebinding: a web page that points its own name at 127.0.0.1 reaches the page with
    /// that name as its `Host`. Only the bridge's own names are served.
    @Suite("Status page Host")
    struct StatusPageHostTests {
        static let rebound = "rebind.attacker.example"

        @Test("a request whose Host is not the bridge's own is refused with 421 and reaches no TV")
        func rebinding() async throws {
            try await withStatusPage(rokuHost: "127.0.9.40") { fixture in
                let client = PageClient(port: fixture.port)
                let host = ("Host", "\(Self.rebound):\(fixture.port)")
                for path in ["/", "/api/state", "/api/events", "/app.js"] {
                    let response = try await client.send("GET", path, headers: [host])
                    #expect(response.status == 421, "GET \(path)")
                }
                let command = try await client.send(
                    "POST", "/api/tv/\(fixture.tvID)/set",
                    headers: [
                        host, ("Origin", "http://\(Self.rebound):\(fixture.port)"), ("Sec-Fetch-Site", "same-origin"),
                    ],
                    body: Array(#"{"power":"OFF"}"#.utf8))
                #expect(command.status == 421)
                let login = try await client.send("POST", "/login", headers: [host], body: Array("token=x".utf8))
                #expect(login.status == 421)
                let keypresses = fixture.log.entries.filter { $0["kind"] == "keypress" }
                #expect(keypresses.isEmpty, "nothing reaches the TV")
            }
        }

        @Test("the listen address, localhost, 127.0.0.1 and [::1] with the port, and http.hosts are served")
        func ownNames() async throws {
            try await withStatusPage(rokuHost: "127.0.9.41", hosts: ["tv2mqtt.lan"]) { fixture in
                let client = PageClient(port: fixture.port)
                let port = fixture.port
                let served = [
                    "127.0.0.1:\(port)", "localhost:\(port)", "LocalHost:\(port)", "[::1]:\(port)", "tv2mqtt.lan",
                    "tv2mqtt.lan:443",
                ]
                for name in served {
                    let response = try await client.send("GET", "/api/state", headers: [("Host", name)])
                    #expect(response.status == 200, "Host: \(name)")
                }
                let refused = ["localhost:\(port &+ 1)", "localhost", "127.0.0.2:\(port)", "evil.tv2mqtt.lan", ""]
                for name in refused {
                    let response = try await client.send("GET", "/api/state", headers: [("Host", name)])
                    #expect(response.status == 421, "Host: \(name)")
                }
            }
        }

        @Test("an allow_from peer (ingress) is judged by its address, whatever its Host")
        func ingressPeer() async throws {
            try await withStatusPage(rokuHost: "127.0.9.42", allowFrom: ["127.0.0.1"]) { fixture in
                let response = try await PageClient(port: fixture.port).send(
                    "GET", "/",
                    headers: [("Host", "homeassistant.local:8123"), ("X-Ingress-Path", "/api/hassio_ingress/abc")])
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self).contains("/api/hassio_ingress/abc/"))
            }
        }
    }
}
