import Clients
import Testing

@Suite("ReconnectBackoff: doubling delays, capped, with jitter")
struct ReconnectBackoffTests {
    static let noJitter = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(60), jitter: 0)

    @Test("the defaults: 1 s doubling up to 60 s, ±20 % jitter")
    func defaults() {
        #expect(
            ReconnectBackoff()
                == ReconnectBackoff(initial: .seconds(1), maximum: .seconds(60), jitter: 0.2))
    }

    @Test(
        "without jitter the delay doubles from 1 s and stops at 60 s",
        arguments: [(0, 1), (1, 2), (2, 4), (3, 8), (4, 16), (5, 32), (6, 60), (7, 60), (10, 60)])
    func doubling(attempt: Int, seconds: Int) {
        #expect(Self.noJitter.delay(attempt: attempt, unit: 0.5) == .seconds(seconds))
    }

    @Test(
        "huge attempt numbers neither overflow nor exceed the cap", arguments: [31, 64, 1000, Int.max])
    func hugeAttempts(attempt: Int) {
        #expect(Self.noJitter.delay(attempt: attempt, unit: 0.99) == .seconds(60))
        #expect(ReconnectBackoff().delay(attempt: attempt, unit: 0.99) <= .seconds(60))
    }

    @Test(
        "jitter spreads the delay over ±jitter of it: unit 0 is the low end, 0.5 the middle, near 1 the high end"
    )
    func jitterBounds() {
        let backoff = ReconnectBackoff(initial: .seconds(1), maximum: .seconds(60), jitter: 0.2)
        #expect(backoff.delay(attempt: 0, unit: 0) == .milliseconds(800))
        #expect(backoff.delay(attempt: 0, unit: 0.5) == .seconds(1))
        #expect(backoff.delay(attempt: 2, unit: 0) == .milliseconds(3200))
        let high = backoff.delay(attempt: 2, unit: 0.999_999)
        #expect(high > .milliseconds(4799) && high < .milliseconds(4800) + .microseconds(1))
    }

    @Test(
        "for every attempt and random unit the delay stays within ±jitter of its base and never above the cap"
    )
    func jitterProperty() {
        let backoff = ReconnectBackoff(initial: .milliseconds(500), maximum: .seconds(60), jitter: 0.25)
        var generator = SplitMix64(seed: 42)
        for attempt in 0..<12 {
            let base = min(.milliseconds(500) * (1 << attempt), Duration.seconds(60))
            for _ in 0..<200 {
                let delay = backoff.delay(
                    attempt: attempt, unit: Double.random(in: 0..<1, using: &generator))
                #expect(delay >= base * 0.75)
                #expect(delay <= min(base * 1.25, .seconds(60)))
            }
        }
    }

    @Test("at the cap, jitter only ever shortens the delay, so a fleet still spreads out")
    func jitterAtCap() {
        let backoff = ReconnectBackoff()
        #expect(backoff.delay(attempt: 20, unit: 0) == .seconds(48))
        #expect(backoff.delay(attempt: 20, unit: 0.9) == .seconds(60))
    }

    @Test("a maximum below the initial delay caps even the first delay")
    func maximumBelowInitial() {
        let backoff = ReconnectBackoff(initial: .seconds(5), maximum: .seconds(2), jitter: 0)
        #expect(backoff.delay(attempt: 0, unit: 0.5) == .seconds(2))
        #expect(backoff.delay(attempt: 3, unit: 0.5) == .seconds(2))
    }

    @Test("the delays start again from the shortest only after a connection that was up for stableAfter (2 s)")
    func resetOnlyAfterStableConnection() {
        let backoff = ReconnectBackoff()
        #expect(backoff.stableAfter == .seconds(2))
        #expect(!backoff.resets(afterConnectedFor: nil))  // failed or refused
        #expect(!backoff.resets(afterConnectedFor: .milliseconds(30)))  // dropped right after CONNACK
        #expect(!backoff.resets(afterConnectedFor: .milliseconds(1999)))
        #expect(backoff.resets(afterConnectedFor: .seconds(2)))
        #expect(backoff.resets(afterConnectedFor: .seconds(3600)))
    }
}
