import Net
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
    }
}
