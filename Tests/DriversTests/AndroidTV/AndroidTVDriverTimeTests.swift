import Harness
import Net
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Drivers

/// The Android TV driver's deadlines on a clock the test moves, with real sockets: a TV that
/// never starts its remote session fails the poll at exactly the ready timeout, a session
/// that goes silent is dropped at exactly 16 s after the last message, a lost session is
/// reopened with LG's backoff, and Wake-on-LAN goes twice, 3 s apart.
@Suite(
    "Android TV driver: the ready timeout and the silence deadline, in virtual time", .takesTurns,
    .timeLimit(.minutes(3)))
struct AndroidTVDriverTimeTests {
    @Test("a TV that never configures: the poll fails at exactly 10 s, saying so")
    func neverConfigures() async throws {
        let (tv, _) = try await AndroidTVDriverTests.simulator { $0.fault = .neverConfigure }
        let pin = try await AndroidTVDriverTests.pairedPin(tv)
        let driver = AndroidTVDriverTests.driver(tv, pin: pin)
        let clock = ManualClock()
        let polled = Task {
            await clock.run { () -> (TVSnapshot, Duration) in (await driver.poll(full: true), clock.elapsed) }
        }
        #expect(await clock.waitForTimer(at: .seconds(10)))
        await clock.advance(to: .seconds(10))
        let (snapshot, at) = await polled.value
        #expect(!snapshot.reachable && at == .seconds(10), "\(snapshot) at \(at)")
        #expect(snapshot.unreachableHint?.contains("did not start it within 10 s") == true, "\(snapshot)")
        await driver.shutdown()
        await tv.stop()
    }

    @Test("a session that goes silent is dropped at exactly 16 s after the TV's last message")
    func silence() async throws {
        let (tv, _) = try await AndroidTVDriverTests.simulator { $0.pingInterval = .seconds(3600) }
        let pin = try await AndroidTVDriverTests.pairedPin(tv)
        let driver = AndroidTVDriverTests.driver(tv, pin: pin)
        let clock = ManualClock()
        let events = Task { () -> [DriverEvent] in
            var seen: [DriverEvent] = []
            for await event in driver.events {
                seen.append(event)
                if case .state(let snapshot) = event, !snapshot.reachable { break }
            }
            return seen
        }
        let polled = await clock.run { await driver.poll(full: true) }
        #expect(polled.reachable && polled.power == true)
        #expect(await clock.waitForTimer(at: .seconds(16)))
        await clock.advance(to: .seconds(16))
        let seen = await events.value
        guard case .state(let last)? = seen.last else {
            Issue.record("no state event: \(seen)")
            return
        }
        #expect(!last.reachable && last.unreachableHint?.contains("silent") == true, "\(last)")
        await driver.shutdown()
        await tv.stop()
    }

