import Net
import Wire

extension MQTTClient {
    /// Queues a publish without waiting for its acknowledgement.
    ///
    /// Calls made one after another go out in that order (one actor, one outbox), which a
    /// task per `publish` would not guarantee. QoS 1/2 messages are still resent after a
    /// reconnect until acknowledged; nobody is told when they are. Waits while the outbox is
    /// full (`maxQueuedBytes`): this is how discovery republishes, and over a slow link it
    /// must queue only what the link can take.
    /// - Throws: `.notConnected` (nothing is queued), `.invalid`, or `.cancelled`.
    public func enqueue(
        _ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = false
    )
        async throws(MQTTClientError)
    {
        guard session.isConnected else { throw .notConnected }
        try await waitForRoom()
        do {
            perform(
                try session.publish(
                    topic: topic, payload: payload, qos: qos, retain: retain, now: LoopClock.current.now
                ).actions)
        } catch {
            throw error == .notConnected ? .notConnected : .invalid(error.description)
        }
    }
}
