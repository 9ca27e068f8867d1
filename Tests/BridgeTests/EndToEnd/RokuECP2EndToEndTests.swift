import Clients
import Drivers
import Harness
import Net
import TVModel
import TVSimulators
import Testing
import Wire

@testable import Bridge

/// ECP-2 through the whole bridge: simulated Rokus speaking ECP-2, a real mosquitto, the real
/// driver. The fixture polls every second; while the TV pushes, the bridge polls every 60 s.
/// The push tests run the bridge under a `ManualClock` that stands still once the session is
/// up: a change that reaches MQTT then was pushed, since no poll can have run.
@Suite("Roku ECP-2 end to end")
struct RokuECP2EndToEndTests {
    let e2e = RokuEndToEndTests()

    /// Starts the bridge with SSDP and waits until `tv` is on ECP-2 with the slow poll in force.
    func startPushing(_ fixture: BridgeFixture, _ rokus: SimulatedRokus, _ tv: RokuSimulator) async throws -> String {
        try await e2e.startBridge(fixture, rokus)
        let id = SimulatedRokus.id(tv)
        await fixture.expectState(id, "the state says ECP-2") { $0["control"] == "ecp-2" }
        // The poll loop may still be in its 1 s wait; after it, it waits 60 s.
        try await Task.sleep(for: .milliseconds(1500))
        return id
    }

    /// `startPushing` under `clock`, at virtual time 0: the first poll fires, the session opens,
    /// and the next poll is armed a reconcile interval (60 s) after the last round (at 0 or 1 s).
    func startPushing(
        _ fixture: BridgeFixture, _ rokus: SimulatedRokus, _ tv: RokuSimulator, under clock: ManualClock
    ) async throws -> String {
        try await e2e.startBridge(fixture, rokus)
        let id = SimulatedRokus.id(tv)
        #expect(await clock.waitForTimer(at: .zero))
        await clock.advance(to: .zero)
        await fixture.expectState(id, "the state says ECP-2") { $0["control"] == "ecp-2" }
        if !clock.pendingDeadlines.contains(.seconds(60)) {
            // The round that found the session had armed the next poll at 1 s already.
            #expect(await clock.waitForTimer(at: .seconds(1)))
            await clock.advance(to: .seconds(1))
        }
        let slow = await clock.waitForTimers { $0.contains(.seconds(60)) || $0.contains(.seconds(61)) }
        #expect(slow, "no poll armed 60 s on: \(clock.pendingDeadlines)")
        return id
    }

