/// Reconnecting a lost SSAP socket with a bounded exponential backoff: the first attempt after
/// `reconnectFirst`, then twice as long after each failure up to `reconnectMax`. While it runs
/// polls do not connect (`admission`: a TV in Suspend is not hammered at every poll); a wake
/// brings the next attempt forward, and a success ends it (the next loss starts again at
/// `reconnectFirst`).
extension LGSession {
    /// The socket was lost: true when the backoff starts (the connection then runs its loop).
    mutating func startReconnecting(now: ContinuousClock.Instant) -> Bool {
        guard backoff == nil, blocked == nil, hasClientKey, !isShutDown else { return false }
        backoff = Backoff(delay: configuration.reconnectFirst, nextAttempt: now + configuration.reconnectFirst)
        return true
    }

    /// Wake-on-LAN was sent: the TV is expected back, so the wait starts again from the first.
    /// True when the backoff runs (its wait is to be woken).
    mutating func retrySoon(now: ContinuousClock.Instant) -> Bool {
        guard backoff != nil else { return false }
        backoff = Backoff(delay: configuration.reconnectFirst, nextAttempt: now + configuration.reconnectFirst)
        return true
    }

    mutating func stopReconnecting() { backoff = nil }

    /// Whether an attempt is still worth making.
    func shouldAttempt(connected: Bool) -> Bool { !connected && blocked == nil && hasClientKey }

    /// An attempt failed: the wait before the next, doubled; nil when there is none (blocked
    /// now: the user must act).
    mutating func attemptFailed(now: ContinuousClock.Instant) -> Duration? {
        guard blocked == nil, var backoff else { return nil }
        backoff.delay = min(backoff.delay * 2, configuration.reconnectMax)
        backoff.nextAttempt = now + backoff.delay
        self.backoff = backoff
        return backoff.delay
    }
}
