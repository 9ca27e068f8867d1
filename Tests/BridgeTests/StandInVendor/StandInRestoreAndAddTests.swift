import Configuration
import Drivers
import Harness
import Persistence
import TVModel
import TestSupport
import Testing
import Wire

@testable import Bridge

/// The stand-in vendor where the list reaches beyond the bridge's search: the state file takes
/// its kind (and gives an old file's TVs its defaults) only from the list it is handed, and
/// `tv/add` takes its kind name and default port from the bridge's list.
@Suite("A stand-in vendor in the state file and tv/add")
struct StandInRestoreAndAddTests {
    /// A state file as an older version wrote it: no manufacturer, a `findRemote` flag, no
    /// declared sensors.
    static func oldStateFile(_ tv: StandInTV) -> String {
        """
        {"version": 1, "tvs": [{"identity": {"id": "acme_\(tv.serial.lowercased())", "kind": "acme", "name": "Hall",
          "host": "\(tv.host)", "port": \(tv.port), "macs": []},
         "capabilities": {"power": true, "volumeKeys": true, "findRemote": true}}]}
        """
    }

    @Test("restored from the state file with its kind's old-file defaults; a list without it refuses the file")
    func restored() async throws {
        try await withBridgeFixture { fixture in
            let tv = try StandInTV(host: "127.0.0.75", serial: "SI0005")
            defer { tv.stop() }
            let elsewhere = try TemporaryDirectory(prefix: "standin-state")
            defer { elsewhere.remove() }
            try FileText.write(Self.oldStateFile(tv), to: elsewhere.file("state.json"), mode: 0o600)
            let withoutIt = StateStore(
                directory: elsewhere.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            #expect(withoutIt.load().tvs.isEmpty, "a kind nobody drives: the file is moved aside")

            try FileText.write(Self.oldStateFile(tv), to: fixture.stateDirectory.file("state.json"), mode: 0o600)
            try await startStandInBridge(fixture, fixture.configuration())
            let id = "acme_si0005"
            await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
            let config = await fixture.expectMessage("homeassistant/device/\(id)/config")
            let payload = try JSONParser.parse(#require(config).payload)
            #expect(payload["device"]?["manufacturer"] == "Acme", "the kind's, for an identity saved without one")
            let button = try await fixture.component("find_remote", of: id)
            #expect(button["payload_press"] == .string(StandInDriver.findRemoteKey))
            let sensor = try await fixture.component(StandInDriver.remoteSetting.key, of: id)
            #expect(sensor["entity_category"] == "diagnostic")
            // The file's capabilities, not the driver's: its screen switch is only a removal stub.
            let latest = await fixture.log.latest("homeassistant/device/\(id)/config")
            let screen = try JSONParser.parse(#require(latest).payload)["components"]?["screen"]
            #expect(screen?["unique_id"] == nil, "\(String(describing: screen))")
        }
    }

    @Test("added by tv/add with its kind at its own port; a bridge without it refuses the kind")
    func addedByRequest() async throws {
        try await withBridgeFixture { fixture in
            let tv = try StandInTV(host: "127.0.0.76", serial: "SI0006")
            defer { tv.stop() }
            let configuration = fixture.configuration {
                $0.addTV.allowLoopback = true
                $0.addTV.ports = [tv.port]
            }
            try await startStandInBridge(fixture, configuration)
            let answer = try await AddTVRequestTests().request(
                fixture, "tv/add", #"{"host":"127.0.0.76","kind":"acme","port":\#(tv.port)}"#)
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["data"]?["kind"] == "acme" && answer["data"]?["id"] == "acme_si0006")
            await fixture.expectMessage("tv2mqtt/acme_si0006/availability") { $0.text == "online" }

            let policy = AddTVPolicy(configuration.addTV, vendors: .withStandIn, ownAddresses: { [] })
            #expect(policy.ports(for: .standIn) == [Vendor.standIn.defaultPort, tv.port])
            #expect(throws: BridgeService.RequestError.self) {
                try AddTVAddress.parse("acme:127.0.0.76", vendors: .shipped)
            }
        }
    }
}
