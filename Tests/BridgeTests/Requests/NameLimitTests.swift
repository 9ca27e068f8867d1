import Drivers
import TestSupport
import Testing
import Wire

@testable import Bridge

/// A name from a TV is bounded like one from a request (`TVDescription.bounded`).
@Suite("Name limits")
struct NameLimitTests {
    @Test("a TV's name of 304 characters is cut to 128")
    func longNameCut() async throws {
        try await withRokus { fixture, rokus in
            let name = "Den " + String(repeating: "x", count: 300)
            let tv = try await rokus.start("127.0.0.67", name: name)
            let configuration = fixture.configuration {
                $0.addTV.allowLoopback = true
                $0.addTV.ports = [tv.port]
            }
            try await fixture.startBridge(
                configuration,
                factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
            try await fixture.publish("tv2mqtt/bridge/request/tv/add", "roku:127.0.0.67:\(tv.port)")
            let id = SimulatedRokus.id(tv)
            let config = await fixture.expectMessage("homeassistant/device/\(id)/config")
            let shown = try JSONParser.parse(#require(config).payload)["device"]?["name"]?.stringValue
            #expect(shown == "Den " + String(repeating: "x", count: 124))
        }
    }
}
