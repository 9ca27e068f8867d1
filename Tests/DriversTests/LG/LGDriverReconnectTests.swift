import Harness
import Net
import Testing

@testable import Drivers

/// A lost SSAP socket is re-established by the driver with a bounded exponential backoff
/// (1 s doubling to 60 s, reset on success), not at every poll.
@Suite("LG driver reconnect with backoff", .serialized)
struct LGDriverReconnectTests {
    @Test("the TV away: attempts at exactly 1 and 3 s, not one per poll; back: reconnected at 7 s without a poll")
    func backoff() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            // The driver on a clock only the test moves, and only while no attempt runs: each
            // attempt begins at its timer's instant, and the next is armed from it.
            let clock = ManualClock()
            try await clock.run {
                try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                    _ = await driver.poll(full: true)
                    try rig.simulator.apply(["power_mode": "Suspend"])
                    try await lgWait { driver.reconcileInterval == nil }
                    let lost = clock.elapsed
                    // Away, polled every 200 ms (an eager bridge): polls do not connect.
                    try await attempt(at: lost + .seconds(1), clock, rig, number: 1) {
                        _ = await driver.poll(full: false)
                    }
                    try await attempt(at: lost + .seconds(3), clock, rig, number: 2) {
                        _ = await driver.poll(full: false)
                    }

                    try rig.simulator.apply(["power_mode": "Active"])
                    // The next after 1, 2 and 4 s: at 7 s, and no poll asks for it.
                    try await attempt(at: lost + .seconds(7), clock, rig, number: 3) {
                        #expect(driver.reconcileInterval == nil, "reconnected at \(clock.elapsed - lost), before 7 s")
                    }
                    try await lgWait { driver.reconcileInterval != nil }
                    #expect(driver.reconcileInterval != nil, "reconnected and subscribed again without a poll")

                    // Reset on success: lost again, the first attempt comes after 1 s, not 8.
                    try rig.simulator.apply(["power_mode": "Suspend"])
                    try await lgWait { driver.reconcileInterval == nil }
                    let again = clock.elapsed
                    try rig.simulator.apply(["power_mode": "Active"])
                    try await attempt(at: again + .seconds(1), clock, rig, number: 4) {}
                    try await lgWait { driver.reconcileInterval != nil }
                    #expect(driver.reconcileInterval != nil, "the backoff starts again at 1 s after a success")
                }
            }
        }
    }

    /// Expects the reconnect loop's timer at `instant`, moves the clock there 200 ms at a time
    /// calling `between` at each step before it (no attempt begins there), then expects attempt
    /// `number` to begin and end at `instant` (a 30 s hang bound for each).
    private func attempt(
        at instant: Duration, _ clock: ManualClock, _ rig: LGRig, number: Int, between: () async -> Void
    ) async throws {
        let armed = await clock.waitForTimer(at: instant)
        #expect(armed, "no attempt armed at \(instant): \(clock.pendingDeadlines)")
        while clock.elapsed + .milliseconds(200) < instant {
            await clock.advance(by: .milliseconds(200))
            await between()
            #expect(attempts(rig) == number - 1, "an attempt at \(clock.elapsed), before \(instant)")
        }
        await clock.advance(to: instant)
        let ended = await waitUntil { attempts(rig) == number && self.ended(rig) == number }
        #expect(ended, "attempt \(number) at \(instant): \(attempts(rig)) begun, \(self.ended(rig)) ended")
    }

    @Test("after shutdown nothing connects again: not the refresh a pairing started, not a poll")
    func nothingAfterShutdown() async throws {
        try await withLGRig { rig in
            let driver = rig.driver()
            try await driver.pair()  // starts the read-and-subscribe refresh in the background
            await driver.shutdown()
            let after = await driver.poll(full: false)
            #expect(!after.reachable)
            try await Task.sleep(for: .seconds(1))
            #expect(rig.simulator.connectionCount == 0, "a connection was opened after shutdown")
        }
    }

    private func attempts(_ rig: LGRig) -> Int {
        rig.logs.lines.filter { $0.contains("reconnecting to the TV") }.count
    }

    private func ended(_ rig: LGRig) -> Int {
        rig.logs.lines.filter { $0.contains("reconnecting failed") || $0.contains("reconnected to the TV") }.count
    }
}