    @Test("a /sim/state change is pushed to <base>/<tv>/state while time stands still and polls wait 60 s")
    func pushLatency() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true)
            let clock = ManualClock()
            try await clock.run {
                let id = try await startPushing(fixture, rokus, tv, under: clock)
                let at = clock.elapsed
                try tv.apply(["app": "837"])
                await fixture.expectState(id) { $0["app"] == "YouTube" && $0["media_state"] == "playing" }
                try tv.apply(["power": "standby"])
                await fixture.expectState(id) { $0["power"] == "OFF" && $0["power_mode"] == "Ready" }
                #expect(clock.elapsed == at, "no time passed, so no poll brought the changes")
            }
        }
    }

    @Test("volume and mute entities appear once the TV reports its volume; volume is set")
    func volume() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true)
            let id = try await startPushing(fixture, rokus, tv)
            try await fixture.use("volume_up", of: id)
            await fixture.expectState(id) { $0["volume"] == 16 && $0["muted"] == false }
            let entity = try await fixture.component("volume", of: id)
            _ = try await fixture.component("mute", of: id)
            let topic = try #require(entity["command_topic"]?.stringValue)
            try await fixture.publish(topic, "30")
            await fixture.expectState(id) { $0["volume"] == 30 }
            #expect(tv.state.volume == 30)
        }
    }

    @Test("a 30-character search typed from the keyboard entity arrives complete and in order")
    func typing() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true)
            let id = try await startPushing(fixture, rokus, tv)
            let search = "the quick brown fox jumps 1234"
            #expect(search.count == 30)
            try await fixture.use("keyboard", of: id, payload: search)
            let typed = await waitUntil(timeout: .seconds(30)) {
                rokus.entries("text", of: tv).compactMap { $0["text"]?.stringValue }.joined() == search
            }
            let entries = rokus.entries("text", of: tv)
            let texts = entries.compactMap { $0["text"]?.stringValue }
            let overSession = entries.allSatisfy { $0["via"] == "ecp-2" }
            #expect(typed, "typed: \(texts)")
            #expect(overSession)
        }
    }

    @Test("push lost: the state says ecp again and polling resumes at poll_interval")
    func pushLost() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true)
            let clock = ManualClock()
            try await clock.run {
                let id = try await startPushing(fixture, rokus, tv, under: clock)
                let beforeLoss = await fixture.log.count
                tv.setECP2(false)  // sessions closed, upgrades refused: the TV no longer pushes
                await fixture.expectState(id, after: beforeLoss) { $0["control"] == "ecp" }
                // A poll at once, then one each poll_interval (1 s), not after the 60 s reconcile
                // wait. The clock moves a second at a time and each poll's virtual time is noted:
                // other timers share those instants (the lost session's reconnect, request
                // deadlines), so a poll's own timer cannot be told from them, and on a starved
                // run the clock may pass an instant before the poll before it has armed it. The
                // cadence is what is asserted: three polls, none more than a few seconds apart.
                let lost = clock.elapsed
                var polls: [Duration] = []
                var at = lost
                while polls.count < 3, at < lost + .seconds(30) {
                    let before = tv.httpRequestCount
                    at += .seconds(1)
                    await clock.advance(to: at)
                    if await waitUntil(timeout: .seconds(5), { tv.httpRequestCount > before }) { polls.append(at) }
                }
                let gaps = zip([lost] + polls, polls).map { $1 - $0 }
                let atPollInterval = gaps.allSatisfy { $0 <= .seconds(3) }
                #expect(polls.count == 3, "polls at \(polls) after the loss at \(lost)")
                #expect(atPollInterval, "gaps \(gaps): polling did not resume at poll_interval")
                // The change shows at one of the next polls (the one under way may have read the
                // app already): the clock moves one poll_interval at a time until it does.
                try tv.apply(["app": "12"])
                var shown = false
                for _ in 1...10 where !shown {
                    at += .seconds(1)
                    await clock.advance(to: at)
                    let state = await fixture.log.waitFor("tv2mqtt/\(id)/state", timeout: .seconds(5)) { message in
                        (try? JSONParser.parse(message.payload))?["app"] == "Netflix"
                    }
                    shown = state != nil
                }
                #expect(shown, "Netflix never showed")
            }
        }
    }

    @Test("Limited mode with ECP-2: keys still reach the TV; the state says limited and ecp-2")
    func limitedMode() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", limited: true, ecp2: true)
            let id = try await startPushing(fixture, rokus, tv)
            await fixture.expectState(id) { $0["limited_mode"] == true && $0["control"] == "ecp-2" }
            try await fixture.use("home", of: id)
            await expectReceived(rokus.log) { $0["key"] == "Home" && $0["via"] == "ecp-2" && $0["refused"] == nil }
            try await Task.sleep(for: .milliseconds(300))
            let failures = await fixture.log.all("tv2mqtt/bridge/event").filter {
                (try? JSONParser.parse($0.payload))?["type"] == "command_failed"
            }
            #expect(failures.isEmpty)
        }
    }

    @Test("roku.ecp2 off keeps the driver on HTTP ECP")
    func off() async throws {
        try await withRokus { fixture, rokus in
            let tv = try await rokus.start("127.0.0.2", ecp2: true)
            try await e2e.startBridge(fixture, rokus) { $0.vendorSettings[RokuSettings.self].ecp2 = .off }
            let id = SimulatedRokus.id(tv)
            await fixture.expectState(id) { $0["control"] == "ecp" }
            try await fixture.use("home", of: id)
            await expectReceived(rokus.log) { $0["key"] == "Home" && $0["via"] == nil }
            #expect(tv.ecp2SessionCount == 0)
        }
    }
}
