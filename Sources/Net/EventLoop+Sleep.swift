extension EventLoop {
    /// `Task.sleep(for:)` on the loop's timers: suspends for `duration`, or throws
    /// `CancellationError` as soon as the task is cancelled. The project's code sleeps with this,
    /// not `Task.sleep`, which on Swift 6.3 goes to Dispatch's timer thread and resumes the task
    /// on a Dispatch worker (see `schedule(at:_:)`); here the loop wakes itself at the deadline
    /// and, as the global executor, resumes the task on its own thread.
    public static func sleep(for duration: Duration) async throws {
        try await sleep(until: .now + duration)
    }

    /// `Task.sleep(until:clock: .continuous)` on the loop's timers (see `sleep(for:)`): a
    /// `Wakeup` that nobody signals, so only its timeout or a cancellation ends the wait. A
    /// deadline already past returns without suspending.
    public static func sleep(until deadline: ContinuousClock.Instant) async throws {
        let remaining = ContinuousClock.now.duration(to: deadline)
        if remaining > .zero { _ = await Wakeup().wait(timeout: remaining) }
        try Task.checkCancellation()
    }
}
