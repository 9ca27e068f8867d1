import Bridge
import Drivers
import Harness
import Net
import StatusPage
import TestSupport
import Testing
import Wire

extension StatusPageSuite {
    /// The page's data and commands over real sockets: a real mosquitto, a simulated Roku, the
    /// bridge, the status page.
    @Suite("Status page API")
    struct StatusPageAPITests {
        /// Waits until `api/state` lists the fixture's TV with a state document.
        func waitForTV(_ fixture: StatusPageFixture, headers: [(String, String)] = []) async throws -> JSONValue? {
            let client = PageClient(port: fixture.port)
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                let state = try await client.state(headers: headers)
                if let tv = state["tvs"]?.arrayValue?.first(where: { $0["id"]?.stringValue == fixture.tvID }),
                    tv["state"]?["power"] != nil
                {
                    return tv
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            return nil
        }

        @Test("api/state lists the simulated TV with its state, the bridge, the log and no secret")
        func stateListsTheTV() async throws {
            try await withStatusPage(rokuHost: "127.0.9.2") { fixture in
                let tv = try #require(try await waitForTV(fixture))
                #expect(tv["kind"] == "roku")
                #expect(tv["address"] == "127.0.9.2")
                #expect(tv["available"] == true)
                #expect(tv["capabilities"]?["apps"]?.arrayValue?.isEmpty == false)
                // The capabilities under the names the type gives them, as the state file keeps
                // them; a Roku declares no switch or select of its own.
                #expect(tv["capabilities"]?["volumeKeys"] == true && tv["capabilities"]?["channelList"] != nil)
                #expect(tv["capabilities"]?["volume_keys"] == nil)
                #expect(tv["controls"] == [])
                let state = try await PageClient(port: fixture.port).state()
                #expect(state["bridge"]?["broker"]?["connected"] == true)
                #expect(state["bridge"]?["version"]?.stringValue?.isEmpty == false)
                #expect(state["bridge"]?["broker"]?["history"]?.arrayValue?.first?["event"] == "connected")
                #expect(state["config"]?["http"]?["listen"] != nil)
                #expect((state["log"]?.arrayValue?.count ?? 0) > 0)
                #expect(state["discovery"]?["answers"] != nil)
                let kinds = state["bridge"]?["kinds"]?.arrayValue?.compactMap(\.stringValue)
                #expect(kinds == [Vendor].shipped.kindNames)
            }
        }

        @Test("a command through api/tv/<id>/set reaches the simulated TV")
        func commandReachesTheTV() async throws {
            try await withStatusPage(rokuHost: "127.0.9.3") { fixture in
                _ = try #require(try await waitForTV(fixture))
                let client = PageClient(port: fixture.port)
                let sent = ContinuousClock.now
                let response = try await client.send(
                    "POST", "/api/tv/\(fixture.tvID)/set", headers: [("Content-Type", "application/json")],
                    body: Array(#"{"key":"Home"}"#.utf8))
                #expect(response.status == 202)
                #expect(try JSONParser.parse(response.body)["ok"] == true)
                var arrived: ContinuousClock.Instant?
                while arrived == nil && ContinuousClock.now - sent < .seconds(30) {
                    let presses = fixture.log.entries.filter { $0["kind"] == "keypress" && $0["key"] == "Home" }
                    if !presses.isEmpty { arrived = .now } else { try await Task.sleep(for: .milliseconds(10)) }
                }
                // It arrived; how fast is tvbench's (command-latency), not a test's.
                _ = try #require(arrived, "the key never reached the TV")
            }
        }

        @Test("a refused command answers 400 with the message command_failed carries")
        func refusedCommand() async throws {
            try await withStatusPage(rokuHost: "127.0.9.4") { fixture in
                _ = try #require(try await waitForTV(fixture))
                let client = PageClient(port: fixture.port)
                let badKey = try await client.send(
                    "POST", "/api/tv/\(fixture.tvID)/set", body: Array(#"{"key":"NoSuchKey"}"#.utf8))
                #expect(badKey.status == 400)
                let message = try JSONParser.parse(badKey.body)["error"]?.stringValue ?? ""
                #expect(message.contains("NoSuchKey"))
                // The same message went out as the command_failed event the page's event list shows.
                let events = try await client.state()["events"]?.arrayValue ?? []
                let failed = events.filter { $0["type"] == "command_failed" && $0["message"]?.stringValue == message }
                #expect(!failed.isEmpty)
                let unknown = try await client.send(
                    "POST", "/api/tv/no_such_tv/set", body: Array(#"{"key":"Home"}"#.utf8))
                #expect(unknown.status == 400)
                #expect(try JSONParser.parse(unknown.body)["error"]?.stringValue?.hasPrefix("unknown TV") == true)
                let notJSON = try await client.send("POST", "/api/tv/add", body: [])
                #expect(notJSON.status == 400)
            }
        }

        @Test("a state change on the simulated TV reaches an open event stream")
        func stateReachesTheEventStream() async throws {
            var limits = StatusPageLimits()
            limits.pingInterval = .milliseconds(300)
            try await withStatusPage(rokuHost: "127.0.9.5", limits: limits) { fixture in
                _ = try #require(try await waitForTV(fixture))
                let stream = try await EventStreamReader(PageClient(port: fixture.port))
                defer { stream.close() }
                #expect(await stream.waitFor("retry:", timeout: .seconds(30)))
                let mark = stream.text.count
                try fixture.roku.apply(["power": "standby"])
                // The next poll (poll_interval 1) brings it; how fast is tvbench's, not a test's.
                let arrived = await stream.waitFor(#""power":"OFF""#, from: mark, timeout: .seconds(30))
                #expect(arrived)
                #expect(stream.text.dropFirst(mark).contains("event: state"))
                let pinged = await stream.waitFor(": ping", timeout: .seconds(30))
                #expect(pinged, "a comment keeps the stream alive")
            }
        }

        @Test("GET / serves the page without a token; a client that is no ingress peer names no base")
        func pageAndIngress() async throws {
            try await withStatusPage(token: "s3cret-page-token", rokuHost: "127.0.9.6") { fixture in
                let client = PageClient(port: fixture.port)
                let page = try await client.send("GET", "/")
                #expect(page.status == 200)
                #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
                // Only an allow_from peer names the ingress path (StatusPageIngressTests).
                let ingress = try await client.send(
                    "GET", "/", headers: [("X-Ingress-Path", "/api/hassio_ingress/abc123")])
                #expect(!String(decoding: ingress.body, as: UTF8.self).contains("<base"))
                #expect(try await client.send("GET", "/app.js").status == 200)
                #expect(try await client.send("GET", "/app.css").status == 200)
                #expect(try await client.send("GET", "/nothing-here").status == 404)
            }
        }
    }
}
