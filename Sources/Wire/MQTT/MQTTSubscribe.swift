/// One topic filter and the maximum QoS wanted for it (MQTT 3.1.1 §3.8.3).
public struct MQTTSubscription: Equatable, Sendable {
    public var filter: String
    public var qos: MQTTQoS

    public init(filter: String, qos: MQTTQoS = .atMostOnce) {
        self.filter = filter
        self.qos = qos
    }
}

/// SUBSCRIBE: asks for messages on one or more topic filters (MQTT 3.1.1 §3.8).
public struct MQTTSubscribe: Equatable, Sendable {
    /// Non-zero (§2.3.1).
    public var packetID: UInt16
    /// At least one [MQTT-3.8.3-3].
    public var subscriptions: [MQTTSubscription]

    public init(packetID: UInt16, subscriptions: [MQTTSubscription]) {
        self.packetID = packetID
        self.subscriptions = subscriptions
    }

    func bodySize() throws(WireError) -> Int {
        try MQTTCodec.checkPacketID(packetID, "SUBSCRIBE")
        guard !subscriptions.isEmpty else {
            throw MQTTCodec.malformed("SUBSCRIBE has no topic filter [MQTT-3.8.3-3]")
        }
        var size = 2
        for subscription in subscriptions {
            try MQTTTopic.validateFilter(subscription.filter)
            size += 3 + subscription.filter.utf8.count
        }
        return size
    }

    func writeBody(into buffer: inout [UInt8]) {
        MQTTCodec.appendUInt16(packetID, to: &buffer)
        for subscription in subscriptions {
            MQTTCodec.appendString(subscription.filter, to: &buffer)
            buffer.append(subscription.qos.rawValue)
        }
    }

    /// Decodes the packet identifier and the filter/QoS pairs (§3.8.2, §3.8.3).
    static func decode(_ body: ArraySlice<UInt8>) throws(WireError) -> MQTTSubscribe {
        var reader = ByteReader(body)
        let packetID = try MQTTCodec.readPacketID(&reader, "SUBSCRIBE")
        var subscriptions: [MQTTSubscription] = []
        while !reader.isAtEnd {
            let filter = try MQTTCodec.readString(&reader, "a SUBSCRIBE topic filter")
            try MQTTTopic.validateFilter(filter)
            let options = try MQTTCodec.readUInt8(&reader, "the requested QoS")
            // Bits 7–2 are reserved [MQTT-3-8.3-4]; QoS 3 is malformed too.
            guard options & 0xFC == 0, let qos = MQTTQoS(rawValue: options) else {
                throw MQTTCodec.malformed(
                    "SUBSCRIBE requested QoS byte is 0x\(String(options, radix: 16)) [MQTT-3-8.3-4]")
            }
            subscriptions.append(MQTTSubscription(filter: filter, qos: qos))
        }
        guard !subscriptions.isEmpty else {
            throw MQTTCodec.malformed("SUBSCRIBE has no topic filter [MQTT-3.8.3-3]")
        }
        return MQTTSubscribe(packetID: packetID, subscriptions: subscriptions)
    }
}
