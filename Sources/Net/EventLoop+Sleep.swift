extension EventLoop {
    /// `Task.sleep(for:)` on `clock`'s timers (the running task's `LoopClock` unless given):
    /// suspends for `duration`, or throws `CancellationError` as soon as the task is cancelled.
    /// The project's code sleeps with this, not `Task.sleep`, which on Swift 6.3 goes to
    /// Dispatch's timer thread and resumes the task on a Dispatch worker (see `schedule(at:_:)`);
    /// here the loop wakes itself at the deadline and, as the global executor, resumes the task
    /// on its own thread.
    public static func sleep(for duration: Duration, clock: LoopClock = .current) async throws {
        try await sleep(until: clock.now + duration, clock: clock)
    }

    /// `Task.sleep(until:clock: .continuous)` on `clock`'s timers (see `sleep(for:)`): a
    /// `Wakeup` that nobody signals, so only its timeout or a cancellation ends the wait. A
    /// deadline already past returns without suspending.
    public static func sleep(until deadline: ContinuousClock.Instant, clock: LoopClock = .current)
        async throws
    {
        let remaining = clock.now.duration(to: deadline)
        if remaining > .zero { _ = await Wakeup().wait(timeout: remaining, clock: clock) }
        try Task.checkCancellation()
    }
}
