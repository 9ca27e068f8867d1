import Net
import TVModel
import TVSimulators
import TestSupport
import Testing
import Wire

@testable import Drivers

/// The Android TV driver's deadlines on a clock the test moves, with real sockets: a TV that
/// never starts its remote session fails the poll at exactly the ready timeout, and a session
/// that goes silent is dropped at exactly 16 s after the last message.
@Suite("Android TV driver: the ready timeout and the silence deadline, in virtual time", .takesTurns)
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
}
