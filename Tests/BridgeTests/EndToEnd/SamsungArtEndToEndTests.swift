import Configuration
import Drivers
import Harness
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// The Frame's art mode and the configurable inputs through the whole bridge: MQTT → bridge →
/// driver → simulated Frame (REST, remote and art channels over TLS) → state on MQTT.
@Suite("Samsung The Frame end to end")
struct SamsungArtEndToEndTests {
    static let id = SamsungEndToEndTests.id
    let base = SamsungEndToEndTests()

    @Test(
        "art_mode switch on a Frame: set/art_mode and JSON commands, state art_mode/power/power_mode, power OFF from art"
    )
    func artMode() async throws {
        try await base.withSamsung(frame: true) { fixture, simulator, log in
            _ = try await fixture.component("art_mode", of: Self.id)
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/bridge/request/tv/pair", #"{"id":"living_room"}"#)
            await fixture.expectMessage("tv2mqtt/bridge/response/tv/pair")
            await fixture.expectState(Self.id, "art channel open") { $0["art_mode"] == "OFF" && $0["power"] == "ON" }

            try await fixture.use("art_mode", of: Self.id, payload: "ON")
            await expectReceived(log) { $0["kind"] == "art_mode" && $0["value"] == "on" }
            await fixture.expectState(Self.id) {
                $0["art_mode"] == "ON" && $0["power"] == "OFF" && $0["power_mode"] == "art"
            }

            try await fixture.publish("tv2mqtt/\(Self.id)/set", #"{"power":"ON"}"#)
            await fixture.expectState(Self.id) { $0["art_mode"] == "OFF" && $0["power"] == "ON" }
            #expect(simulator.state.power == .on)

            try await fixture.publish("tv2mqtt/\(Self.id)/set", #"{"art_mode":"ON"}"#)
            await fixture.expectState(Self.id) { $0["art_mode"] == "ON" }

            // Art mode changed with the TV's own remote: pushed on the art channel.
            try simulator.apply(["art_mode": "off"])
            await fixture.expectState(Self.id) { $0["art_mode"] == "OFF" && $0["power"] == "ON" }
            try simulator.apply(["art_mode": "on"])
            await fixture.expectState(Self.id) { $0["art_mode"] == "ON" }

            try await fixture.publish("tv2mqtt/\(Self.id)/set/power", "OFF")
            await expectReceived(log, timeout: .seconds(20)) {
                $0["kind"] == "remote_key" && $0["key"] == "KEY_POWER" && $0["cmd"] == "Release"
            }
            await fixture.expectState(Self.id) { $0["power"] == "OFF" && $0["art_mode"] == "OFF" }
            #expect(simulator.state.power == .standby)
        }
    }

    @Test("a TV that is not a Frame has no art_mode switch, and art_mode commands fail with command_failed")
    func notFrame() async throws {
        try await base.withSamsung { fixture, _, _ in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            let config = await fixture.expectMessage("homeassistant/device/\(Self.id)/config")
            let component = try JSONParser.parse(#require(config).payload)["components"]?["art_mode"]
            #expect(component?.objectValue?.keys.sorted() == ["platform"])
            try await fixture.publish("tv2mqtt/\(Self.id)/set/art_mode", "ON")
            let failed = await fixture.expectEvent("command_failed")
            #expect(failed?["message"]?.stringValue?.contains("art mode") == true)
        }
    }

    @Test("samsung.inputs: the select offers the configured names; choosing one sends its keys; state has no input")
    func configuredInputs() async throws {
        let log = CommandLog.memory()
        let simulator = try await SamsungSimulator.start(
            SamsungSimulatorOptions(host: "127.0.0.3", portWS: 0, portWSS: 0, portUPnP: 0, name: "Living Room"),
            log: log)
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    var tv = BridgeConfiguration.ConfiguredTV(
                        host: simulator.host, kind: .samsung, id: TVID(Self.id), port: simulator.portWS)
                    tv.vendorOptions[SamsungTVOptions.self].secure = simulator.portWSS
                    tv.vendorOptions[SamsungTVOptions.self].upnp = simulator.portUPnP
                    $0.tvs = [tv]
                    $0.vendorSettings[SamsungSettings.self].inputs = [
                        "HDMI 1": ["KEY_HDMI1"], "Console": ["KEY_SOURCE", "KEY_RIGHT", "KEY_ENTER"],
                    ]
                }
                try await fixture.startBridge(
                    configuration,
                    factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
                // The discovery config carries the configured names (at the latest after the first poll).
                let config = await fixture.expectMessage("homeassistant/device/\(Self.id)/config") { message in
                    (try? JSONParser.parse(message.payload))?["components"]?["input"]?["options"] == [
                        "Console", "HDMI 1",
                    ]
                }
                #expect(config != nil)
                try await fixture.use("input", of: Self.id, payload: "Console")
                await expectReceived(log) { $0["kind"] == "remote_key" && $0["key"] == "KEY_ENTER" }
                let keys = log.entries.filter { $0["kind"] == "remote_key" }.compactMap { $0["key"]?.stringValue }
                #expect(keys == ["KEY_SOURCE", "KEY_RIGHT", "KEY_ENTER"])
                try await fixture.use("input", of: Self.id, payload: "HDMI 1")
                await expectReceived(log) { $0["kind"] == "remote_key" && $0["key"] == "KEY_HDMI1" }
                try simulator.apply(["input": "HDMI1"])
                let state = await fixture.expectState(Self.id) { $0["power"] == "ON" }
                #expect(state?.objectValue?.keys.contains("input") == false)
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
