import Drivers
import Wire

/// Where a command message came from: what a `command_failed` event and the response name.
struct CommandOrigin: Sendable {
    /// The topic it came on, for log lines and events.
    let topic: String
    /// The `set/<property>` it came on, or nil for `set`.
    let property: String?
    /// Echoed in the response when the sender gave one.
    let transaction: JSONValue?
}

/// A command message for one TV, planned and queued for its command worker.
struct CommandJob: Sendable {
    let plans: [TVPlan]
    let origin: CommandOrigin
    /// When it arrived (by the bridge's `TimeSource`): a job older than `TVAgent.commandExpiry`
    /// is not run.
    let received: ContinuousClock.Instant
}
