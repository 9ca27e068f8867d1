import Support

/// The one clock of the library: every deadline, interval, expiry, rate window and "now" reads
/// it, and every timer is armed on it. A task reads the clock it was started under
/// (`LoopClock.current`, inherited by the tasks it starts); tv2mqtt runs under `system`, the
/// monotonic clock whose timers are the event loop's, and a test runs the code it drives under
/// a `ManualClock`, whose time moves only when the test advances it.
///
/// Instants stay `ContinuousClock.Instant`: a manual clock's instants start at the real instant
/// it was made and move by `advance`, so code never knows which clock it reads.
public struct LoopClock: Sendable {
    /// The clock of the running task, and of every task it starts.
    @TaskLocal public static var current = LoopClock.system

    /// The monotonic clock, with the event loop's timers.
    public static let system = LoopClock(manual: nil)

    let manual: ManualClock?

    init(manual: ManualClock?) { self.manual = manual }

    /// Monotonic "now", for deadlines and elapsed times.
    public var now: ContinuousClock.Instant { manual?.now ?? ContinuousClock.now }

    /// Wall-clock seconds since the Unix epoch, for timestamps a person reads (`last_seen`, uptime).
    public var wallSeconds: Double { manual?.wallSeconds ?? wallClockSeconds() }

    /// Whether time moves only when a test advances it.
    public var isManual: Bool { manual != nil }

    /// Calls `action` once `deadline` has passed: on the loop's thread for `system` (see
    /// `EventLoop.schedule(at:_:)`), inside `advance` for a manual clock. There is no cancelling:
    /// an action that may no longer matter checks for itself (a generation, an id already answered).
    public func schedule(
        at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void
    ) {
        if let manual {
            manual.schedule(at: deadline, action)
        } else {
            EventLoop.shared.schedule(at: deadline, action)
        }
    }

    /// Starts a task running `action` once `deadline` has passed, under this clock: an actor's
    /// deadline costs a timer until then, not a task sleeping all that time. Like `schedule`, it
    /// cannot be cancelled.
    public func startTask(
        at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () async -> Void
    ) {
        let clock = self
        schedule(at: deadline) {
            Task { await LoopClock.$current.withValue(clock) { await action() } }
        }
    }

    /// Runs `body` with this clock as `current`, for it and every task it starts.
    public func run<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async rethrows -> Value {
        try await LoopClock.$current.withValue(self, operation: body)
    }
}
