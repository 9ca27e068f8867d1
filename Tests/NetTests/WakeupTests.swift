import Harness
import Support
import Testing

@testable import Net

/// `Wakeup` is how pollers and the TV finder sleep; a waiter it loses never ends, and the
/// bridge could not shut down (seen: two finder loops sharing one Wakeup, the first one's
/// continuation overwritten and leaked, SIGTERM never completing).
@Suite("Wakeup")
struct WakeupTests {
    @Test("a signal with nobody waiting is remembered by the next wait")
    func pendingSignal() async {
        let wakeup = Wakeup()
        wakeup.signal()
        let woken = await wakeup.wait(timeout: .seconds(30))
        #expect(woken)
        let again = await wakeup.wait(timeout: .milliseconds(10))
        #expect(!again, "a remembered signal is used once")
    }

    @Test("without a signal, wait returns false at exactly its timeout")
    func timeout() async {
        let wakeup = Wakeup()
        let clock = ManualClock()
        let waiter = Task { await clock.run { await wakeup.wait(timeout: .milliseconds(50)) } }
        #expect(await clock.waitForTimer(at: .milliseconds(50)))
        await clock.advance(to: .milliseconds(50) - .nanoseconds(1))
        #expect(clock.pendingDeadlines == [.milliseconds(50)], "the timeout has not fired")
        await clock.advance(to: .milliseconds(50))
        let woken = await waiter.value
        #expect(!woken)
        #expect(clock.elapsed == .milliseconds(50))
    }

    @Test("a signalled wait's timeout does not end a later wait early")
    func timeoutOfAnEndedWait() async {
        let wakeup = Wakeup()
        let clock = ManualClock()
        // The first wait (1 s) is signalled; its timer stays armed and fires at 1 s, during the
        // second wait (3 s).
        let first = Task { await clock.run { await wakeup.wait(timeout: .seconds(1)) } }
        #expect(await clock.waitForTimer(at: .seconds(1)))
        wakeup.signal()
        #expect(await first.value)
        let second = Task { await clock.run { await wakeup.wait(timeout: .seconds(3)) } }
        #expect(await clock.waitForTimer(at: .seconds(3)))
        await clock.advance(to: .seconds(1))
        #expect(clock.pendingDeadlines == [.seconds(3)])
        // Still waiting: this signal wakes it. Had the first timer ended it, the signal would be
        // left pending and the wait would have returned false.
        wakeup.signal()
        #expect(await second.value, "the first wait's timer ended the second wait")
        // And a wait started at 1 s times out at exactly 4 s.
        let third = Task { await clock.run { await wakeup.wait(timeout: .seconds(3)) } }
        #expect(await clock.waitForTimer(at: .seconds(4)))
        await clock.advance(to: .seconds(4))
        let thirdWoken = await third.value
        #expect(!thirdWoken)
        #expect(clock.elapsed == .seconds(4))
    }

    @Test("one signal wakes every task waiting at that moment")
    func severalWaiters() async {
        let wakeup = Wakeup()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 { group.addTask { await wakeup.wait(timeout: .seconds(30)) } }
            _ = await waitUntil(timeout: .seconds(30)) { wakeup.waiterCount == 3 }
            wakeup.signal()
            var results: [Bool] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results == [true, true, true])
    }

    @Test("cancelling a waiting task ends its wait at once with false, not at its timeout")
    func cancellation() async {
        let wakeup = Wakeup()
        let clock = ManualClock()
        let waiter = Task { await clock.run { await wakeup.wait(timeout: .seconds(30)) } }
        #expect(await clock.waitForTimer(at: .seconds(30)))
        waiter.cancel()
        let woken = await waiter.value
        #expect(!woken)
        #expect(clock.elapsed == .zero)
    }
}
