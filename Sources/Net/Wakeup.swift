import Synchronization

/// A sleep other tasks can cut short: the TV finder waits `search_interval` between searches,
/// and stopping the bridge wakes it at once. (A TV's polls are loop timers, not waits.)
///
/// `signal()` wakes every task waiting at that moment (the TV finder's loops share one); with
/// nobody waiting it is remembered, and the next `wait` returns at once. The timeout is one of
/// the running task's `LoopClock` timers, not Dispatch's.
public final class Wakeup: Sendable {
    private struct State {
        var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
        var pending = false
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Waits until `signal()` (returns true) or until `timeout` passes or the task is
    /// cancelled (returns false).
    public func wait(timeout: Duration, clock: LoopClock = .current) async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let waiting = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        let wasPending = state.pending
                        state.pending = false
                        continuation.resume(returning: wasPending)
                        return false
                    }
                    state.waiters[id] = continuation
                    return true
                }
                guard waiting else { return }
                clock.schedule(at: clock.now + timeout) { [self] in self.resume(id, with: false) }
            }
        } onCancel: {
            resume(id, with: false)
        }
    }

    /// How many tasks wait now (for tests that must signal a registered waiter).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Wakes every waiter, or the next one to wait.
    public func signal() {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    /// Resumes the waiter `id` with `value`, unless it was resumed already.
    private func resume(_ id: UInt64, with value: Bool) {
        let continuation = state.withLock { $0.waiters.removeValue(forKey: id) }
        continuation?.resume(returning: value)
    }
}
