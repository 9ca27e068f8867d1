/// When one TV is polled next, as bookkeeping: no clock and no timer of its own (`TVPoller` reads
/// the clock and arms the timers), so each decision is tested without waiting.
///
/// At most one timer counts: the one for `due`. A poll wanted earlier replaces it, and the later
/// timer finds itself stale when it fires. While a round runs no timer is armed; its end arms the
/// next one, at the refresh a command asked for meanwhile if that comes sooner.
struct PollSchedule: Sendable {
    static let fullPollInterval = Duration.seconds(15 * 60)

    /// The instant of the timer that counts; nil while none is armed.
    private(set) var due: ContinuousClock.Instant?
    private(set) var polling = false
    private(set) var stopped = false
    /// The next poll waits the driver's reconcile interval (its state is pushed), not
    /// `poll_interval`: when the push stops, it must be brought forward.
    private(set) var pollingSlowly = false
    /// When a command asked for a quick refresh (the earliest asked since the last round began).
    private var refreshAt: ContinuousClock.Instant?
    private var firstRoundDone = false
    private var nextFullPoll: ContinuousClock.Instant

    init(now: ContinuousClock.Instant) { nextFullPoll = now }

    /// A poll is wanted at `instant`: the instant to arm a timer for, or nil when one is armed
    /// earlier, a round runs (its end arms the next) or polling stopped.
    mutating func want(_ instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard !stopped, !polling, due.map({ instant < $0 }) ?? true else { return nil }
        due = instant
        return instant
    }

    /// A quick refresh at `instant` (debounced: the earliest asked counts); the instant to arm a
    /// timer for, or nil.
    mutating func refresh(at instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        if refreshAt.map({ instant < $0 }) ?? true { refreshAt = instant }
        return want(instant)
    }

    /// The timer armed for `instant` fired: true when a round starts now, false for a stale timer.
    mutating func fire(_ instant: ContinuousClock.Instant) -> Bool {
        guard !stopped, !polling, due == instant else { return false }
        due = nil
        polling = true
        return true
    }

    /// The round that `fire` started begins: whether it is the TV's first, and whether it is full
    /// (apps and description too: the first, then every `fullPollInterval`).
    mutating func beginRound(now: ContinuousClock.Instant) -> (first: Bool, full: Bool) {
        refreshAt = nil  // this round is the refresh asked for so far
        let first = !firstRoundDone
        firstRoundDone = true
        let full = now >= nextFullPoll
        if full { nextFullPoll = now + Self.fullPollInterval }
        return (first, full)
    }

    /// The round ended: the next poll after `interval` (the driver's reconcile interval when
    /// `slow`), or at a refresh asked for meanwhile; a full one when the app in front was missing
    /// from the TV's list. The instant to arm a timer for, or nil.
    mutating func endRound(
        now: ContinuousClock.Instant, interval: Duration, slow: Bool, appIsUnknown: Bool
    ) -> ContinuousClock.Instant? {
        if appIsUnknown { nextFullPoll = now }
        pollingSlowly = slow
        var next = now + interval
        if let refreshAt, refreshAt < next { next = refreshAt }
        polling = false
        return want(next)
    }

    /// No poll from now on: a timer that fires later, or a round that ends, arms nothing.
    mutating func stop() { stopped = true }
}
