import Configuration
import Drivers
import Foundation
import Harness
import Persistence
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// Pre-2016 Samsungs through the whole bridge: a simulated legacy TV (`tvsim samsung --legacy`:
/// TCP 55000 with its allow prompt, SSDP, no REST API) on real sockets, a real mosquitto, the
/// real driver. Addresses 127.0.0.81–85, .88 and .89 are this suite's.
@Suite("Samsung pre-2016 (legacy remote) end to end")
struct SamsungLegacyEndToEndTests {
    static let id = "old_tv"

    /// A simulated legacy TV on `host` (a free port) and a bridge configured with it as
    /// `samsung-legacy:HOST:PORT`, id `old_tv`, polling every second.
    func withLegacyTV(
        host: String, pairing: SamsungPairingMode = .accept, macs: [String] = [], wol: Bool = false,
        _ body: (BridgeFixture, SamsungLegacySimulator, CommandLog) async throws -> Void
    ) async throws {
        let log = CommandLog.memory()
        var options = SamsungLegacySimulatorOptions(
            host: host, port: 0, name: "Old TV", pairing: pairing, promptTimeout: .seconds(2))
        options.wolPort = wol ? 0 : nil
        let simulator = try await SamsungLegacySimulator.start(options, log: log)
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    var tv = BridgeConfiguration.ConfiguredTV(
                        host: simulator.host, kind: .samsungLegacy, id: TVID(Self.id), port: simulator.port)
                    tv.macs = macs
                    $0.tvs = [tv]
                    if let wolPort = simulator.wolPort {
                        $0.wol.targets = [HostPort(host: "127.255.255.255", port: wolPort)]
                        $0.wol.repeatCount = 1
                    }
                }
                try await fixture.startBridge(
                    configuration,
                    factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
                try await body(fixture, simulator, log)
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    func entries(_ log: CommandLog, _ kind: String) -> [JSONValue] {
        log.entries.filter { $0["kind"]?.stringValue == kind }
    }

    @Test("keys and power off work, the entity set is reduced, power is reachability, ON is refused without a MAC")
    func keysAndPowerOff() async throws {
        try await withLegacyTV(host: "127.0.0.81") { fixture, simulator, log in
            let on = await fixture.expectState(Self.id) { $0["power"] == "ON" }
            #expect(on?["control"] == "legacy-55000")
            for key in ["power", "home", "volume_up", "channel_up"] {
                _ = try await fixture.component(key, of: Self.id)
            }
            let config = await fixture.expectMessage("homeassistant/device/\(Self.id)/config")
            let components = try JSONParser.parse(#require(config).payload)["components"]?.objectValue ?? [:]
            for absent in ["volume", "mute", "app", "input", "keyboard"] {
                let entry = components[absent]?.objectValue
                #expect(entry == nil || entry?.keys.sorted() == ["platform"], "\(absent) offered on a legacy TV")
            }

            try await fixture.use("home", of: Self.id)
            await expectReceived(log) { $0["kind"] == "legacy_key" && $0["key"] == "KEY_HOME" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set", #"{"key":"KEY_MENU","repeat":2}"#)
            await expectReceived(log) { entry in
                entry["kind"] == "legacy_key" && entry["key"] == "KEY_MENU"
            }
            let prompts = entries(log, "pairing").filter { $0["result"] == "accepted" }.count
            #expect(prompts == 1, "the TV asked once and remembered")

            let beforeApp = await fixture.log.count
            try await fixture.publish("tv2mqtt/\(Self.id)/set/app", "Netflix")
            let refused = await fixture.expectEvent("command_failed", after: beforeApp)
            #expect(refused?["message"]?.stringValue?.contains("keys only") == true, "\(String(describing: refused))")

            try await fixture.use("power", of: Self.id, payload: "OFF")
            await expectReceived(log) { $0["kind"] == "legacy_key" && $0["key"] == "KEY_POWEROFF" }
            await fixture.expectState(Self.id) { $0["power"] == "OFF" }
            #expect(simulator.isOn == false)

            let beforeOn = await fixture.log.count
            try await fixture.use("power", of: Self.id, payload: "ON")
            let failed = await fixture.expectEvent("command_failed", after: beforeOn)
            let message = failed?["message"]?.stringValue ?? ""
            #expect(message.contains("cannot be switched on"), "\(message)")

            // Switched on with its own remote: the port answers again, and so does the state.
            try simulator.powerOn()
            await fixture.expectState(Self.id, after: beforeOn) { $0["power"] == "ON" }
        }
    }

    @Test("the client id the TV remembers is this installation's, kept in the state file, not a constant")
    func clientIDPerInstallation() async throws {
        try await withLegacyTV(host: "127.0.0.89") { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.use("home", of: Self.id)
            await expectReceived(log) { $0["kind"] == "legacy_key" && $0["key"] == "KEY_HOME" }
            let ids = entries(log, "pairing").compactMap { $0["id"]?.stringValue }
            // Saved with the TVs (`state_save_delay`, 1 s): 10 s of margin.
            let store = StateStore(
                directory: fixture.stateDirectory.path, kinds: [Vendor].shipped.stateFileKinds, logger: .disabled)
            _ = await waitUntil(timeout: .seconds(30)) { store.load().installationID != nil }
            let saved = store.load().installationID
            #expect(saved != nil && ids == [saved ?? "-"], "the TV was asked by \(ids)")
            #expect(!ids.contains("tv2mqtt"), "the constant client id every installation shares")
        }
    }

    @Test("power ON with a configured MAC: Wake-on-LAN, and the TV that obeys it is ON again")
    func wakeOnLAN() async throws {
        let mac = SamsungLegacySimulatorOptions().wakeMAC
        try await withLegacyTV(host: "127.0.0.88", macs: [mac], wol: true) { fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.use("power", of: Self.id, payload: "OFF")
            await fixture.expectState(Self.id) { $0["power"] == "OFF" }
            let before = await fixture.log.count
            try await fixture.use("power", of: Self.id, payload: "ON")
            await expectReceived(log) { $0["kind"] == "wol" }
            await fixture.expectState(Self.id, after: before) { $0["power"] == "ON" }
            #expect(simulator.isOn)
        }
    }

    @Test("the prompt denied: pairing_required and command_failed, nothing sent")
    func denied() async throws {
        try await withLegacyTV(host: "127.0.0.82", pairing: .deny) { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set/key", "home")
            let event = await fixture.expectEvent("pairing_required")
            #expect(event?["tv"] == .string(Self.id))
            #expect(event?["message"]?.stringValue?.contains("Allow") == true)
            let failed = await fixture.expectEvent("command_failed") { $0["tv"] == .string(Self.id) }
            #expect(failed?["message"]?.stringValue?.contains("did not allow") == true)
            await fixture.expectState(Self.id) { $0["pairing_required"] == true }
            let keys = entries(log, "legacy_key")
            #expect(keys.isEmpty, "sent although denied: \(keys)")
        }
    }

    @Test("the prompt ignored: the TV's timeout reply becomes a clear command_failed")
    func ignored() async throws {
        try await withLegacyTV(host: "127.0.0.83", pairing: .ignore) { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set/key", "home")
            await expectReceived(log) { $0["kind"] == "pairing" && $0["result"] == "ignored" }
            let failed = await fixture.expectEvent("command_failed") { $0["tv"] == .string(Self.id) }
            #expect(
                failed?["message"]?.stringValue?.contains("Nobody answered") == true, "\(String(describing: failed))")
            let keys = entries(log, "legacy_key")
            #expect(keys.isEmpty)
        }
    }

    @Test("today's and pre-2016 Samsungs share the SSDP target: it means samsung, whose probe tells them apart")
    func sharedSearchTarget() throws {
        let target = try #require(Vendor.samsung.ssdpTargets.first)
        #expect(Vendor.samsungLegacy.ssdpTargets.isEmpty, "found through the Samsung probe only")
        #expect([Vendor].shipped.vendor(ssdpTarget: target)?.kind == .samsung)
        #expect([Vendor].shipped.vendor(ssdpTarget: "urn:lge-com:service:webos-second-screen:1")?.kind == .lg)
        #expect([Vendor].shipped.ssdpTargets.count == 3, "Roku, Samsung, LG: \([Vendor].shipped.ssdpTargets)")
    }

    @Test("found by SSDP (RemoteControlReceiver, no REST API on 8001) and controlled on port 55000")
    func ssdpDiscovery() async throws {
        let log = CommandLog.memory()
        // The standard port on an address no other test uses: SSDP carries no port for Samsung.
        var options = SamsungLegacySimulatorOptions(host: "127.0.0.84", name: "Bedroom", ssdpPort: 0)
        options.ssdpAnswerWindow = .milliseconds(100)
        let simulator = try await SamsungLegacySimulator.start(options, log: log)
        let ssdpPort = simulator.ssdpPort ?? 0
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    $0.discovery.ssdp = true
                    $0.discovery.ssdpAddress = HostPort(host: "127.255.255.255", port: ssdpPort)
                    $0.discovery.searchInterval = 0
                }
                try await fixture.startBridge(
                    configuration,
                    factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
                let id = "samsung_legacy_127-0-0-84"
                await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
                try await fixture.use("home", of: id)
                await expectReceived(log) { $0["kind"] == "legacy_key" && $0["key"] == "KEY_HOME" }
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    @Test("a 2014–2015 encrypted (H/J) model is reported clearly, not added")
    func encryptedModel() async throws {
        let log = CommandLog.memory()
        let simulator = try await SamsungLegacySimulator.start(
            SamsungLegacySimulatorOptions(host: "127.0.0.85", encrypted: true, restPort: 0), log: log)
        let restPort = try #require(simulator.restPort)
        do {
            try await withBridgeFixture { fixture in
                let configuration = fixture.configuration {
                    $0.tvs = [BridgeConfiguration.ConfiguredTV(host: simulator.host, kind: .samsung, port: restPort)]
                }
                try await fixture.startBridge(
                    configuration,
                    factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
                let event = await fixture.expectEvent("command_failed") { $0["host"] == "127.0.0.85" }
                let message = event?["message"]?.stringValue ?? ""
                #expect(message.contains("H or J series") && message.contains("not support"), "\(message)")
                let devices = await fixture.log.all(prefix: "homeassistant/device/").count
                #expect(devices == 0, "an encrypted model got entities")
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
