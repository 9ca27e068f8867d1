import Net

extension ManualClock {
    /// Moves time on one `step` at a time, at most `steps` times, until `condition` holds; after
    /// each step it waits up to `settle` of real time for the work the step started (a poll over
    /// real sockets). For a state that a poll brings: the test asserts what the polls showed,
    /// and the virtual time it took is a whole number of steps.
    public func step(
        by step: Duration, atMost steps: Int = 10, settle: Duration = .seconds(3),
        until condition: @escaping () async -> Bool
    ) async -> Bool {
        for _ in 0..<steps {
            if await condition() { return true }
            await advance(by: step)
            let deadline = ContinuousClock.now + settle
            while ContinuousClock.now < deadline {
                if await condition() { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        return await condition()
    }
}
