import Configuration
import ConfigurationLoading
import Drivers
import Harness
import Net
import TVModel
import TestSupport
import Testing
import Wire

@testable import Bridge

/// The stand-in vendor's configuration section and `tvs` key, decoded with the list the loader
/// is handed and given to its drivers, and its wake hint in the turn-on failure.
@Suite("A stand-in vendor's configuration section and wake hint")
struct StandInSettingsAndWakeTests {
    /// Only `--config`: the loader reads flag values, not a command line.
    struct ConfigFile: FlagValues {
        func has(_ name: String) -> Bool { name == "config" }
        func value(_ name: String) -> String? { name == "config" ? "config.json" : nil }
        func values(_ name: String) -> [String] { value(name).map { [$0] } ?? [] }
    }

    static func load(_ file: String, vendors: [Vendor]) throws(ConfigError) -> BridgeConfiguration {
        try ConfigurationLoader.load(arguments: ConfigFile(), environment: [:], vendors: vendors) { _ in
            Array(file.utf8)
        }
    }

    @Test("its section and tvs key are decoded with the list, shown by check-config, and reach its drivers")
    func configurationSection() async throws {
        try await withBridgeFixture { fixture in
            let lobby = try StandInTV(host: "127.0.0.77", serial: "SI0007")
            let den = try StandInTV(host: "127.0.0.78", serial: "SI0008")
            defer {
                lobby.stop()
                den.stop()
            }
            let file = """
                {"acme": {"toast_prefix": "Acme: "}, "tvs": [
                  {"host": "127.0.0.77", "kind": "acme", "port": \(lobby.port)},
                  {"host": "127.0.0.78", "kind": "acme", "port": \(den.port), "acme_toast_prefix": "Den: "}]}
                """
            let loaded = try Self.load(file, vendors: .withStandIn)
            #expect(loaded.vendorSettings[StandInSettings.self].toastPrefix == "Acme: ")
            let effective = loaded.effectiveJSON(vendors: .withStandIn)
            #expect(effective["acme"]?["toast_prefix"] == "Acme: ")
            #expect(effective["tvs"]?.arrayValue?.last?["acme_toast_prefix"] == "Den: ")
            var refusal: String?
            do throws(ConfigError) {
                _ = try Self.load(file, vendors: .shipped)
            } catch {
                refusal = error.message
            }
            #expect(refusal?.hasPrefix("unknown key 'acme'") == true, "\(refusal ?? "loaded")")

            let configuration = fixture.configuration {
                $0.vendorSettings[StandInSettings.self] = loaded.vendorSettings[StandInSettings.self]
                $0.tvs = loaded.tvs
            }
            try await startStandInBridge(fixture, configuration)
            for id in ["acme_si0007", "acme_si0008"] {
                await fixture.expectMessage("tv2mqtt/\(id)/availability") { $0.text == "online" }
                try await fixture.publish("tv2mqtt/\(id)/set/toast", "hello")
            }
            let lobbyToast = await waitUntil(timeout: .seconds(30)) { lobby.toasts == ["Acme: hello"] }
            #expect(lobbyToast, "the section's prefix: \(lobby.toasts)")
            let denToast = await waitUntil(timeout: .seconds(30)) { den.toasts == ["Den: hello"] }
            #expect(denToast, "the TV's own prefix: \(den.toasts)")
        }
    }

    @Test("an ON it does not wake from is reported at wake_timeout, naming its vendor's wake setting")
    func wakeHint() async throws {
        let clock = ManualClock()
        try await withStandInBridge(
            host: "127.0.0.79", serial: "SI0009", asleep: true, clock: clock.clock, configure: { $0.wakeTimeout = 3 }
        ) { fixture, _, id in
            let stateTopic = "tv2mqtt/\(id)/state"
            let off = await clock.step(by: .seconds(1)) {
                await fixture.log.latest(stateTopic).flatMap { try? JSONParser.parse($0.payload) }?["power"] == "OFF"
            }
            #expect(off, "the TV was never seen off")
            let mark = await fixture.log.count
            let sent = clock.elapsed
            try await fixture.publish("tv2mqtt/\(id)/set/power", "ON")
            await fixture.expectEvent("turn_on_requested", after: mark)
            #expect(await clock.waitForTimer(at: sent + .seconds(3)))
            await clock.advance(to: sent + .seconds(3))
            await fixture.expectEvent("turn_on_failed", after: mark) {
                $0["message"]?.stringValue?.contains("(\(StandInDriver.wakeHint))") == true
            }
        }
    }
}
