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

    @Test("slow work gives its slot back at exactly the hold and still returns its value")
    func slowWork() async throws {
        let clock = ManualClock()
        let pool = ProbePool(concurrency: 1)
        let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let slow = Task {
            await clock.run {
                await pool.run(holdingAtMost: .milliseconds(200)) { () -> Int in
                    await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
                    return 9
                }
            }
        }
        let running = await waitUntil(timeout: .seconds(30)) { release.withLock { $0 != nil } }
        try #require(running)
        try #require(await clock.waitForTimer(at: .milliseconds(200)))
        await clock.advance(by: .milliseconds(199))
        #expect(await pool.inUse == 1, "the slot was given back before the hold")
        await clock.advance(by: .milliseconds(1))
        // The first probe is still running (it cannot end before this test lets it), yet its
        // slot is free.
        let freed = await waitUntil(timeout: .seconds(30)) { await pool.inUse == 0 }
        #expect(freed)
        await pool.acquire()
        await pool.release()
        release.withLock { $0?.resume() }
        let value = await slow.value
        #expect(value == 9)
        let inUse = await pool.inUse
        #expect(inUse == 0, "the slot was given back once, not again when the work ended")
    }
}
