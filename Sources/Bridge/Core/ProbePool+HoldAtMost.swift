import Net

extension ProbePool {
    /// Runs `work` in a slot, but holds the slot for at most `limit`: work that takes longer
    /// (a TV that does not answer waits for its connect timeout) gives the slot back and
    /// finishes outside the bound. The bound is on how fast new work starts, not on how long
    /// the slowest takes: a few hundred unplugged TVs delay the others by seconds, not minutes.
    nonisolated func run<Result: Sendable>(
        holdingAtMost limit: Duration, _ work: @escaping @Sendable () async -> Result
    ) async -> Result {
        await acquire()
        return await withTaskGroup(of: Result?.self) { group in
            group.addTask { await work() }
            group.addTask {
                try? await EventLoop.sleep(for: limit)
                return nil
            }
            var outcome: Result?
            var holding = true
            for await finished in group {
                if holding {
                    holding = false
                    await release()
                }
                if let finished {
                    outcome = finished
                    group.cancelAll()  // the slot's timer
                }
            }
            // The work task always finishes with a value; the group ends only after it.
            return outcome!
        }
    }
}
