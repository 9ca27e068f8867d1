import Synchronization

/// A FIFO mutual-exclusion lock for async code: waiting suspends the task, not the thread.
/// Used to keep concurrent writers from interleaving their bytes on one stream.
final class AsyncLock: Sendable {
    private struct State {
        var locked = false
        var waiters: [UnsafeContinuation<Void, Never>] = []
        var head = 0
    }

    private let state = Mutex(State())

    func lock() async {
        let acquired = state.withLock { state -> Bool in
            if state.locked { return false }
            state.locked = true
            return true
        }
        if acquired { return }
        await withUnsafeContinuation { continuation in
            let handedOver = state.withLock { state -> Bool in
                if !state.locked {
                    state.locked = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if handedOver { continuation.resume() }
        }
    }

    /// Hands the lock to the next waiter, if any (it stays locked), or unlocks.
    func unlock() {
        let next = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.waiters.removeAll(keepingCapacity: true)
                state.head = 0
                state.locked = false
                return nil
            }
            defer { state.head += 1 }
            return state.waiters[state.head]
        }
        next?.resume()
    }

    func withLock<R>(_ body: () async throws -> R) async rethrows -> R {
        await lock()
        defer { unlock() }
        return try await body()
    }
}
