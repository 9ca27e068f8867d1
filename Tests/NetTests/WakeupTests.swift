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

    @Test("without a signal, wait returns false after its timeout")
    func timeout() async {
        let wakeup = Wakeup()
        let started = ContinuousClock.now
        let woken = await wakeup.wait(timeout: .milliseconds(50))
        #expect(!woken)
        #expect(ContinuousClock.now - started >= .milliseconds(45))
    }

    @Test("a signalled wait's timeout does not end a later wait early")
    func timeoutOfAnEndedWait() async throws {
        // The first wait's 1 s timer must fire while the second wait (3 s) is in progress and
        // must not end it. The signal is sent once the first waiter is registered; on a machine
        // so busy that its 1 s ran out first (before the signal, or before this task saw it
        // registered), that attempt proves nothing and is made again.
        for _ in 0..<3 {
            let wakeup = Wakeup()
            let waiter = Task { await wakeup.wait(timeout: .seconds(1)) }
            let registered = await waitUntil(timeout: .seconds(5)) { wakeup.waiterCount == 1 }
            guard registered else { continue }
            wakeup.signal()
            guard await waiter.value else { continue }
            let started = ContinuousClock.now
            let woken = await wakeup.wait(timeout: .seconds(3))
            #expect(!woken)
            // A timeout never fires early; the margin only absorbs the clock's rounding.
            #expect(ContinuousClock.now - started >= .milliseconds(2_990))
            return
        }
        Issue.record("three first waits in a row timed out before their signal")
    }

    @Test("one signal wakes every task waiting at that moment")
    func severalWaiters() async {
        let wakeup = Wakeup()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 { group.addTask { await wakeup.wait(timeout: .seconds(30)) } }
            try? await Task.sleep(for: .milliseconds(100))  // let all three start waiting
            wakeup.signal()
            var results: [Bool] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(results == [true, true, true])
    }

    @Test("cancelling a waiting task ends its wait at once with false")
    func cancellation() async {
        let wakeup = Wakeup()
        let waiter = Task { await wakeup.wait(timeout: .seconds(30)) }
        try? await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        waiter.cancel()
        let woken = await waiter.value
        #expect(!woken)
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
