import Drivers
import Net
import Synchronization
import TVModel

/// Polls one TV: the first poll at once, each next one when the loop timer armed for it fires
/// (after `poll_interval`, or the driver's reconcile interval while the TV pushes its state),
/// sooner after a command. What a poll finds goes to the handler given to `start`.
///
/// A TV between polls holds no task, only that timer: a fleet's thousands of waits are entries
/// in the loop's timer heap. A round runs in a task of its own, whose frames are freed when it
/// ends. When what is polled next is decided: `PollSchedule`.
///
/// The start-up burst: a bridge that starts with thousands of TVs (remembered in its state file,
/// configured, or answering one SSDP search) must not open thousands of connections at once.
/// Each TV's first round (the poll, its first state and discovery config) runs in a slot of
/// `BridgeContext.firstPolls`, so at most `firstPollConcurrency` run at once; later polls are
/// spread by then, each TV keeping the phase its first poll gave it. A TV that does not answer
/// gives its slot back after `firstPollSlotHold` (`ProbePool.run(holdingAtMost:)`). The slot
/// covers the round, not only the poll: rounds queued at once for the registry and the discovery
/// publisher would each hold their task frames, and the bridge's memory with them.
final class TVPoller: Sendable {
    /// Takes what one poll found (`full`: apps and description were asked too); true when the
    /// app in front is missing from the TV's app list, so the next poll is a full one.
    typealias Handler = @Sendable (_ snapshot: TVSnapshot, _ full: Bool) async -> Bool

    /// How soon after a command the TV is polled (debounced: a burst of presses polls once).
    static let refreshDelay = Duration.milliseconds(350)
    static let firstPollConcurrency = 32
    static let firstPollSlotHold = Duration.seconds(1)

    private struct State {
        var schedule: PollSchedule
        var handler: Handler?
    }

    private let driver: any TVDriver
    /// `poll_interval`.
    private let interval: Duration
    private let firstPolls: ProbePool
    private let state: Mutex<State>

    init(driver: any TVDriver, interval: Duration, firstPolls: ProbePool) {
        self.driver = driver
        self.interval = interval
        self.firstPolls = firstPolls
        state = Mutex(State(schedule: PollSchedule(now: LoopClock.current.now)))
    }

    /// Polls now, then whenever a poll is due, until `stop()`.
    func start(_ handler: @escaping Handler) {
        state.withLock { $0.handler = handler }
        let now = LoopClock.current.now
        arm { $0.want(now) }
    }

    /// No poll from now on; a round under way hands nothing on once its poll returns.
    func stop() { state.withLock { $0.schedule.stop() } }

    /// Polls again soon (debounced), e.g. after a command; while a round runs, its end picks the
    /// refresh up.
    func requestRefresh(after delay: Duration = refreshDelay) {
        let instant = LoopClock.current.now + delay
        arm { $0.refresh(at: instant) }
    }

    /// The TV pushed a state: if it polls slowly because the driver said its state is pushed, and
    /// the push has stopped since (an ECP-2 session dropped), it polls now, then at `poll_interval`.
    func statePushed() {
        guard state.withLock({ $0.schedule.pollingSlowly }), driver.reconcileInterval == nil else { return }
        requestRefresh(after: .zero)
    }

    /// Arms a loop timer for the poll `decide` asks for, if any.
    private func arm(_ decide: (inout PollSchedule) -> ContinuousClock.Instant?) {
        guard let instant = state.withLock({ decide(&$0.schedule) }) else { return }
        LoopClock.current.schedule(at: instant) { [weak self] in self?.fire(instant) }
    }

    /// The timer for `instant` fired: a round, unless the timer is stale (the poll was brought
    /// forward since) or polling stopped.
    private func fire(_ instant: ContinuousClock.Instant) {
        guard state.withLock({ $0.schedule.fire(instant) }) else { return }
        Task { await self.round() }
    }

    private func round() async {
        let (first, full, handler) = state.withLock { locked in
            let (first, full) = locked.schedule.beginRound(now: LoopClock.current.now)
            return (first, full, locked.handler)
        }
        guard let handler else { return }
        let appIsUnknown: Bool?
        if first {
            appIsUnknown = await firstPolls.run(holdingAtMost: Self.firstPollSlotHold) {
                await self.poll(full: true, handler)
            }
        } else {
            appIsUnknown = await poll(full: full, handler)
        }
        guard let appIsUnknown else { return }
        let (interval, slow) = nextInterval()
        let now = LoopClock.current.now
        arm { $0.endRound(now: now, interval: interval, slow: slow, appIsUnknown: appIsUnknown) }
    }

    /// One poll, handed on; nil when polling stopped meanwhile.
    private func poll(full: Bool, _ handler: Handler) async -> Bool? {
        let snapshot = await driver.poll(full: full)
        if state.withLock({ $0.schedule.stopped }) { return nil }
        return await handler(snapshot, full)
    }

    /// `poll_interval`, or the driver's slower reconcile interval while the TV pushes its state.
    private func nextInterval() -> (Duration, slow: Bool) {
        guard let reconcile = driver.reconcileInterval, reconcile > interval else { return (interval, false) }
        return (reconcile, true)
    }
}
