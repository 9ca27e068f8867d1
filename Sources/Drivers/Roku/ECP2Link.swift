import TVModel

/// The driver's ECP-2 bookkeeping, kept inside `RokuDriver.State` (behind its mutex).
struct ECP2Link {
    /// The task that connects, serves and reconnects (`RokuDriver.runECP2`).
    var task: Task<Void, Never>?
    var stopped = false
    /// A TV that refused ECP-2 (old firmware, or our authentication) is asked again from
    /// then on, by the next poll. No task waits for it: a task sleeping 10 minutes keeps the
    /// memory its frames needed to connect (some 8 KB), times every such Roku of a fleet.
    var retryAt: ContinuousClock.Instant?
    /// The refusal was logged once; retries are quiet.
    var refusalReported = false
    /// The authenticated session, while it is up: commands go through it.
    var session: RokuECP2Session?
    /// The TV accepted `request-events`: state is pushed, polling only reconciles.
    var pushing = false
    /// The latest snapshot, polled or pushed: notifies are applied to it.
    var current: TVSnapshot?
    /// Bumped by every change a notify (or a refresh over the session) made to `current`, so a
    /// poll that was already under way does not overwrite newer pushed state.
    var generation = 0
    /// The TV reported its volume in this run: the volume and mute entities exist from then on.
    var reportsVolume = false
    /// Volume and mute as last pushed; meaningful only while the session is up.
    var volume: Int?
    var muted: Bool?
    /// A foreground refresh over the session is running / should run once more.
    var refreshing = false
    var refreshAgain = false

    /// The snapshot a poll returns: the control path and volume and mute from the session
    /// (HTTP cannot read them), and, when a notify arrived during the poll, the pushed
    /// foreground, which is newer.
    mutating func merge(polled: TVSnapshot, since started: Int) -> TVSnapshot {
        var result = polled
        // The path as it is now: the session may have come up (or gone) during the poll, and
        // with the TV pushing, the next poll is a minute away.
        if polled.reachable { result.controlPath = session == nil ? .ecp : .ecp2 }
        if session != nil {
            result.volume = volume
            result.muted = muted
        }
        if started != generation, let pushed = current, pushed.reachable, polled.reachable {
            result.power = pushed.power
            result.powerMode = pushed.powerMode
            result.app = pushed.app
            result.appID = pushed.appID
            result.input = pushed.input
            result.mediaState = pushed.mediaState
            result.position = pushed.position
            result.duration = pushed.duration
            result.live = pushed.live
            if pushed.appID != polled.appID { result.clearChannel() }
        }
        current = result
        return result
    }

    /// Where the session ended: what the state says now.
    mutating func sessionEnded() -> TVSnapshot? {
        session = nil
        pushing = false
        volume = nil
        muted = nil
        refreshAgain = false
        generation += 1
        guard var snapshot = current else { return nil }
        snapshot.controlPath = .ecp
        snapshot.volume = nil
        snapshot.muted = nil
        current = snapshot
        return snapshot
    }
}
