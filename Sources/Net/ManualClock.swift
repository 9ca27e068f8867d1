import Synchronization

/// A clock whose time moves only when it is told to, on the model of swift-nio's
/// `NIOAsyncTestingEventLoop`: code run under it (`run`) arms its timers here, and
/// `advance(by:)` fires every timer that falls due, earliest first, each at its own instant,
/// letting the work it started run before the next one fires. Sockets stay real; only their
/// deadlines are virtual. A test then asserts exact virtual times, whatever the machine's load.
public final class ManualClock: Sendable {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let order: UInt64
        let action: @Sendable () -> Void
    }

    /// What a test's wait looks at: the timers armed now, and every instant ever armed.
    private struct TimerView {
        let pending: [Duration]
        let armed: Set<Duration>
    }

    private struct Watcher {
        let predicate: @Sendable (TimerView) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var entries: [Entry] = []
        var armed: Set<Duration> = []
        var nextOrder: UInt64 = 0
        var watchers: [UInt64: Watcher] = [:]
        var nextWatcher: UInt64 = 0
    }

    /// The instant the clock was made: `elapsed` counts from it.
    public let origin: ContinuousClock.Instant
    private let wallOrigin: Double
    private let state: Mutex<State>

    /// A clock at `origin` (now), whose wall reading starts at `wallSeconds` (1 December 2026,
    /// 00:00 UTC, unless given).
    public init(wallSeconds: Double = 1_796_083_200) {
        let start = ContinuousClock.now
        origin = start
        wallOrigin = wallSeconds
        state = Mutex(State(now: start))
    }

    /// This clock as the library reads it.
    public var clock: LoopClock { LoopClock(manual: self) }

    public var now: ContinuousClock.Instant { state.withLock { $0.now } }

    /// Virtual time since the clock was made.
    public var elapsed: Duration { now - origin }

    public var wallSeconds: Double {
        let elapsed = elapsed.components
        return wallOrigin + Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// The armed timers, as virtual times since `origin`, earliest first. A timer whose work no
    /// longer matters stays armed until it fires, as on the loop.
    public var pendingDeadlines: [Duration] {
        state.withLock { state in state.entries.map { $0.deadline - origin }.sorted() }
    }

    /// Runs `body` under this clock: it and every task it starts read this clock's time.
    public func run<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async rethrows -> Value {
        try await LoopClock.$current.withValue(clock, operation: body)
    }

    /// Arms a timer. One already due fires at once, in a task under this clock, as on the
    /// loop: time stands still, but what is due by now does not wait for the next `advance`.
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        let (due, woken) = state.withLock { state -> (Bool, [CheckedContinuation<Bool, Never>]) in
            state.armed.insert(deadline - origin)
            let due = deadline <= state.now
            if !due {
                state.nextOrder += 1
                state.entries.append(Entry(deadline: deadline, order: state.nextOrder, action: action))
            }
            return (due, Self.satisfiedWatchers(&state, origin: origin))
        }
        for continuation in woken { continuation.resume(returning: true) }
        if due {
            let clock = clock
            Task { LoopClock.$current.withValue(clock) { action() } }
        }
    }

    /// Moves time forward by `duration`, firing what falls due on the way.
    public func advance(by duration: Duration) async {
        await advance(to: elapsed + duration)
    }

    /// Moves time to `target` (virtual time since `origin`), firing every timer due by then,
    /// earliest first (in the order armed for equal instants), each with `now` at its deadline.
    /// Work a timer starts runs before the next timer fires, so a timer it arms for an earlier
    /// instant than `target` fires too.
    public func advance(to target: Duration) async {
        let end = origin + target
        while true {
            await settle()
            let due = state.withLock { state -> Entry? in
                guard
                    let index = state.entries.indices.min(by: {
                        (state.entries[$0].deadline, state.entries[$0].order)
                            < (state.entries[$1].deadline, state.entries[$1].order)
                    }), state.entries[index].deadline <= end
                else { return nil }
                let entry = state.entries.remove(at: index)
                state.now = max(state.now, entry.deadline)
                return entry
            }
            guard let due else { break }
            LoopClock.$current.withValue(clock) { due.action() }
        }
        state.withLock { $0.now = max($0.now, end) }
        await settle()
    }

    /// Waits, in real time up to `hangBound`, until the armed timers satisfy `predicate` (given
    /// `pendingDeadlines`): how a test knows the code under it has armed the timer it is about
    /// to pass. False when the bound passed first: the code never armed it.
    @discardableResult
    public func waitForTimers(
        hangBound: Duration = .seconds(30), _ predicate: @escaping @Sendable ([Duration]) -> Bool
    ) async -> Bool {
        await waitFor(hangBound: hangBound) { predicate($0.pending) }
    }

    /// Waits until a timer has been armed for exactly `deadline` (virtual time since
    /// `origin`): one pending, one that fired since, or one due when armed, which fired at once.
    @discardableResult
    public func waitForTimer(at deadline: Duration, hangBound: Duration = .seconds(30)) async -> Bool {
        await waitFor(hangBound: hangBound) { $0.armed.contains(deadline) }
    }

    private func waitFor(hangBound: Duration, _ predicate: @escaping @Sendable (TimerView) -> Bool) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWatcher += 1
            return state.nextWatcher
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let met = state.withLock { state -> Bool in
                if predicate(Self.view(state, origin: origin)) { return true }
                state.watchers[id] = Watcher(predicate: predicate, continuation: continuation)
                return false
            }
            if met { return continuation.resume(returning: true) }
            EventLoop.shared.schedule(at: ContinuousClock.now + hangBound) { [self] in
                let late = state.withLock { $0.watchers.removeValue(forKey: id) }
                late?.continuation.resume(returning: false)
            }
        }
    }

    private static func satisfiedWatchers(
        _ state: inout State, origin: ContinuousClock.Instant
    ) -> [CheckedContinuation<Bool, Never>] {
        guard !state.watchers.isEmpty else { return [] }
        let view = view(state, origin: origin)
        var woken: [CheckedContinuation<Bool, Never>] = []
        for (id, watcher) in state.watchers where watcher.predicate(view) {
            woken.append(watcher.continuation)
            state.watchers[id] = nil
        }
        return woken
    }

    private static func view(_ state: State, origin: ContinuousClock.Instant) -> TimerView {
        TimerView(pending: state.entries.map { $0.deadline - origin }, armed: state.armed)
    }

    /// Lets the work the last timer started run as far as it goes without waiting on a socket
    /// or a timer: each round waits for one turn of the event loop, which runs every job queued
    /// before it (the test's own task may run on another thread). A test still synchronizes on
    /// what it observes (`waitForTimer`, a message, a log line): work that waits on a socket
    /// goes on after this returns.
    private func settle() async {
        for _ in 0..<Self.settleRounds {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                EventLoop.shared.schedule(at: ContinuousClock.now) { continuation.resume() }
            }
        }
    }

    private static let settleRounds = 8
}