    @Test(
        "a TV fallen into deep sleep: reopened 1 s after, then 2 s later; power ON wakes it twice 3 s apart, then at once"
    )
    func deepSleep() async throws {
        var options = AndroidTVSimulatorOptions()
        (options.host, options.remotePort, options.pairingPort, options.simPort) = ("127.0.0.9", 0, 0, 0)
        options.wolPort = 0
        let log = CommandLog.memory()
        let tv = try await AndroidTVSimulator.start(options, log: log)
        let pin = try await AndroidTVDriverTests.pairedPin(tv)
        // A connect timeout far from the instants the test watches (1, 3, 6 and 7 s).
        let settings = DriverSettings(
            wolTargets: [DriverSettings.WakeTarget(host: "127.0.0.1", port: try #require(tv.wolPort))], wolRepeat: 1,
            connectTimeout: .seconds(100), logger: .disabled)
        let driver = AndroidTVDriverTests.driver(tv, pin: pin, settings: settings)
        let clock = ManualClock()
        let awake = await clock.run { await driver.poll(full: true) }
        #expect(awake.power == true)
        let asleep = { log.entries.filter { $0["kind"] == "remote" && $0["action"] == "asleep" }.count }
        let connected = { log.entries.filter { $0["kind"] == "remote" && $0["action"] == "connected" }.count }
        // The pairing driver's own session may have connected too: count from here.
        let sessionsAwake = connected()
        try tv.apply(["power": "off"])
        #expect(await clock.waitForTimer(at: .seconds(1)), "the first attempt 1 s after the loss")
        await clock.advance(to: .seconds(1))
        #expect(await clock.waitForTimer(at: .seconds(3)), "the next 2 s after the first failed")
        await clock.advance(to: .seconds(3))
        #expect(await clock.waitForTimer(at: .seconds(7)), "the next 4 s after the second failed")
        #expect(asleep() == 2)
        let powered = Task { try await clock.run { try await driver.perform(.power(.on)) } }
        #expect(await clock.waitForTimer(at: .seconds(6)), "the second Wake-on-LAN 3 s after the first")
        let first = await log.waitFor { $0["kind"] == "wake" }
        #expect(first?["was_asleep"] == true)
        await clock.advance(to: .seconds(6))
        try await powered.value
        let second = await log.waitFor { $0["kind"] == "wake" && $0["was_asleep"] == false }
        #expect(second != nil, "the second packet reached a TV already awake")
        let back = await waitUntil(timeout: .seconds(30)) { tv.sessionCount == 1 && connected() > sessionsAwake }
        #expect(back && clock.elapsed == .seconds(6), "reopened at once after the wake, not at the 7 s attempt")
        await driver.shutdown()
        await tv.stop()
    }

    @Test("a changed certificate: certificate_changed once, and no further connection until paired again")
    func certificateChanged() async throws {
        let (tv, log) = try await AndroidTVDriverTests.simulator()
        _ = try await AndroidTVDriverTests.pairedPin(tv)
        let wrong = String(repeating: "ab", count: 32)
        let driver = AndroidTVDriverTests.driver(tv, pin: wrong)
        let events = Task { () -> DriverEvent? in
            for await event in driver.events {
                if case .certificateChanged = event { return event }
            }
            return nil
        }
        let clock = ManualClock()
        let first = await clock.run { await driver.poll(full: true) }
        #expect(
            first.pairingRequired == true && first.unreachableHint?.contains("certificate changed") == true, "\(first)")
        guard case .certificateChanged(let pinned, let seen)? = await events.value else {
            Issue.record("no certificate_changed event")
            return
        }
        let presented = try await AndroidTVDriverTests.fingerprint(tv)
        #expect(pinned == wrong && seen == presented)
        let remoteEntries = { log.entries.filter { $0["kind"] == "remote" }.count }
        let attempts = remoteEntries()
        let second = await clock.run { await driver.poll(full: true) }
        #expect(second.pairingRequired == true && remoteEntries() == attempts)
        await driver.shutdown()
        await tv.stop()
    }

    @Test("a poll that ends after shutdown opens no remote session again")
    func pollAfterShutdown() async throws {
        let (tv, log) = try await AndroidTVDriverTests.simulator()
        let pin = try await AndroidTVDriverTests.pairedPin(tv)
        let driver = AndroidTVDriverTests.driver(tv, pin: pin)
        let clock = ManualClock()
        let connected = { log.entries.filter { $0["kind"] == "remote" && $0["action"] == "connected" }.count }
        let before = await clock.run { await driver.poll(full: true) }
        #expect(before.reachable)
        await driver.shutdown()
        // The pairing driver's own session may connect late; count from here.
        let sessions = connected()
        let after = await clock.run { await driver.poll(full: true) }
        #expect(!after.reachable && connected() == sessions, "a poll after shutdown connected again")
        await tv.stop()
    }

    @Test("a TV never paired is reachable only while its remote port answers")
    func unpairedReachability() async throws {
        let (tv, _) = try await AndroidTVDriverTests.simulator()
        let driver = AndroidTVDriverTests.driver(tv)
        let clock = ManualClock()
        let up = await clock.run { await driver.poll(full: true) }
        #expect(up.reachable && up.pairingRequired == true, "\(up)")
        // The TV gone from its address: nothing listens there (a stopped simulator's listener
        // may still take connections for a moment on a busy machine).
        await driver.updateHost("127.0.0.70")
        let down = await clock.run { await driver.poll(full: true) }
        #expect(!down.reachable, "a TV whose port is closed was reported reachable: \(down)")
        await driver.shutdown()
        await tv.stop()
    }
}
