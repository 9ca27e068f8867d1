import Bridge
import Net
import StatusPage
import Testing
import Wire

extension StatusPageSuite {
    /// Pair, remove and add through the page: the bridge's own request handlers.
    @Suite("Status page requests")
    struct StatusPageRequestTests {
        @Test("a Samsung is paired from the page: the TV is asked, accepts, and the page says paired")
        func pairSamsung() async throws {
            try await withStatusPage(tv: try await PageTV.samsung("127.0.9.30")) { fixture in
                let client = PageClient(port: fixture.port)
                let before = try await StatusPageAPITests().waitForTV(fixture)
                #expect(before?["pairing"] == "not_paired")
                #expect(before?["capabilities"]?["pairing"] == true)
                let response = try await client.send("POST", "/api/tv/living_room/pair")
                #expect(response.status == 202, "\(String(decoding: response.body, as: UTF8.self))")
                let pairings = fixture.log.entries.filter { $0["kind"] == "pairing" && $0["result"] == "accepted" }
                #expect(!pairings.isEmpty)
                let after = try await client.state()["tvs"]?.arrayValue?.first { $0["id"] == "living_room" }
                #expect(after?["pairing"] == "paired")
                let text = String(decoding: try await client.send("GET", "/api/state").body, as: UTF8.self)
                for token in fixture.tv.samsung?.issuedTokens ?? [] {
                    #expect(!text.contains(token), "the Samsung token never reaches the page")
                }
            }
        }

        @Test("rename and remove reach open event streams; remove takes the TV off the page; add puts it back")
        func removeAndAdd() async throws {
            try await withStatusPage(rokuHost: "127.0.9.31") { fixture in
                let client = PageClient(port: fixture.port)
                _ = try #require(try await StatusPageAPITests().waitForTV(fixture))
                let stream = try await EventStreamReader(client)
                defer { stream.close() }
                #expect(await stream.waitFor("retry:", timeout: .seconds(30)))
                // A rename (here through the bridge's request, as MQTT's tv/rename) reaches the page.
                let rename = JSONValue.object(["id": .string(fixture.tvID), "name": "Den TV"]).serializedBytes()
                _ = await fixture.bridge.submitRequest("tv/rename", payload: rename, from: .statusPage("127.0.0.1"))
                #expect(await stream.waitFor(#""name":"Den TV""#, timeout: .seconds(30)))
                let removed = try await client.send("POST", "/api/tv/\(fixture.tvID)/remove")
                #expect(removed.status == 202)
                #expect(await stream.waitFor(#""removed":true"#, timeout: .seconds(30)))
                let listed = try await client.state()["tvs"]?.arrayValue ?? []
                #expect(listed.isEmpty)
                let unknown = try await client.send("POST", "/api/tv/\(fixture.tvID)/remove")
                #expect(unknown.status == 400)
                #expect(try JSONParser.parse(unknown.body)["error"]?.stringValue?.hasPrefix("unknown TV") == true)
                let body = JSONValue.object([
                    "host": .string("127.0.9.31:\(fixture.roku.port)"), "kind": "roku",
                ]).serializedBytes()
                let added = try await client.send("POST", "/api/tv/add", body: body)
                #expect(added.status == 202, "\(String(decoding: added.body, as: UTF8.self))")
                #expect(try await StatusPageAPITests().waitForTV(fixture) != nil)
            }
        }
    }
}
