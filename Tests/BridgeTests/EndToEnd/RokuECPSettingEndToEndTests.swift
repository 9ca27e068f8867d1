import Clients
import Drivers
import Harness
import Support
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// "Control by mobile apps" refusals through MQTT, the bridge and `tvsim roku`: Roku OS 15.2.4
/// refusing plain-HTTP keypresses under Enabled, and a Roku silent after a software update.
@Suite("Roku: refusals under Control by mobile apps, end to end")
struct RokuECPSettingEndToEndTests {
    let e2e = RokuEndToEndTests()

    /// `RokuEndToEndTests.startBridge`, with the drivers logging into the fixture's log too.
    func startBridge(_ fixture: BridgeFixture, _ rokus: SimulatedRokus) async throws {
        let logger = Logger(label: "test", sink: fixture.logs, threshold: LogThreshold(.info))
        try await e2e.startBridge(fixture, rokus, driverLogger: logger)
    }

    func events(_ fixture: BridgeFixture, _ type: String) async -> [JSONValue] {
        await fixture.log.all("tv2mqtt/bridge/event").compactMap { try? JSONParser.parse($0.payload) }
            .filter { $0["type"] == .string(type) }
    }

    @Test(
        "Enabled refusing keys, no ECP-2: command_failed names Permissive, the state says why, launch and the entities stay, said once"
    )
    func enabledRefusesKeys() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecpSetting: .enabled)
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["ecp_setting_mode"] == "enabled" && $0["limited_mode"] == false }
            try await fixture.use("home", of: id)
            let failure = await fixture.expectEvent("command_failed")
            let message = failure?["message"]?.stringValue ?? ""
            #expect(message.contains("Control by mobile apps › Network access: Permissive"), "\(message)")
            let state = await fixture.expectState(id) { $0["limited_mode"] == true }
            let reason = state?["limited_mode_reason"]?.stringValue ?? ""
            #expect(reason.contains("Network access: Permissive"), "\(String(describing: state))")
            // More presses: each fails with the same words.
            try await fixture.use("up", of: id)
            try await fixture.use("select", of: id)
            let failed = await waitUntil(timeout: .seconds(30)) { await events(fixture, "command_failed").count >= 3 }
            #expect(failed)
            for event in await events(fixture, "command_failed") {
                #expect(event["message"]?.stringValue?.contains("Network access: Permissive") == true, "\(event)")
            }
            // Launching keeps working, and the TV stays available with its power switch and keys.
            try await fixture.publish("tv2mqtt/\(id)/set/app", "Netflix")
            await fixture.expectState(id) { $0["app"] == "Netflix" && $0["limited_mode"] == true }
            #expect(await fixture.log.latest("tv2mqtt/\(id)/availability")?.text == "online")
            _ = try await fixture.component("power", of: id)
            _ = try await fixture.component("home", of: id)
            // The explanation is an event and a log line once, not once per refused key.
            let limited = await events(fixture, "limited_mode")
            #expect(limited.count == 1, "\(limited)")
            #expect(limited.first?["message"]?.stringValue?.contains("Network access: Permissive") == true)
            let lines = fixture.logs.lines.filter { $0.contains("event=limited_mode") }
            #expect(lines.count == 1, "\(lines)")
            let accepted = rokus.entries("keypress", of: tv).filter { $0["refused"] != "ecp-setting-mode enabled" }
            #expect(accepted.isEmpty, "\(accepted)")
        }
    }

    @Test(
        "Enabled refusing keys while the ECP-2 session is down: the key is sent again over the session once it is back")
    func enabledRetriedOverECP2() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true, ecpSetting: .enabled)
            let id = try await RokuECP2EndToEndTests().startPushing(fixture, rokus, tv)
            let mark = await fixture.log.count
            tv.dropECP2Sessions()
            await fixture.expectState(id, after: mark) { $0["control"] == "ecp" }
            try await fixture.use("home", of: id)
            await expectReceived(rokus.log) { $0["key"] == "Home" && $0["via"] == "ecp-2" && $0["refused"] == nil }
            // Over HTTP first, unless the session was back already (it reconnects after 1 s).
            let refused = rokus.entries("keypress", of: tv).filter { $0["refused"] != nil }
            #expect(refused.count <= 1, "\(refused)")
            try await Task.sleep(for: .milliseconds(500))
            #expect(await events(fixture, "command_failed").isEmpty)
        }
    }

    @Test(
        "a Roku that stops answering: tv_lost names the likely causes; back with new software, the log says from and to"
    )
    func silentAfterUpdate() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2")
            try await startBridge(fixture, rokus)
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["power"] == "ON" }
            try tv.apply(["silent": true])
            let lost = await fixture.expectEvent("tv_lost")
            let message = lost?["message"]?.stringValue ?? ""
            #expect(message.contains("Fast TV start") && message.contains("Control by mobile apps"), "\(message)")
            try tv.apply(["silent": false, "software_version": "15.2.4"])
            let mark = await fixture.log.count
            await fixture.expectMessage("tv2mqtt/\(id)/availability", after: mark) { $0.text == "online" }
            let changed = await waitUntil(timeout: .seconds(30)) {
                fixture.logs.lines.contains { $0.contains("software changed from 12.5.0 to 15.2.4") }
            }
            let roku = fixture.logs.lines.filter { $0.contains("roku") }
            #expect(changed, "\(roku)")
            let causes = fixture.logs.lines.filter { $0.contains("Fast TV start") }
            #expect(causes.count == 1, "\(causes)")
        }
    }
}
