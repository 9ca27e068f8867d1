/// UNSUBSCRIBE: removes subscriptions by their exact filter strings (MQTT 3.1.1 §3.10).
public struct MQTTUnsubscribe: Equatable, Sendable {
    /// Non-zero (§2.3.1).
    public var packetID: UInt16
    /// At least one [MQTT-3.10.3-2].
    public var filters: [String]

    public init(packetID: UInt16, filters: [String]) {
        self.packetID = packetID
        self.filters = filters
    }

    func bodySize() throws(WireError) -> Int {
        try MQTTCodec.checkPacketID(packetID, "UNSUBSCRIBE")
        guard !filters.isEmpty else {
            throw MQTTCodec.malformed("UNSUBSCRIBE has no topic filter [MQTT-3.10.3-2]")
        }
        var size = 2
        for filter in filters {
            try MQTTTopic.validateFilter(filter)
            size += 2 + filter.utf8.count
        }
        return size
    }

    func writeBody(into buffer: inout [UInt8]) {
        MQTTCodec.appendUInt16(packetID, to: &buffer)
        for filter in filters { MQTTCodec.appendString(filter, to: &buffer) }
    }

    /// Decodes the packet identifier and the filters (§3.10.2, §3.10.3).
    static func decode(_ body: ArraySlice<UInt8>) throws(WireError) -> MQTTUnsubscribe {
        var reader = ByteReader(body)
        let packetID = try MQTTCodec.readPacketID(&reader, "UNSUBSCRIBE")
        var filters: [String] = []
        while !reader.isAtEnd {
            let filter = try MQTTCodec.readString(&reader, "an UNSUBSCRIBE topic filter")
            try MQTTTopic.validateFilter(filter)
            filters.append(filter)
        }
        guard !filters.isEmpty else {
            throw MQTTCodec.malformed("UNSUBSCRIBE has no topic filter [MQTT-3.10.3-2]")
        }
        return MQTTUnsubscribe(packetID: packetID, filters: filters)
    }
}
