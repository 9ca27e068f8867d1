import Wire

// Application messages from the server (§4.3), delivered to the application exactly as
// often as their QoS promises.
extension MQTTSession {
    /// QoS 0: deliver. QoS 1: deliver and PUBACK (§4.3.2). QoS 2, method B of §4.3.3:
    /// deliver on the first PUBLISH with an id, remember the id and PUBREC; until PUBREL,
    /// a PUBLISH with the same id — DUP or not — only gets PUBREC again [MQTT-4.3.3-2].
    mutating func receivedPublish(_ message: MQTTPublish, now: ContinuousClock.Instant) -> [MQTTSessionAction] {
        switch message.qos {
        case .atMostOnce:
            return [.deliver(message)]
        case .atLeastOnce:
            guard let id = message.packetID else { return missingID() }
            lastSent = now
            return [.deliver(message), .send(.pubAck(id))]
        case .exactlyOnce:
            guard let id = message.packetID else { return missingID() }
            lastSent = now
            if inboundQoS2.insert(id).inserted {
                return [.deliver(message), .send(.pubRec(id))]
            }
            return [.send(.pubRec(id))]
        }
    }

    /// A PUBLISH too large to accept, whose body the decoder skipped: acknowledged as its QoS
    /// requires (PUBACK, or PUBREC and later PUBCOMP) so the broker neither resends it nor
    /// holds its in-flight window, and never delivered. Skipping is no reason to reconnect:
    /// a retained one would only come back on the next connection.
    public mutating func receivedOversize(
        _ message: MQTTOversizePublish, now: ContinuousClock.Instant
    ) -> [MQTTSessionAction] {
        switch state {
        case .disconnected, .closing:
            return []
        case .awaitingConnAck:
            return close(.protocolViolation("PUBLISH received before CONNACK [MQTT-3.2.0-1]"))
        case .connected:
            lastReceived = now
        }
        switch message.qos {
        case .atMostOnce:
            return []
        case .atLeastOnce:
            guard let id = message.packetID else { return missingID() }
            return send(.pubAck(id), now: now)
        case .exactlyOnce:
            guard let id = message.packetID else { return missingID() }
            inboundQoS2.insert(id)
            return send(.pubRec(id), now: now)
        }
    }

    /// PUBREL: forget the id and answer PUBCOMP — also for an id we do not know, since the
    /// server only sends PUBREL after our PUBREC and waits for PUBCOMP to free its state
    /// (the PUBCOMP may have been lost on an earlier connection) [MQTT-4.3.3-2].
    mutating func receivedPubRel(_ id: UInt16, now: ContinuousClock.Instant) -> [MQTTSessionAction] {
        inboundQoS2.remove(id)
        return send(.pubComp(id), now: now)
    }

    private mutating func missingID() -> [MQTTSessionAction] {
        close(.protocolViolation("PUBLISH with QoS above 0 has no packet identifier [MQTT-2.3.1-1]"))
    }
}
