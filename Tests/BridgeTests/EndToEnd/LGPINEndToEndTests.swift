import Configuration
import Drivers
import Harness
import Net
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// An LG TV that pairs by PIN (`tvsim lg --pairing pin`) through the whole bridge: the pair
/// button starts pairing, the PIN goes in `bridge/request/tv/pair` as `{"id", "pin"}`.
@Suite("LG PIN pairing end to end", .serialized)
struct LGPINEndToEndTests {
    /// An address no other test uses (the simulator binds LG's real ports there).
    static let host = "127.0.0.126"
    static let pin = "86420135"

    @Test("pair button: the TV shows a PIN; a malformed and a wrong PIN are refused; the right one pairs, secret")
    func pairByPIN() async throws {
        let log = CommandLog.memory()
        var options = LGSimulatorOptions(host: Self.host, ssdpPort: 0, wolPort: 0)
        options.pairing = .pin
        options.pin = Self.pin
        let simulator = try await LGSimulator.start(options, log: log)
        let id = try #require(TVID(kind: .lg, hardwareID: String(simulator.udn.dropFirst("uuid:".count)))).rawValue
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    $0.tvs = [BridgeConfiguration.ConfiguredTV(host: Self.host, kind: .lg)]
                }
                // The bridge runs under a clock that never moves: pairing needs no deadline to
                // pass, so the prompt's and the PIN's timeouts cannot fire on a slow machine.
                let clock = ManualClock()
                try await clock.run {
                    try await fixture.startBridge(
                        configuration,
                        factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled)
                    )
                }
                try await pair(fixture, simulator, id)
                #expect(!clock.pendingDeadlines.isEmpty, "the bridge's timers are armed on the manual clock")
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    private func pair(_ fixture: BridgeFixture, _ simulator: LGSimulator, _ id: String) async throws {
        let topic = "tv2mqtt/bridge/response/tv/pair"
        _ = try await fixture.component("pair", of: id)
        var mark = await fixture.log.count
        try await fixture.use("pair", of: id)
        let shown = try JSONParser.parse(#require(await fixture.expectMessage(topic, after: mark)).payload)
        #expect(shown["status"] == "error")
        #expect(shown["error"]?.stringValue?.contains("shows a PIN") == true, "\(shown)")

        for (pin, expected) in [("12ab", "1 to 12 digits"), ("11112222", "refused the PIN")] {
            mark = await fixture.log.count
            try await fixture.publish("tv2mqtt/bridge/request/tv/pair", #"{"id":"\#(id)","pin":"\#(pin)"}"#)
            let refused = try JSONParser.parse(#require(await fixture.expectMessage(topic, after: mark)).payload)
            #expect(refused["status"] == "error")
            #expect(refused["error"]?.stringValue?.contains(expected) == true, "\(refused)")
        }
        #expect(simulator.clientKeys.isEmpty)

        mark = await fixture.log.count
        try await fixture.publish("tv2mqtt/bridge/request/tv/pair", #"{"id":"\#(id)","pin":"\#(Self.pin)"}"#)
        let paired = try JSONParser.parse(#require(await fixture.expectMessage(topic, after: mark)).payload)
        #expect(paired["status"] == "ok", "\(paired)")
        let key = try #require(simulator.clientKeys.first)
        await fixture.expectState(id) { $0["power"] == "ON" && $0["volume"]?.intValue == 10 }

        let leaked = fixture.logs.lines.filter { $0.contains(Self.pin) || $0.contains(key) }
        #expect(leaked.isEmpty, "the PIN or the key appears in the log: \(leaked)")
        let published = await fixture.log.messages.filter {
            !$0.topic.contains("bridge/request") && ($0.text.contains(Self.pin) || $0.text.contains(key))
        }
        #expect(published.isEmpty, "the PIN or the key was published on \(published.map(\.topic))")
    }
}
