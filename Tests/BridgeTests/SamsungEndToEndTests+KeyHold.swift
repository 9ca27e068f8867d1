import TVModel
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// Held keys on a Samsung (SPEC §10): `Press`, the hold, `Release` on the remote channel, and
/// a `Release` even when the bridge shuts down during the hold. Search is Roku only.
extension SamsungEndToEndTests {
    @Test("a held key is Press, the hold, Release on the remote channel")
    func heldKey() async throws {
        try await withSamsung { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set", #"{"key":"right","hold_ms":600}"#)
            let released = await expectReceived(log) { $0["kind"] == "remote_key" && $0["cmd"] == "Release" }
            let commands = entries(log, "remote_key").filter { $0["key"] == "KEY_RIGHT" }.compactMap {
                $0["cmd"]?.stringValue
            }
            #expect(commands == ["Press", "Release"])
            let held = released?["held_ms"]?.intValue ?? 0
            #expect(held >= 550, "held \(held) ms")
        }
    }

    @Test("the bridge shutting down during a hold still releases the key")
    func heldKeyReleasedOnShutdown() async throws {
        try await withSamsung { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            try await fixture.publish("tv2mqtt/\(Self.id)/set", #"{"key":"KEY_FF","hold_ms":10000}"#)
            await expectReceived(log) { $0["kind"] == "remote_key" && $0["cmd"] == "Press" }
            let started = ContinuousClock.now
            await fixture.stopBridge()
            let released = await expectReceived(log) { $0["kind"] == "remote_key" && $0["cmd"] == "Release" }
            #expect(released?["key"] == "KEY_FF")
            #expect(ContinuousClock.now - started < .seconds(8), "released at shutdown, not after the 10 s hold")
        }
    }

    @Test("search and a held power key are refused on a Samsung with command_failed")
    func searchRefused() async throws {
        try await withSamsung { fixture, _, log in
            await fixture.expectState(Self.id) { $0["power"] == "ON" }
            for payload in [#"{"search":"harry potter"}"#, #"{"key":"KEY_POWER","hold_ms":3000}"#] {
                let before = await fixture.log.count
                try await fixture.publish("tv2mqtt/\(Self.id)/set", payload)
                await fixture.expectEvent("command_failed", "\(payload)", after: before)
            }
            #expect(entries(log, "remote_key").isEmpty)
        }
    }
}
