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
            // The driver on a clock the test moves: the backoff's instants are exact, however
            // busy the machine (in real time, a slow attempt pushed the next past the test's wait).
            let clock = ManualClock()
            try await clock.run {
                try await withLGDriver(rig.driver(key: paired.key, pin: paired.pin)) { driver, _ in
                    _ = await driver.poll(full: true)
                    try rig.simulator.apply(["power_mode": "Suspend"])
                    try await lgWait { driver.reconcileInterval == nil }
                    let lost = clock.elapsed
                    // Away 4 s, polled every 200 ms (an eager bridge): polls do not connect.
                    var attemptsAt: [Duration] = []
                    await run(to: lost + .seconds(4), clock, rig, &attemptsAt) { _ = await driver.poll(full: false) }
                    #expect(attemptsAt == [lost + .seconds(1), lost + .seconds(3)], "attempts at \(attemptsAt)")

                    try rig.simulator.apply(["power_mode": "Active"])
                    // The next attempt after 1, 2 and 4 s: at 7 s, and no poll asks for it.
                    await run(to: lost + .seconds(7) - .milliseconds(200), clock, rig, &attemptsAt) {}
                    #expect(driver.reconcileInterval == nil, "reconnected before the backoff's next attempt")
                    await run(to: lost + .seconds(7), clock, rig, &attemptsAt) {}
                    try await lgWait { driver.reconcileInterval != nil }
                    #expect(driver.reconcileInterval != nil, "reconnected and subscribed again without a poll")
                    #expect(attemptsAt.last == lost + .seconds(7))

                    // Reset on success: lost again, the first attempt comes after 1 s, not 8.
                    try rig.simulator.apply(["power_mode": "Suspend"])
                    try await lgWait { driver.reconcileInterval == nil }
                    let again = clock.elapsed
                    try rig.simulator.apply(["power_mode": "Active"])
                    await run(to: again + .seconds(1), clock, rig, &attemptsAt) {}
                    try await lgWait { driver.reconcileInterval != nil }
                    #expect(driver.reconcileInterval != nil, "the backoff starts again at 1 s after a success")
                    #expect(attemptsAt.last == again + .seconds(1))
                }
            }
        }
    }

    /// Moves `clock` to `target` 200 ms at a time (the reconnect loop's nap), calling `each`
    /// after every step; waits (a 30 s hang bound) until the attempts a step started have
    /// ended, so the next is armed from their own instant, and notes when each began.
    private func run(
        to target: Duration, _ clock: ManualClock, _ rig: LGRig, _ attemptsAt: inout [Duration],
        each: () async -> Void
    ) async {
        while clock.elapsed < target {
            let started = attempts(rig)
            await clock.advance(to: min(target, clock.elapsed + .milliseconds(200)))
            let now = clock.elapsed
            _ = await waitUntil { ended(rig) >= attempts(rig) }
            for _ in started..<attempts(rig) { attemptsAt.append(now) }
            await each()
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

    private func ended(_ rig: LGRig) -> Int {
        rig.logs.lines.filter { $0.contains("reconnecting failed") || $0.contains("reconnected to the TV") }.count
    }
}
