import Net
import Synchronization

/// Wrong tokens per source address, so guessing is slow however it is sent (login, bearer,
/// cookie) and however many connections it uses: each failure waits `wrongTokenDelay`, and a
/// source that spent `tokenFailureBudget` in its window is refused at once until it ends.
final class TokenFailures: Sendable {
    private struct Window {
        let start: ContinuousClock.Instant
        var count: Int
    }

    private let limits: StatusPageLimits
    private let windows = Mutex([String: Window]())

    init(limits: StatusPageLimits) {
        self.limits = limits
    }

    /// Whether `source` has spent its budget in the current window.
    func isSpent(by source: String) -> Bool {
        let now = LoopClock.current.now
        return windows.withLock { windows in
            guard let window = windows[source], now < window.start + limits.tokenFailureWindow else { return false }
            return window.count >= limits.tokenFailureBudget
        }
    }

    /// Counts a failure from `source`; returns its number in the window (1: the one to log).
    @discardableResult
    func record(from source: String) -> Int {
        let now = LoopClock.current.now
        return windows.withLock { windows in
            if var window = windows[source], now < window.start + limits.tokenFailureWindow {
                window.count += 1
                windows[source] = window
                return window.count
            }
            if windows[source] == nil && windows.count >= StatusPageLimits.tokenFailureSources {
                windows = windows.filter { now < $0.value.start + limits.tokenFailureWindow }
            }
            // Still full: the oldest window goes, so a new source is still counted.
            if windows[source] == nil && windows.count >= StatusPageLimits.tokenFailureSources,
                let oldest = windows.min(by: { $0.value.start < $1.value.start })
            {
                windows.removeValue(forKey: oldest.key)
            }
            windows[source] = Window(start: now, count: 1)
            return 1
        }
    }

    /// `record`, then the delay every wrong token waits before its answer.
    func fail(from source: String) async -> Int {
        let count = record(from: source)
        try? await EventLoop.sleep(for: limits.wrongTokenDelay)
        return count
    }
}
