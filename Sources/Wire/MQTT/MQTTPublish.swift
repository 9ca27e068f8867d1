/// PUBLISH: an application message in either direction (MQTT 3.1.1 §3.3).
public struct MQTTPublish: Equatable, Sendable {
    /// A topic name: no wildcards [MQTT-3.3.2-2].
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    /// Store as the topic's retained message; an empty retained payload clears it (§3.3.1.3).
    public var retain: Bool
    /// Set on redelivery [MQTT-3.3.1-1]; must be false for QoS 0 [MQTT-3.3.1-2].
    public var dup: Bool
    /// Present, and non-zero, exactly when `qos` is above 0 (§2.3.1, §3.3.2.2).
    public var packetID: UInt16?

    public init(
        topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false, dup: Bool = false,
        packetID: UInt16? = nil
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.dup = dup
        self.packetID = packetID
    }

    /// Fixed-header flag bits (§3.3.1, Figure 3.10).
    enum Flags {
        static let dup: UInt8 = 0x08
        static let qosShift: UInt8 = 1
        static let qosMask: UInt8 = 0x06
        static let retain: UInt8 = 0x01
    }

    var flags: UInt8 {
        var flags = qos.rawValue << Flags.qosShift
        if dup { flags |= Flags.dup }
        if retain { flags |= Flags.retain }
        return flags
    }

    /// Validates the topic, the DUP rule and the packet identifier, and returns the remaining length.
    func bodySize() throws(WireError) -> Int {
        try MQTTTopic.validateName(topic)
        var size = 2 + topic.utf8.count + payload.count
        switch (qos, packetID) {
        case (.atMostOnce, nil):
            guard !dup else { throw MQTTCodec.malformed("PUBLISH with QoS 0 sets DUP [MQTT-3.3.1-2]") }
        case (.atMostOnce, .some):
            throw MQTTCodec.malformed("PUBLISH with QoS 0 carries a packet identifier [MQTT-2.3.1-5]")
        case (_, nil):
            throw MQTTCodec.malformed("PUBLISH with QoS \(qos.rawValue) has no packet identifier [MQTT-2.3.1-1]")
        case (_, let id?):
            try MQTTCodec.checkPacketID(id, "PUBLISH")
            size += 2
        }
        return size
    }

    func writeBody(into buffer: inout [UInt8]) {
        MQTTCodec.appendString(topic, to: &buffer)
        if let packetID { MQTTCodec.appendUInt16(packetID, to: &buffer) }
        buffer.append(contentsOf: payload)
    }

    /// Checks the fixed-header flags alone, so a framer can reject them before the body arrives.
    static func checkFlags(_ flags: UInt8) throws(WireError) {
        let qosBits = (flags & Flags.qosMask) >> Flags.qosShift
        guard qosBits != 3 else { throw MQTTCodec.malformed("PUBLISH QoS is 3 [MQTT-3.3.1-4]") }
        guard qosBits != 0 || flags & Flags.dup == 0 else {
            throw MQTTCodec.malformed("PUBLISH with QoS 0 sets DUP [MQTT-3.3.1-2]")
        }
    }

    /// Decodes topic, optional packet identifier and payload (§3.3.2, §3.3.3).
    static func decode(flags: UInt8, body: ArraySlice<UInt8>) throws(WireError) -> MQTTPublish {
        try checkFlags(flags)
        let qos = MQTTQoS(rawValue: (flags & Flags.qosMask) >> Flags.qosShift) ?? .atMostOnce
        var reader = ByteReader(body)
        let topic = try MQTTCodec.readString(&reader, "the PUBLISH topic name")
        try MQTTTopic.validateName(topic)
        let packetID = qos == .atMostOnce ? nil : try MQTTCodec.readPacketID(&reader, "PUBLISH")
        return MQTTPublish(
            topic: topic, payload: Array(reader.readRemaining()), qos: qos, retain: flags & Flags.retain != 0,
            dup: flags & Flags.dup != 0, packetID: packetID)
    }
}
