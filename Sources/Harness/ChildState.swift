import Glibc
import Synchronization

/// The shared, lock-protected life of one child: running or ended, and who waits for it.
///
/// The reaper thread first waits with `waitid(…, WNOWAIT)`, which leaves the child a zombie,
/// and then calls `reap()`, which takes the lock, removes the child from the registry and only
/// then collects it with `waitpid`. Every `signal` takes the same lock and checks the child was
/// not reaped, so a signal can never reach a recycled pid.
final class ChildState: Sendable {
    private struct State {
        var pid: pid_t = 0
        var status: TerminationStatus?
        var nextWaiter: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<TerminationStatus?, Never>] = [:]
    }

    private let state = Mutex(State())
    /// Whether the rest of the process group is killed when the child itself ends.
    let killsGroupOnExit: Bool

    init(killsGroupOnExit: Bool) {
        self.killsGroupOnExit = killsGroupOnExit
    }

    func started(pid: pid_t) {
        state.withLock { $0.pid = pid }
    }

    var status: TerminationStatus? { state.withLock { $0.status } }

    /// `kill(pid, signal)`, or `kill(-pgid, signal)` for the whole group, unless already reaped.
    /// Returns `false` when the child has already been reaped or `kill` failed.
    func signal(_ signal: Int32, group: Bool) -> Bool {
        state.withLock { state in
            guard state.status == nil, state.pid > 0 else { return false }
            return Glibc.kill(group ? -state.pid : state.pid, signal) == 0
        }
    }

    /// Called by the reaper thread once `waitid(WNOWAIT)` saw the child end.
    func reap() {
        let (status, waiters) = state.withLock {
            state -> (TerminationStatus, [CheckedContinuation<TerminationStatus?, Never>]) in
            let pid = state.pid
            ChildRegistry.remove(pid)
            if killsGroupOnExit {
                // Grandchildren left in the child's group (`sh -c 'x &'`) go with it. The zombie
                // leader keeps the group id ours until the waitpid below.
                Glibc.kill(-pid, SIGKILL)
            }
            var word: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &word, 0) } while result == -1 && errno == EINTR
            // Only if the test process set SIGCHLD to SIG_IGN (the kernel then reaps children
            // itself and waitpid fails with ECHILD) would the status be unknown; it reads as exit 0.
            let status = TerminationStatus(waitStatus: word)
            state.status = status
            let waiters = Array(state.waiters.values)
            state.waiters.removeAll()
            return (status, waiters)
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// Waits for the end; returns `nil` only when `cancellable` and the task is cancelled.
    func wait(cancellable: Bool) async -> TerminationStatus? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        guard cancellable else {
            return await withCheckedContinuation { continuation in add(id, continuation, cancellable: false) }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in add(id, continuation, cancellable: true) }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(returning: nil)
        }
    }

    private func add(_ id: UInt64, _ continuation: CheckedContinuation<TerminationStatus?, Never>, cancellable: Bool) {
        // The cancellation flag is set before the handler runs, and the handler takes this lock:
        // either we see the flag here, or the handler finds the continuation registered.
        let immediate: TerminationStatus?? = state.withLock { state in
            if let status = state.status { return .some(status) }
            if cancellable && Task.isCancelled { return .some(nil) }
            state.waiters[id] = continuation
            return .none
        }
        if let immediate { continuation.resume(returning: immediate) }
    }
}
