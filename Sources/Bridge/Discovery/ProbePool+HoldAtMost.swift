import Net
import Synchronization

extension ProbePool {
    /// Runs `work` in a slot, but holds the slot for at most `limit`: work that takes longer
    /// (a TV that does not answer waits for its connect timeout) gives the slot back and
    /// finishes outside the bound. The bound is on how fast new work starts, not on how long
    /// the slowest takes: a few hundred unplugged TVs delay the others by seconds, not minutes.
    nonisolated func run<Result: Sendable>(
        holdingAtMost limit: Duration, _ work: @escaping @Sendable () async -> Result
    ) async -> Result {
        await acquire()
        let slot = HeldSlot(pool: self)
        // Armed by a task of its own, as the work runs in this one: when the executor is busy
        // (a start with hundreds of TVs), the hold starts as late as the work does, so a slot
        // is not given back before its work had its turn.
        Task { LoopClock.current.startTask(at: LoopClock.current.now + limit) { await slot.release() } }
        let outcome = await work()
        await slot.release()
        return outcome
    }
}

/// A slot released once, by whichever comes first: the work's end or the hold's timer.
private final class HeldSlot: Sendable {
    private let pool: ProbePool
    private let held = Mutex(true)

    init(pool: ProbePool) { self.pool = pool }

    func release() async {
        let wasHeld = held.withLock { held in
            defer { held = false }
            return held
        }
        if wasHeld { await pool.release() }
    }
}
