import Drivers
import Wire

/// A command message for one TV, planned and queued for its command worker.
struct CommandJob: Sendable {
    let plans: [TVPlan]
    let origin: CommandOrigin
    /// When it arrived (by the bridge's `LoopClock`): a job older than `TVCommandLane.expiry`
    /// is not run.
    let received: ContinuousClock.Instant
}
