import Wire

// Application requests that go to the server, their acknowledgements, packet identifiers
// and redelivery after a reconnect.
extension MQTTSession {
    /// Publishes an application message (§3.3).
    ///
    /// QoS 0 is sent and forgotten (`id` is `nil`). QoS 1 and 2 get a fresh packet
    /// identifier and are kept until PUBACK (§4.3.2) or PUBREC/PUBREL/PUBCOMP (§4.3.3);
    /// `publishCompleted(id)` reports the end.
    /// - Throws: `MQTTSessionError.notConnected` before CONNACK, `.packetIDsExhausted`,
    ///   or `.invalidPacket` (wildcard or empty topic, oversize payload).
    public mutating func publish(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false,
        now: ContinuousClock.Instant
    ) throws(MQTTSessionError) -> (id: UInt16?, actions: [MQTTSessionAction]) {
        guard isConnected else { throw .notConnected }
        var message = MQTTPublish(topic: topic, payload: payload, qos: qos, retain: retain)
        guard qos != .atMostOnce else {
            try Self.validate(.publish(message))
            return (nil, send(.publish(message), now: now))
        }
        let id = try freePacketID()
        message.packetID = id
        try Self.validate(.publish(message))
        register(id, .publish(message))
        return (id, send(.publish(message), now: now))
    }

    /// Subscribes to topic filters (§3.8); `subscribeCompleted(id, codes)` reports the SUBACK.
    /// - Throws: `MQTTSessionError.notConnected`, `.packetIDsExhausted`, or `.invalidPacket`
    ///   (no filter, an invalid filter).
    public mutating func subscribe(
        _ subscriptions: [MQTTSubscription], now: ContinuousClock.Instant
    ) throws(MQTTSessionError) -> (id: UInt16, actions: [MQTTSessionAction]) {
        guard isConnected else { throw .notConnected }
        let id = try freePacketID()
        let subscribe = MQTTSubscribe(packetID: id, subscriptions: subscriptions)
        try Self.validate(.subscribe(subscribe))
        register(id, .subscribe(subscribe))
        return (id, send(.subscribe(subscribe), now: now))
    }

    /// Unsubscribes from topic filters (§3.10); `unsubscribeCompleted(id)` reports the UNSUBACK.
    /// - Throws: `MQTTSessionError.notConnected`, `.packetIDsExhausted`, or `.invalidPacket`.
    public mutating func unsubscribe(
        _ filters: [String], now: ContinuousClock.Instant
    ) throws(MQTTSessionError) -> (id: UInt16, actions: [MQTTSessionAction]) {
        guard isConnected else { throw .notConnected }
        let id = try freePacketID()
        let unsubscribe = MQTTUnsubscribe(packetID: id, filters: filters)
        try Self.validate(.unsubscribe(unsubscribe))
        register(id, .unsubscribe(unsubscribe))
        return (id, send(.unsubscribe(unsubscribe), now: now))
    }

    // MARK: - Acknowledgements

    /// PUBACK ends a QoS 1 publish and frees its id (§4.3.2, [MQTT-2.3.1-3]).
    mutating func receivedPubAck(_ id: UInt16) -> [MQTTSessionAction] {
        guard case .publish(let message)? = outstanding[id]?.kind, message.qos == .atLeastOnce else { return [] }
        outstanding[id] = nil
        return [.publishCompleted(id)]
    }

    /// PUBREC moves a QoS 2 publish to its release step: send PUBREL (§4.3.3, [MQTT-4.3.3-3]).
    /// A repeated PUBREC (our PUBREL may have been lost) gets PUBREL again.
    mutating func receivedPubRec(_ id: UInt16, now: ContinuousClock.Instant) -> [MQTTSessionAction] {
        switch outstanding[id]?.kind {
        case .publish(let message)? where message.qos == .exactlyOnce:
            // Dropping the message here releases its payload: the server owns it now.
            outstanding[id]?.kind = .release
            return send(.pubRel(id), now: now)
        case .release?:
            return send(.pubRel(id), now: now)
        default:
            return []
        }
    }

    /// PUBCOMP ends a QoS 2 publish that is past PUBREC and frees its id (§4.3.3).
    mutating func receivedPubComp(_ id: UInt16) -> [MQTTSessionAction] {
        guard case .release? = outstanding[id]?.kind else { return [] }
        outstanding[id] = nil
        return [.publishCompleted(id)]
    }

    /// SUBACK must carry one return code per requested filter [MQTT-3.8.4-5, MQTT-3.9.3-1].
    mutating func receivedSubAck(_ subAck: MQTTSubAck) -> [MQTTSessionAction] {
        guard case .subscribe(let subscribe)? = outstanding[subAck.packetID]?.kind else { return [] }
        guard subAck.returnCodes.count == subscribe.subscriptions.count else {
            return close(
                .protocolViolation(
                    "SUBACK \(subAck.packetID) has \(subAck.returnCodes.count) return codes "
                        + "for \(subscribe.subscriptions.count) filters [MQTT-3.9.3-1]"))
        }
        outstanding[subAck.packetID] = nil
        return [.subscribeCompleted(subAck.packetID, subAck.returnCodes)]
    }

    mutating func receivedUnsubAck(_ id: UInt16) -> [MQTTSessionAction] {
        guard case .unsubscribe? = outstanding[id]?.kind else { return [] }
        outstanding[id] = nil
        return [.unsubscribeCompleted(id)]
    }

    // MARK: - Redelivery

    /// Everything still outstanding, in original order, for a new connection (§4.4):
    /// PUBLISH with DUP=1 and its id [MQTT-4.4.0-1], PUBREL past PUBREC, SUBSCRIBE and
    /// UNSUBSCRIBE. Sorting happens once per reconnect, never per packet.
    func redeliveries() -> [MQTTSessionAction] {
        guard !outstanding.isEmpty else { return [] }
        var actions: [MQTTSessionAction] = []
        actions.reserveCapacity(outstanding.count + 1)
        for (id, entry) in outstanding.sorted(by: { $0.value.order < $1.value.order }) {
            switch entry.kind {
            case .publish(var message):
                message.dup = true
                actions.append(.send(.publish(message)))
            case .release:
                actions.append(.send(.pubRel(id)))
            case .subscribe(let subscribe):
                actions.append(.send(.subscribe(subscribe)))
            case .unsubscribe(let unsubscribe):
                actions.append(.send(.unsubscribe(unsubscribe)))
            }
        }
        return actions
    }

    // MARK: - Packet identifiers

    /// The next identifier not in use, searching upward from the last one handed out and
    /// wrapping from 65535 to 1 (0 is never used, [MQTT-2.3.1-1]). Amortised O(1): ids are
    /// handed out in sequence, so the search skips only ids still held from a lap ago.
    func freePacketID() throws(MQTTSessionError) -> UInt16 {
        guard outstanding.count < Int(UInt16.max) else { throw .packetIDsExhausted }
        var id = nextPacketID
        while outstanding[id] != nil { id = id == .max ? 1 : id + 1 }
        return id
    }

    /// Marks `id` in use by a new operation and moves the search start past it.
    mutating func register(_ id: UInt16, _ kind: Outstanding.Kind) {
        outstanding[id] = Outstanding(order: nextOrder, kind: kind)
        nextOrder &+= 1
        nextPacketID = id == .max ? 1 : id + 1
    }

    private static func validate(_ packet: MQTTPacket) throws(MQTTSessionError) {
        do {
            _ = try packet.encodedSize()
        } catch {
            throw .invalidPacket(error)
        }
    }
}
