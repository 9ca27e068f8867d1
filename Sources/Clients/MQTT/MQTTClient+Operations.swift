import Net
import Wire

extension MQTTClient {
    /// Publishes a message.
    ///
    /// Waits while the outbox is full (`maxQueuedBytes`). QoS 0 returns once the packet is
    /// queued; QoS 1 and 2 return when the broker acknowledged it, across reconnects if need be.
    /// - Throws: `.notConnected` when there is no connection (nothing is queued), `.invalid`
    ///   for a bad topic, `.stopped` when the client stops before the acknowledgement,
    ///   `.cancelled` when the calling task is cancelled while waiting.
    public func publish(
        _ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false
    )
        async throws(MQTTClientError)
    {
        guard session.isConnected else { throw .notConnected }
        try await waitForRoom()
        let id: UInt16?
        do {
            let result = try session.publish(
                topic: topic, payload: payload, qos: qos, retain: retain, now: LoopClock.current.now)
            id = result.id
            perform(result.actions)
        } catch {
            throw error == .notConnected ? .notConnected : .invalid(error.description)
        }
        guard let id else { return }
        try await acknowledgement(of: id) { .publish($0) }.get()
    }

    /// `publish` with a text payload.
    public func publish(
        _ topic: String, _ text: String, qos: MQTTQoS = .atMostOnce, retain: Bool = false
    )
        async throws(MQTTClientError)
    {
        try await publish(topic, Array(text.utf8), qos: qos, retain: retain)
    }

    /// Subscribes, and keeps the subscriptions across reconnects.
    ///
    /// When connected, returns the broker's answer per filter; when not, returns nil and the
    /// filters are subscribed as soon as the connection is up.
    /// - Throws: `.invalid` for a bad filter, `.subscriptionRefused` when the broker refuses
    ///   one (it is then dropped from the list).
    @discardableResult
    public func subscribe(_ requested: [MQTTSubscription]) async throws(MQTTClientError)
        -> [MQTTSubAckReturnCode]?
    {
        for subscription in requested {
            do {
                try MQTTTopic.validateFilter(subscription.filter)
            } catch {
                throw .invalid(error.description)
            }
        }
        for subscription in requested {
            if let index = subscriptions.firstIndex(where: { $0.filter == subscription.filter }) {
                subscriptions[index] = subscription
            } else {
                subscriptions.append(subscription)
            }
        }
        guard session.isConnected else { return nil }
        let id: UInt16
        do {
            let result = try session.subscribe(requested, now: LoopClock.current.now)
            id = result.id
            perform(result.actions)
        } catch {
            throw .invalid(error.description)
        }
        let codes = try await acknowledgement(of: id) { .subscribe($0) }.get()
        for (subscription, code) in zip(requested, codes) where code == .failure {
            subscriptions.removeAll { $0.filter == subscription.filter }
            throw .subscriptionRefused(subscription.filter)
        }
        return codes
    }

    @discardableResult
    public func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce) async throws(MQTTClientError)
        -> MQTTSubAckReturnCode?
    {
        try await subscribe([MQTTSubscription(filter: filter, qos: qos)])?.first
    }

    /// Unsubscribes and forgets the filters.
    public func unsubscribe(_ filters: [String]) async throws(MQTTClientError) {
        subscriptions.removeAll { filters.contains($0.filter) }
        guard session.isConnected else { return }
        let id: UInt16
        do {
            let result = try session.unsubscribe(filters, now: LoopClock.current.now)
            id = result.id
            perform(result.actions)
        } catch {
            throw .invalid(error.description)
        }
        try await acknowledgement(of: id) { .unsubscribe($0) }.get()
    }
}
