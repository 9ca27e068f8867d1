import Dispatch
import Glibc
import Synchronization

/// SIGTERM and SIGINT, delivered through Dispatch: `wait()` returns at the first; a second
/// ends the process at once. The signals are unblocked first: a parent (Foundation.Process,
/// some supervisors) may start us with them blocked, and a test's SIGTERM would never arrive.
///
/// A type of its own (not top-level code in main.swift) so the handler is not isolated to
/// the main actor: Dispatch runs it on a queue of its own.
final class StopSignal: Sendable {
    private struct State {
        var count = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []

    init() {
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, SIGTERM)
        sigaddset(&handled, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)  // Dispatch sees it; the default action must not kill us first
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.received() }
            source.resume()
            sources.append(source)
        }
    }

    private func received() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            if state.count > 1 { exit(1) }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once SIGTERM or SIGINT has arrived (at once if one already did).
    func wait() async {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state -> Bool in
                if state.count > 0 { return true }
                state.waiter = continuation
                return false
            }
            if already { continuation.resume() }
        }
    }
}
