import Net
import Support
import Testing

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
    func timeoutOfAnEndedWait() async {
        let wakeup = Wakeup()
        let waiter = Task { await wakeup.wait(timeout: .milliseconds(100)) }
        try? await Task.sleep(for: .milliseconds(20))
        wakeup.signal()
        #expect(await waiter.value)
        let started = ContinuousClock.now
        let woken = await wakeup.wait(timeout: .milliseconds(400))
        #expect(!woken)
        #expect(ContinuousClock.now - started >= .milliseconds(390))
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
