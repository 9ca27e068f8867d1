import Net
import Testing

@testable import StatusPage

/// The failure budget's timing, under a `ManualClock`: each failure waits the delay, a
/// source's budget is spent for the rest of its window, and each source has its own.
@Suite("Status page token failures")
struct TokenFailuresTests {
    @Test("a failure answers after the delay; the budget is spent until its window ends")
    func delayAndWindow() async {
        let clock = ManualClock()
        let limits = StatusPageLimits()
        let failures = TokenFailures(limits: limits)
        await clock.run {
            let first = Task { () -> Duration in
                _ = await failures.fail(from: "192.0.2.1")
                return clock.elapsed
            }
            let armed = await clock.waitForTimer(at: limits.wrongTokenDelay)
            #expect(armed)
            await clock.advance(to: limits.wrongTokenDelay)
            let answered = await first.value
            #expect(answered == .seconds(1))
            for _ in 1..<limits.tokenFailureBudget { failures.record(from: "192.0.2.1") }
            #expect(failures.isSpent(by: "192.0.2.1"))
            #expect(!failures.isSpent(by: "192.0.2.2"), "each address has its own budget")
            // The window started with the first failure, at 0 s.
            await clock.advance(to: limits.tokenFailureWindow - .milliseconds(1))
            #expect(failures.isSpent(by: "192.0.2.1"))
            await clock.advance(to: limits.tokenFailureWindow)
            #expect(!failures.isSpent(by: "192.0.2.1"))
        }
    }

    @Test("the first failure of a window is the one to log; the next ones are not")
    func logOncePerWindow() async {
        let clock = ManualClock()
        let limits = StatusPageLimits()
        let failures = TokenFailures(limits: limits)
        await clock.run {
            #expect(failures.record(from: "192.0.2.1") == 1)
            #expect(failures.record(from: "192.0.2.1") == 2)
            await clock.advance(to: limits.tokenFailureWindow)
            #expect(failures.record(from: "192.0.2.1") == 1)
        }
    }
}
