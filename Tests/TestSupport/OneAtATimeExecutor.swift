import Dispatch

/// Runs one job at a time, like the event loop that runs every task of `tv2mqtt`
/// (`EventLoop.becomeGlobalExecutor`): a task that computes or blocks for a while holds up
/// every other task of this executor for that long. The tests' tasks run on the event loop
/// (`Tests/TestLoopExecutor`), or on Swift's pool in the control run; a test that measures a
/// stall, or proves that a call suspends instead of blocking, runs its tasks here with
/// `Task(executorPreference:)`, where nothing else shares the thread.
public final class OneAtATimeExecutor: TaskExecutor, @unchecked Sendable {
    private let queue = DispatchQueue(label: "one-at-a-time")

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body` on this executor while a ticker beside it asks for 10 ms sleeps (`sleep`)
    /// and measures how late they wake: the longest time `body`'s tasks held the executor.
    public func measureStall<Value: Sendable>(
        sleep: @escaping @Sendable (Duration) async -> Void, _ body: @escaping @Sendable () async -> Value
    ) async -> (value: Value, stall: Duration) {
        let ticking = Task(executorPreference: self) { () -> Duration in
            var worst = Duration.zero
            while !Task.isCancelled {
                let asked = ContinuousClock.now
                await sleep(.milliseconds(10))
                worst = max(worst, ContinuousClock.now - asked - .milliseconds(10))
            }
            return worst
        }
        let value = await Task(executorPreference: self) { await body() }.value
        ticking.cancel()
        return (value, await ticking.value)
    }
}
