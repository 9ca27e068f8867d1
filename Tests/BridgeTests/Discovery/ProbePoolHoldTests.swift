import Harness
import Net
import Synchronization
import Testing

@testable import Bridge

/// `ProbePool.run(holdingAtMost:)` bounds how long a probe keeps its slot (a loop timer gives
/// it back), not how long the probe runs: the caller still gets the probe's result.
@Suite("ProbePool hold")
struct ProbePoolHoldTests {
    @Test("work that ends first gives its slot back at once and its value to the caller")
    func quickWork() async {
        let pool = ProbePool(concurrency: 1)
        let value = await pool.run(holdingAtMost: .seconds(30)) { 7 }
        #expect(value == 7)
        let inUse = await pool.inUse
        #expect(inUse == 0)
    }

    @Test("slow work gives its slot back after the hold and still returns its value")
    func slowWork() async throws {
        let pool = ProbePool(concurrency: 1)
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let started = ContinuousClock.now
        let slow = Task {
            await pool.run(holdingAtMost: .milliseconds(200)) { () -> Int in
                await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
                return 9
            }
        }
        let running = await waitUntil(timeout: .seconds(30)) { release.withLock { $0 != nil } }
        try #require(running)
        // The second probe gets the only slot while the first is still running (it cannot end
        // before this test lets it).
        await pool.acquire()
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(200))
        #expect(waited < .seconds(10))
        await pool.release()
        release.withLock { $0?.resume() }
        let value = await slow.value
        #expect(value == 9)
        let inUse = await pool.inUse
        #expect(inUse == 0, "the slot was given back once, not again when the work ended")
    }
}
