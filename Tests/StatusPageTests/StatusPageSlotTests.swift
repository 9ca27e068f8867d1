import Net
import StatusPage
import Testing
import Wire

extension StatusPageSuite {
    /// The page's own slots: another site cannot take its event streams or connections.
    @Suite("Status page slots")
    struct StatusPageSlotTests {
        @Test("api requests another site sends (Sec-Fetch-Site cross-site or same-site) get 403, events included")
        func crossSiteAPI() async throws {
            try await withStatusPage(rokuHost: "127.0.9.47") { fixture in
                let client = PageClient(port: fixture.port)
                for site in ["cross-site", "same-site"] {
                    for path in ["/api/events", "/api/state"] {
                        let response = try await client.send("GET", path, headers: [("Sec-Fetch-Site", site)])
                        #expect(response.status == 403, "\(site) GET \(path)")
                    }
                }
                let own = try await client.send("GET", "/api/state", headers: [("Sec-Fetch-Site", "same-origin")])
                #expect(own.status == 200)
                let page = try await client.send("GET", "/", headers: [("Sec-Fetch-Site", "cross-site")])
                #expect(page.status == 200, "a link from another site still opens the page")
            }
        }

        static var perSource: StatusPageLimits {
            var limits = StatusPageLimits()
            limits.http.maxConnectionsPerSource = 2
            limits.maxEventStreamsPerSource = 1
            return limits
        }

        @Test("connections from one address beyond its share get 503; served again once they leave")
        func connectionsPerSource() async throws {
            try await withStatusPage(rokuHost: "127.0.9.48", limits: Self.perSource) { fixture in
                let client = PageClient(port: fixture.port)
                let held = [try await client.connect(), try await client.connect()]
                let refused = try await client.send("GET", "/")
                #expect(refused.status == 503)
                #expect(String(decoding: refused.body, as: UTF8.self).contains("from this address"))
                for connection in held { connection.close() }
                // The server notices the closes on its own; one generous hang bound.
                var served: HTTPResponse?
                let bound = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < bound {
                    served = try await client.send("GET", "/")
                    if served?.status == 200 { break }
                }
                #expect(served?.status == 200)
            }
        }

        @Test("event streams from one address beyond its share get 503")
        func streamsPerSource() async throws {
            try await withStatusPage(rokuHost: "127.0.9.49", limits: Self.perSource) { fixture in
                let client = PageClient(port: fixture.port)
                let stream = try await EventStreamReader(client)
                defer { stream.close() }
                let opened = await stream.waitFor("retry:", timeout: .seconds(30))
                #expect(opened)
                let second = try await client.send("GET", "/api/events")
                #expect(second.status == 503)
                #expect(String(decoding: second.body, as: UTF8.self).contains("from this address"))
            }
        }
    }
}
