import Clients
import Configuration
import Drivers
import Harness
import TVModel
import Testing
import Wire

@testable import Bridge

/// Bridge requests that must not run (issue 13, item 8): a retained request, which would
/// replay at every reconnect (a retained `tv/remove` removed the TV again at every start, a
/// retained `tv/pair` cleared the pin each time), and a second `discover` while one runs.
@Suite("Bridge requests refused")
struct BridgeRequestRefusalTests {
    static let tv = TVDescription.sample()

    func start(_ fixture: BridgeFixture, adjust: (inout BridgeConfiguration) -> Void = { _ in }) async throws {
        let configuration = fixture.configuration {
            $0.tvs = [BridgeConfiguration.ConfiguredTV(host: Self.tv.identity.host, kind: .roku)]
            adjust(&$0)
        }
        try await fixture.startBridge(configuration, factory: RecordingFactory([Self.tv]))
        _ = await fixture.log.waitFor("tv2mqtt/roku_sample1/availability") { $0.text == "online" }
    }

    @Test("a retained tv/remove or tv/pair left on the broker is refused at start with a response and a log line")
    func retainedRequests() async throws {
        try await withBridgeFixture { fixture in
            try await fixture.publish(
                "tv2mqtt/bridge/request/tv/remove", #"{"id":"roku_sample1","transaction":"r-1"}"#, retain: true)
            try await fixture.publish("tv2mqtt/bridge/request/tv/pair", #"{"id":"roku_sample1"}"#, retain: true)
            try await start(fixture)
            let removeResponse = await fixture.log.waitFor("tv2mqtt/bridge/response/tv/remove")
            let remove = try removeResponse.map { try JSONParser.parse($0.payload) }
            #expect(remove?["status"] == "error")
            #expect(remove?["transaction"] == "r-1")
            #expect(
                remove?["error"]?.stringValue?.hasPrefix("ignored a retained request") == true,
                "\(String(describing: remove))")
            let pairResponse = await fixture.log.waitFor("tv2mqtt/bridge/response/tv/pair")
            let pair = try pairResponse.map { try JSONParser.parse($0.payload) }
            #expect(
                pair?["error"]?.stringValue?.hasPrefix("ignored a retained request") == true,
                "\(String(describing: pair))")
            let logged = fixture.logs.lines.contains {
                $0.contains("request tv/remove refused: ignored a retained request")
            }
            #expect(logged, "\(fixture.logs.lines.suffix(20))")
            // The TV is still there and still served.
            try await Task.sleep(for: .seconds(1))
            let cleared = await fixture.log.all("tv2mqtt/roku_sample1/state").contains { $0.payload.isEmpty }
            #expect(!cleared, "the retained tv/remove removed the TV")
            try await fixture.publish("tv2mqtt/bridge/request/health_check", #"{"transaction":2}"#)
            let health = await fixture.log.waitFor("tv2mqtt/bridge/response/health_check")
            let tvs = try health.flatMap { try JSONParser.parse($0.payload)["data"]?["tvs"] }
            #expect(tvs == 1)
            try await fixture.publish("tv2mqtt/bridge/request/tv/remove", "", retain: true)  // clean up the broker
            try await fixture.publish("tv2mqtt/bridge/request/tv/pair", "", retain: true)
        }
    }

    @Test("a second discover while one runs is answered at once with an error; the first completes")
    func oneDiscoveryAtATime() async throws {
        try await withBridgeFixture { fixture in
            // An SSDP search takes MX + 1 s (3 s) even when nothing answers: the first request
            // is still running when the second arrives.
            try await start(fixture) {
                $0.discovery.ssdp = true
                $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: 9)
                $0.discovery.searchInterval = 0
            }
            try await Task.sleep(for: .seconds(4))  // the start-up search is over
            try await fixture.publish("tv2mqtt/bridge/request/discover", #"{"transaction":1}"#)
            try await fixture.publish("tv2mqtt/bridge/request/discover", #"{"transaction":2}"#)
            let both = await waitUntil(timeout: .seconds(30)) {
                await fixture.log.all("tv2mqtt/bridge/response/discover").count >= 2
            }
            #expect(both)
            let responses = try await fixture.log.all("tv2mqtt/bridge/response/discover").map {
                try JSONParser.parse($0.payload)
            }
            let first = responses.first { $0["transaction"] == 1 }
            let second = responses.first { $0["transaction"] == 2 }
            #expect(first?["status"] == "ok", "\(responses)")
            #expect(second?["status"] == "error", "\(responses)")
            #expect(second?["error"]?.stringValue?.contains("already running") == true, "\(responses)")
            let secondFirst = responses.first?["transaction"] == 2
            #expect(secondFirst, "the refusal did not come at once: \(responses)")
        }
    }
}
