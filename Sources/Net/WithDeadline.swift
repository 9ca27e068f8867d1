import Synchronization

/// The project's one timeout: runs `body` until it returns or `deadline` passes, whichever comes
/// first, and returns its value, or nil at the deadline. At the deadline (or when the calling
/// task is cancelled) `body` is cancelled and left to end on its own: a caller bounded by a
/// deadline must not wait for work that ignores cancellation (a TV's socket close, a broker
/// that never answers).
///
/// The deadline is a timer of `clock` (the running task's, unless a hang bound must be real
/// time, as a test's is), not a sleeping task.
public func withDeadline<Value: Sendable>(
    _ deadline: ContinuousClock.Instant, clock: LoopClock = .current,
    _ body: @escaping @Sendable () async -> Value
) async -> Value? {
    let outcome = DeadlineOutcome<Value>()
    let work = Task {
        let value = await body()
        outcome.settle(value)
    }
    clock.schedule(at: deadline) { outcome.settle(nil) }
    let value = await withTaskCancellationHandler {
        await withCheckedContinuation { outcome.wait(for: $0) }
    } onCancel: {
        outcome.settle(nil)
    }
    if case .none = value { work.cancel() }
    return value
}

/// The first of a body's value, its deadline and a cancellation, handed to the one waiter.
private final class DeadlineOutcome<Value: Sendable>: Sendable {
    private struct State {
        var settled: Value??
        var waiter: CheckedContinuation<Value?, Never>?
    }

    private let state = Mutex(State())

    /// Resumes at once when the outcome is already known.
    func wait(for continuation: CheckedContinuation<Value?, Never>) {
        let known = state.withLock { state -> Value?? in
            if let settled = state.settled { return settled }
            state.waiter = continuation
            return nil
        }
        if let known { continuation.resume(returning: known) }
    }

    /// Records `value` (nil: the deadline or a cancellation) unless something came first.
    func settle(_ value: Value?) {
        let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard state.settled == nil else { return nil }
            state.settled = .some(value)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }
}
