import Configuration
import Drivers
import Harness
import TVModel
import Testing
import Wire

@testable import Bridge

/// The "add a vendor" recipe, proven: a vendor defined only in this test (`Vendor.standIn`),
/// added to the one list the driver factory is given, is found by SSDP, published to Home
/// Assistant with its entities, and receives a key, with no other module changed.
@Suite("A stand-in fourth vendor")
struct StandInVendorTests {
    @Test("found by SSDP, published with its entities, and a key from its Home Assistant button reaches it")
    func endToEnd() async throws {
        try await withBridgeFixture { fixture in
            let tv = try StandInTV(host: "127.0.0.71", serial: "SI0001")
            defer { tv.stop() }
            let configuration = fixture.configuration {
                $0.discovery.ssdp = true
                $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: tv.ssdpPort)
                $0.discovery.searchInterval = 0
            }
            try await startStandInBridge(fixture, configuration)

            let id = "acme_si0001"
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
            let config = await fixture.expectMessage("homeassistant/device/\(id)/config")
            let device = try JSONParser.parse(#require(config).payload)["device"]
            #expect(device?["manufacturer"] == "Acme")
            let home = try await fixture.component("home", of: id)
            #expect(home["platform"] == "button")
            _ = try await fixture.component("volume_up", of: id)

            let topic = try #require(home["command_topic"]?.stringValue)
            let payload = try #require(home["payload_press"]?.stringValue)
            try await fixture.publish(topic, payload)
            let pressed = await waitUntil(timeout: .seconds(30)) { tv.keys == ["HOME"] }
            #expect(pressed, "keys the TV received: \(tv.keys)")
        }
    }

    @Test("its driver's find-remote key and diagnostic sensor become the find_remote button and a sensor")
    func declaredEntities() async throws {
        try await withStandInBridge(host: "127.0.0.72", serial: "SI0002") { fixture, tv, id in
            let sensor = try await fixture.component("remote_setting", of: id)
            #expect(sensor["platform"] == "sensor" && sensor["name"] == "Remote setting")
            #expect(sensor["entity_category"] == "diagnostic" && sensor["icon"] == "mdi:cog")
            await fixture.expectState(id) { $0["remote_setting"] == .string(StandInTV.remoteSetting) }

            let button = try await fixture.component("find_remote", of: id)
            #expect(button["platform"] == "button" && button["payload_press"] == "BEEP")
            try await fixture.use("find_remote", of: id)
            let beeped = await waitUntil(timeout: .seconds(30)) { tv.keys == ["BEEP"] }
            #expect(beeped, "keys the TV received: \(tv.keys)")
        }
    }
}
