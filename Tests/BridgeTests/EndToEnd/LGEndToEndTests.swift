import Configuration
import Drivers
import Foundation
import Harness
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// LG webOS TVs through the whole bridge: the simulated TV (SSAP over TLS, the pointer socket,
/// SSDP, Wake-on-LAN) on its real ports of its own loopback address, a real mosquitto, the real
/// driver, found by SSDP as a user's TV is.
@Suite("LG end to end", .serialized)
struct LGEndToEndTests {
    /// An address no other test uses: the simulator binds LG's real ports (3000, 3001, 1754)
    /// there, so the bridge reaches it as it would a real TV.
    static let host = "127.0.0.26"

    func withLG(_ body: (BridgeFixture, LGSimulator, CommandLog, String) async throws -> Void) async throws {
        let log = CommandLog.memory()
        let simulator = try await LGSimulator.start(
            LGSimulatorOptions(host: Self.host, ssdpPort: 0, wolPort: 0), log: log)
        let id = try #require(TVID(kind: .lg, hardwareID: String(simulator.udn.dropFirst("uuid:".count)))).rawValue
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    $0.discovery.ssdp = true
                    $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: simulator.ssdpPort ?? 0)
                    $0.wol.targets = [HostPort(host: simulator.host, port: simulator.wolPort ?? 0)]
                    $0.wol.repeatCount = 1
                    $0.pollInterval = 30  // state changes must arrive pushed, not polled
                }
                try await fixture.startBridge(
                    configuration,
                    factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
                try await body(fixture, simulator, log, id)
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    @Test("found by SSDP, paired with the pair button, keys reach the TV, state is pushed, the key stays secret")
    func discoverPairControl() async throws {
        try await withLG { fixture, simulator, log, id in
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
            let config = await fixture.expectMessage("homeassistant/device/\(id)/config")
            let device = try JSONParser.parse(#require(config).payload)["device"]
            #expect(device?["manufacturer"] == "LG")
            #expect(device?["name"]?.stringValue == simulator.name)
            _ = try await fixture.component("pair", of: id)
            try await fixture.use("pair", of: id)
            let response = await fixture.expectMessage("tv2mqtt/bridge/response/tv/pair")
            #expect(try JSONParser.parse(#require(response).payload)["status"] == "ok")
            let key = try #require(simulator.clientKeys.first)

            await fixture.expectState(id) { $0["power"] == "ON" && $0["volume"]?.intValue == 10 }
            for entity in [
                "power", "app", "input", "volume", "mute", "home", "keyboard", "channel", "screen", "sound_output",
                "toast",
            ] {
                _ = try await fixture.component(entity, of: id)
            }
            try await fixture.use("home", of: id)
            await expectReceived(log) { $0["kind"] == "button" && $0["name"] == "HOME" }
            try await fixture.publish("tv2mqtt/\(id)/set/toast", "Dinner is ready")
            await expectReceived(log) { $0["kind"] == "toast" && $0["message"] == "Dinner is ready" }
            try await fixture.publish("tv2mqtt/\(id)/set/sound_output", "external_arc")
            await fixture.expectState(id) { $0["sound_output"] == "external_arc" }
            try simulator.apply(["volume": 42])
            await fixture.expectState(id) { $0["volume"]?.intValue == 42 }
            try simulator.apply(["power_mode": "Screen Off"])
            await fixture.expectState(id) {
                $0["power"] == "ON" && $0["power_mode"] == "Screen Off" && $0["screen"] == "OFF"
            }

            try await Task.sleep(for: .milliseconds(1500))  // the state file is written, debounced
            let saved = FileText.read(fixture.stateDirectory.file("state.json")) ?? ""
            #expect(saved.contains(key))
            let leaked = fixture.logs.lines.filter { $0.contains(key) }
            #expect(leaked.isEmpty, "the client key appears in the log: \(leaked)")
            let published = await fixture.log.messages.filter { $0.text.contains(key) }.map(\.topic)
            #expect(published.isEmpty, "the client key was published on \(published)")
        }
    }

    @Test("power OFF goes to Active Standby (OFF, power_mode says so); ON wakes it by Wake-on-LAN")
    func power() async throws {
        try await withLG { fixture, simulator, log, id in
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
            try await fixture.use("pair", of: id)
            await fixture.expectState(id) { $0["power"] == "ON" && $0["volume"] != nil }
            let beforeOff = await fixture.log.count
            try await fixture.use("power", of: id, payload: "OFF")
            await fixture.expectState(id, after: beforeOff) {
                $0["power"] == "OFF" && $0["power_mode"] == "Active Standby"
            }
            let beforeOn = await fixture.log.count
            try await fixture.use("power", of: id, payload: "ON")
            await expectReceived(log) { $0["kind"] == "wol" }
            await fixture.expectState(id, after: beforeOn) { $0["power"] == "ON" && $0["power_mode"] == "Active" }
            #expect(simulator.state.power == .active)
        }
    }
}
