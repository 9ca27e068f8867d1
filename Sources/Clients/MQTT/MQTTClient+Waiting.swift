import Net
import Wire

// The waits of application calls: for room in the outbox, for an acknowledgement. Every one
// ends when the calling task is cancelled: a bridge shutting down under a deadline must not
// hang on a broker that stopped answering (Tests/README.md › Reliability).
extension MQTTClient {
    /// Waits while the outbox holds `maxQueuedBytes` or more, so that a burst of publishes
    /// (a discovery republish of a large fleet) over a slow link queues at most that much.
    /// - Throws: `.notConnected` when the connection is gone (now or after the wait),
    ///   `.cancelled` when the calling task is.
    func waitForRoom() async throws(MQTTClientError) {
        while outbox.count >= configuration.maxQueuedBytes && serving {
            guard !Task.isCancelled else { throw .cancelled }
            let token = takeToken()
            await withTaskCancellationHandler {
                await withCheckedContinuation { drainWaiters[token] = $0 }
            } onCancel: {
                Task { await self.endDrainWait(token) }
            }
        }
        guard !Task.isCancelled else { throw .cancelled }
        guard session.isConnected else { throw .notConnected }
    }

    /// Waits for the acknowledgement of the operation holding `id`.
    ///
    /// Cancellation ends the wait with `.cancelled` but not the operation: the session keeps
    /// a QoS 1/2 message for redelivery, as the protocol requires once its id is in use.
    func acknowledgement<Value: Sendable>(
        of id: UInt16, _ waiter: (CheckedContinuation<Result<Value, MQTTClientError>, Never>) -> Waiter
    ) async -> Result<Value, MQTTClientError> {
        let token = takeToken()
        return await withTaskCancellationHandler {
            // Stored before this task suspends, and the handler's hop to the actor can only
            // run after that: a cancellation that came first still finds the waiter.
            await withCheckedContinuation { continuation in
                waiters[id] = waiter(continuation)
                waiterTokens[id] = token
            }
        } onCancel: {
            Task { await self.endWait(id, token: token) }
        }
    }

    /// Waits until the client is connected, `timeout` passes, `stop()` is called or the calling
    /// task is cancelled, whichever comes first. Returns whether it is connected. Woken by the
    /// state change itself, not by polling.
    public func waitUntilConnected(timeout: Duration = .seconds(10)) async -> Bool {
        guard !session.isConnected, !stopping, !Task.isCancelled else { return session.isConnected }
        let token = takeToken()
        // A loop timer: a wait already ended finds its token gone and the timer does nothing.
        LoopClock.current.startTask(at: LoopClock.current.now + timeout) { [weak self] in
            await self?.endConnectWait(token)
        }
        await withTaskCancellationHandler {
            // Stored before this task suspends; the timer's and the handler's hops to the actor
            // can only run after that.
            await withCheckedContinuation { connectWaiters[token] = $0 }
        } onCancel: {
            Task { await self.endConnectWait(token) }
        }
        return session.isConnected
    }

    /// Resumes every `waitUntilConnected` (connected, or stopping).
    func endConnectWaits() {
        let waiting = connectWaiters.values
        connectWaiters.removeAll()
        for continuation in waiting { continuation.resume() }
    }

    private func endConnectWait(_ token: UInt64) {
        connectWaiters.removeValue(forKey: token)?.resume()
    }

    private func takeToken() -> UInt64 {
        nextToken &+= 1
        return nextToken
    }

    private func endDrainWait(_ token: UInt64) {
        drainWaiters.removeValue(forKey: token)?.resume()
    }

    private func endWait(_ id: UInt16, token: UInt64) {
        guard waiterTokens[id] == token else { return }
        waiterTokens[id] = nil
        fail(waiter: waiters.removeValue(forKey: id), .cancelled)
    }
}
