import Testing

@testable import Drivers

/// A lost SSAP socket is re-established by the driver with a bounded exponential backoff
/// (1 s doubling to 60 s, reset on success), not at every poll.
@Suite("LG driver reconnect with backoff", .serialized)
struct LGDriverReconnectTests {
    @Test("the TV away: a few attempts, not one per poll; back: reconnected within the backoff without a poll")
    func backoff() async throws {
        try await withLGRig { rig in
            let paired = try await rig.pair()
            try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                _ = await driver.poll(full: true)
                try rig.simulator.apply(["power_mode": "Suspend"])
                try await lgWait { driver.reconcileInterval == nil }
                // Away 4 s, polled every 250 ms (an eager bridge): attempts near 1 s and 3 s, where
                // connecting at each poll would make about 16.
                let clock = ContinuousClock()
                let start = clock.now
                while clock.now - start < .seconds(4) {
                    _ = await driver.poll(full: false)
                    try await Task.sleep(for: .milliseconds(250))
                }
                let away = attempts(rig)
                #expect(away >= 1 && away <= 5, "\(away) connection attempts in 4 s away")

                try rig.simulator.apply(["power_mode": "Active"])
                // The next attempt is due about 7 s after the loss (after 1, 2 and 4 s): well
                // within 20 s, and no poll asks for it.
                try await lgWait(seconds: 20) { driver.reconcileInterval != nil }
                #expect(driver.reconcileInterval != nil, "reconnected and subscribed again without a poll")
                #expect(attempts(rig) <= away + 3)

                // Reset on success: lost again, the first attempt comes after about 1 s, not 16.
                try rig.simulator.apply(["power_mode": "Suspend"])
                try await lgWait { driver.reconcileInterval == nil }
                try rig.simulator.apply(["power_mode": "Active"])
                try await lgWait(seconds: 8) { driver.reconcileInterval != nil }
                #expect(driver.reconcileInterval != nil, "the backoff starts again at 1 s after a success")
            }
        }
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
}
