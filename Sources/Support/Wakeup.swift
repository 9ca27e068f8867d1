import Dispatch
import Synchronization

/// A sleep another task can cut short: a TV's poller sleeps `poll_interval`, and a command
/// wakes it so the new state follows within a fraction of a second.
///
/// A `signal()` with nobody waiting is remembered: the next `wait` returns at once.
/// One waiter at a time.
public final class Wakeup: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var pending = false
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Waits until `signal()` (returns true) or until `timeout` passes or the task is
    /// cancelled (returns false).
    public func wait(timeout: Duration) async -> Bool {
        let woken = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let generation = state.withLock { state -> UInt64? in
                    if state.pending || Task.isCancelled {
                        let wasPending = state.pending
                        state.pending = false
                        continuation.resume(returning: wasPending)
                        return nil
                    }
                    state.generation &+= 1
                    state.continuation = continuation
                    return state.generation
                }
                guard let generation else { return }
                let (seconds, attoseconds) = timeout.components
                let nanoseconds = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
                    [self] in
                    self.resume(generation: generation, with: false)
                }
            }
        } onCancel: {
            resume(generation: nil, with: false)
        }
        return woken
    }

    /// Wakes the waiter, or the next one to wait.
    public func signal() {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let continuation = state.continuation else {
                state.pending = true
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: true)
    }

    /// Resumes the waiter of `generation` (nil: whoever waits) with `value`.
    private func resume(generation: UInt64?, with value: Bool) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let continuation = state.continuation, generation == nil || generation == state.generation else {
                return nil
            }
            state.continuation = nil
            return continuation
        }
        continuation?.resume(returning: value)
    }
}
