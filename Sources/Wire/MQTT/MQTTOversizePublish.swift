/// What `MQTTFrameDecoder.nextFrame()` found.
public enum MQTTFrame: Equatable, Sendable {
    case packet(MQTTPacket)
    /// A PUBLISH over the size limit, skipped without buffering its body.
    case oversizePublish(MQTTOversizePublish)
}

/// The header of a PUBLISH too large to accept: enough to acknowledge it and to log it.
public struct MQTTOversizePublish: Equatable, Sendable {
    public var topic: String
    public var qos: MQTTQoS
    public var retain: Bool
    /// Present exactly when `qos` is above 0, as in `MQTTPublish`.
    public var packetID: UInt16?
    /// The whole packet's size in bytes, fixed header included.
    public var size: Int

    public init(topic: String, qos: MQTTQoS, retain: Bool, packetID: UInt16?, size: Int) {
        self.topic = topic
        self.qos = qos
        self.retain = retain
        self.packetID = packetID
        self.size = size
    }

    /// Reads the topic and packet identifier from the start of the body (§3.3.2) of a packet
    /// with remaining length `length`; `nil` while they have not all arrived. At most 65,539 bytes are ever needed.
    static func decode(flags: UInt8, bodyStart: ArraySlice<UInt8>, length: Int, size: Int) throws(WireError)
        -> MQTTOversizePublish?
    {
        try MQTTPublish.checkFlags(flags)
        let qos = MQTTQoS(rawValue: (flags & MQTTPublish.Flags.qosMask) >> MQTTPublish.Flags.qosShift) ?? .atMostOnce
        guard bodyStart.count >= 2 else { return nil }
        let topicLength = Int(bodyStart[bodyStart.startIndex]) << 8 | Int(bodyStart[bodyStart.startIndex + 1])
        let needed = 2 + topicLength + (qos == .atMostOnce ? 0 : 2)
        guard needed <= length else { throw MQTTCodec.malformed("PUBLISH topic name is longer than the packet") }
        guard bodyStart.count >= needed else { return nil }
        var reader = ByteReader(bodyStart)
        let topic = try MQTTCodec.readString(&reader, "the PUBLISH topic name")
        try MQTTTopic.validateName(topic)
        let packetID = qos == .atMostOnce ? nil : try MQTTCodec.readPacketID(&reader, "PUBLISH")
        return MQTTOversizePublish(
            topic: topic, qos: qos, retain: flags & MQTTPublish.Flags.retain != 0, packetID: packetID, size: size)
    }
}
