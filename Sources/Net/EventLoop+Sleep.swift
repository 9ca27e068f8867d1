import Synchronization

extension EventLoop {
    /// `Task.sleep(for:)` on the loop's timers: suspends for `duration`, or throws
    /// `CancellationError` as soon as the task is cancelled. The project's code sleeps with this,
    /// not `Task.sleep`, which on Swift 6.3 goes to Dispatch's timer thread and resumes the task
    /// on a Dispatch worker (see `schedule(at:_:)`); here the loop wakes itself at the deadline
    /// and, as the global executor, resumes the task on its own thread.
    public static func sleep(for duration: Duration) async throws {
        try await sleep(until: .now + duration)
    }

    /// `Task.sleep(until:clock: .continuous)` on the loop's timers (see `sleep(for:)`).
    public static func sleep(until deadline: ContinuousClock.Instant) async throws {
        guard deadline > .now else { return try Task.checkCancellation() }  // no suspension
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                guard sleeper.park(continuation) else { return }
                shared.schedule(at: deadline) { sleeper.end(.success(())) }
            }
        } onCancel: {
            sleeper.end(.failure(CancellationError()))
        }
    }
}

/// One sleep's continuation, resumed exactly once: by the deadline or by cancellation, whichever
/// comes first; the other finds it done.
private final class Sleeper: Sendable {
    private enum State {
        case starting
        case parked(UnsafeContinuation<Void, any Error>)
        /// Cancelled before the continuation was parked.
        case cancelled
        case done
    }

    private let state = Mutex(State.starting)

    /// Parks the sleeping task's continuation; false (and resumed with `CancellationError`)
    /// when the task was cancelled first.
    func park(_ continuation: UnsafeContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state -> Bool in
            if case .cancelled = state {
                state = .done
                return true
            }
            state = .parked(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    func end(_ result: Result<Void, any Error>) {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            switch state {
            case .starting:
                state = .cancelled  // only a cancellation can come before `park`
                return nil
            case .parked(let continuation):
                state = .done
                return continuation
            case .cancelled, .done:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
