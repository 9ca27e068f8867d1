import Configuration
import Drivers
import Foundation
import Harness
import Net
import Synchronization
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Bridge

/// Samsung TVs through the whole bridge: a simulated Tizen TV (REST, the remote WebSocket over
/// TLS with pairing, UPnP) on real sockets, a real mosquitto, the real driver.
@Suite("Samsung end to end")
struct SamsungEndToEndTests {
    static let id = "living_room"

    /// Starts a simulated Samsung on `host` (free ports) and a bridge configured with it as
    /// `living_room`, polling every second; runs `body`; stops both.
    func withSamsung(
        host: String = "127.0.0.3", pairing: SamsungPairingMode = .accept, frame: Bool = false,
        clock: ManualClock? = nil, _ body: (BridgeFixture, SamsungSimulator, CommandLog) async throws -> Void
    ) async throws {
        let log = CommandLog.memory()
        let simulator = try await SamsungSimulator.start(
            SamsungSimulatorOptions(
                host: host, portWS: 0, portWSS: 0, portUPnP: 0, name: "Living Room", pairing: pairing, frame: frame,
                wolPort: 0),
            log: log)
        let wolPort = simulator.wolPort ?? 0
        do {
            try await withBridgeFixture { fixture in
                guard let clock else {
                    try await startBridge(fixture, simulator, wolPort: wolPort)
                    return try await body(fixture, simulator, log)
                }
                // The bridge on the test's clock (the simulator keeps real time); its first poll
                // is due at once.
                try await clock.run {
                    try await startBridge(fixture, simulator, wolPort: wolPort)
                    #expect(await clock.waitForTimer(at: .zero))
                    await clock.advance(to: .zero)
                    try await body(fixture, simulator, log)
                }
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    func startBridge(
        _ fixture: BridgeFixture, _ simulator: SamsungSimulator, wolPort: UInt16,
        adjust: (inout BridgeConfiguration) -> Void = { _ in }
    ) async throws {
        let configuration = fixture.configuration {
            var tv = BridgeConfiguration.ConfiguredTV(
                host: simulator.host, kind: .samsung, id: TVID(Self.id), port: simulator.portWS)
            tv.vendorOptions[SamsungTVOptions.self].secure = simulator.portWSS
            tv.vendorOptions[SamsungTVOptions.self].upnp = simulator.portUPnP
            $0.tvs = [tv]
            $0.wol.targets = [HostPort(host: simulator.host, port: wolPort)]
            $0.wol.repeatCount = 1
            adjust(&$0)
        }
        try await fixture.startBridge(
            configuration,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled))
    }

    func entries(_ log: CommandLog, _ kind: String) -> [JSONValue] {
        log.entries.filter { $0["kind"]?.stringValue == kind }
    }

    @Test("a Samsung TV gets its entities: power, app, input, volume, mute, buttons, keyboard")
    func entities() async throws {
        try await withSamsung { fixture, _, _ in
            await fixture.expectMessage("tv2mqtt/\(Self.id)/availability") { $0.text == "online" }
            for key in ["power", "app", "input", "volume", "mute", "home", "volume_up", "keyboard", "connected"] {
                _ = try await fixture.component(key, of: Self.id)
            }
            let config = await fixture.expectMessage("homeassistant/device/\(Self.id)/config")
            let device = try JSONParser.parse(#require(config).payload)["device"]
            #expect(device?["manufacturer"] == "Samsung")
            let limited = try JSONParser.parse(#require(config).payload)["components"]?["limited_mode"]
            #expect(limited == nil || limited?.objectValue?.keys.sorted() == ["platform"], "no Limited mode on Samsung")
            let on = await fixture.expectState(Self.id) {
                $0["power"] == "ON" && $0["volume"] != nil && $0["muted"] != nil
            }
            // Tizen cannot say which input shows: the field is left out, not null.
            #expect(on?.objectValue?.keys.contains("input") == false, "state: \(String(describing: on))")
        }
    }

    @Test("the first command pairs (the TV approves), the token is persisted, never logged, and reused")
    func pairingAndCommands() async throws {
        try await withSamsung { fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.use("home", of: Self.id)
            await expectReceived(log) { $0["kind"] == "remote_key" && $0["key"] == "KEY_HOME" }
            let accepted = entries(log, "pairing").filter { $0["result"] == "accepted" }.count
            #expect(accepted == 1)
            let token = try #require(simulator.issuedTokens.first)

            try await fixture.use("volume", of: Self.id, payload: "25")
            await expectReceived(log) { $0["kind"] == "volume" && $0["volume"]?.intValue == 25 }
            await fixture.expectState(Self.id) { $0["volume"]?.intValue == 25 }
            try await fixture.use("mute", of: Self.id, payload: "ON")
            await expectReceived(log) { $0["kind"] == "mute" }
            await fixture.expectState(Self.id) { $0["muted"] == true }
            try await fixture.use("app", of: Self.id, payload: "Netflix")
            await expectReceived(log) { $0["kind"] == "app_launch" }
            try await fixture.use("keyboard", of: Self.id, payload: "hello")
            await expectReceived(log) { $0["kind"] == "text" && $0["text"] == "hello" }
            try await fixture.use("input", of: Self.id, payload: "HDMI")
            await expectReceived(log) { $0["kind"] == "remote_key" && $0["key"] == "KEY_HDMI" }

            // The token is in the state file (mode 0600) and nowhere in the logs.
            try await Task.sleep(for: .milliseconds(1500))  // the state file is written, debounced
            let stateFile = fixture.stateDirectory.file("state.json")
            let saved = FileText.read(stateFile) ?? ""
            #expect(saved.contains(token))
            let leaked = fixture.logs.lines.filter { $0.contains(token) }
            #expect(leaked.isEmpty, "the token appears in the log: \(leaked)")
            let published = await fixture.log.messages.filter { $0.text.contains(token) }.map(\.topic)
            #expect(published.isEmpty, "the token was published on \(published)")

            // After a restart the bridge connects with the saved token: no new prompt.
            await fixture.stopBridge()
            let restarted = await fixture.log.count
            try await startBridge(fixture, simulator, wolPort: 9)
            await fixture.expectState(Self.id, after: restarted) { $0["power"] == "ON" }
            try await fixture.use("back", of: Self.id)
            await expectReceived(log) { $0["kind"] == "remote_key" && $0["key"] == "KEY_RETURN" }
            let prompts = entries(log, "pairing").filter { $0["result"] == "accepted" }.count
            #expect(prompts == 1, "the saved token was used, the TV did not ask again")
        }
    }

    @Test("a TV that denies us: pairing_required event and state; the command fails and nothing is sent")
    func pairingDenied() async throws {
        try await withSamsung(pairing: .deny) { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set/key", "home")
            let event = await fixture.expectEvent("pairing_required")
            #expect(event?["tv"] == .string(Self.id))
            let message = event?["message"]?.stringValue ?? ""
            #expect(message.contains("Device Connection Manager") || message.contains("Allow"), "\(message)")
            await fixture.expectEvent("command_failed") { $0["tv"] == .string(Self.id) }
            await fixture.expectState(Self.id) { $0["pairing_required"] == true }
            let keys = entries(log, "remote_key")
            #expect(keys.isEmpty, "sent although denied: \(keys)")
        }
    }

    @Test("power: OFF sends KEY_POWER once when on, nothing in standby; ON in standby wakes it; no blind toggle")
    func power() async throws {
        try await withSamsung { fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.use("power", of: Self.id, payload: "OFF")
            await expectReceived(log) { $0["kind"] == "remote_key" && $0["key"] == "KEY_POWER" }
            await fixture.expectState(Self.id) { $0["power"] == "OFF" }
            #expect(simulator.state.power == .standby)

            let before = entries(log, "remote_key").count
            try await fixture.use("power", of: Self.id, payload: "OFF")
            try await Task.sleep(for: .seconds(1))
            let after = entries(log, "remote_key").count
            #expect(after == before, "OFF on a TV in standby sent a key")

            let beforeOn = await fixture.log.count
            try await fixture.use("power", of: Self.id, payload: "ON")
            await expectReceived(log) { $0["kind"] == "wol" }
            await fixture.expectState(Self.id, after: beforeOn) { $0["power"] == "ON" }
            #expect(simulator.state.power == .on)
        }
    }

    @Test("a blocked key is refused before anything is sent")
    func blockedKey() async throws {
        try await withSamsung { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set/key", "KEY_FACTORY")
            let event = await fixture.expectEvent("command_failed")
            #expect(event?["message"]?.stringValue?.contains("KEY_FACTORY") == true)
            try await Task.sleep(for: .milliseconds(500))
            let sent = entries(log, "remote_key") + entries(log, "pairing")
            #expect(sent.isEmpty, "the TV received \(sent)")
        }
    }

    @Test("bridge/request/tv/pair pairs on demand and answers ok")
    func pairRequest() async throws {
        try await withSamsung { fixture, simulator, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/bridge/request/tv/pair", #"{"id":"living_room","transaction":"p1"}"#)
            let response = await fixture.expectMessage("tv2mqtt/bridge/response/tv/pair")
            let answer = try JSONParser.parse(#require(response).payload)
            #expect(answer["status"] == "ok", "\(answer)")
            #expect(answer["transaction"] == "p1")
            await expectReceived(log) { $0["kind"] == "pairing" && $0["result"] == "accepted" }
            #expect(simulator.issuedTokens.count == 1)
        }
    }

    @Test("a Samsung on its standard ports is found by SSDP (RemoteControlReceiver) and controlled")
    func ssdpDiscovery() async throws {
        let log = CommandLog.memory()
        // Standard ports on an address no other test uses: SSDP carries no REST port for Samsung.
        let simulator = try await SamsungSimulator.start(
            SamsungSimulatorOptions(host: "127.0.0.23", name: "Den", ssdpPort: 0), log: log)
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
                let id = "samsung_" + simulator.duid.replacingOccurrences(of: "uuid:", with: "")
                await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
                try await fixture.use("home", of: id)
                await expectReceived(log) { $0["kind"] == "remote_key" && $0["key"] == "KEY_HOME" }
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }
}
