import Wire

/// Helpers shared by the MQTT codec suites (prefixed to stay clear of other protocols' helpers).
enum MQTTTestSupport {
    /// Feeds `bytes` to a fresh frame decoder in one piece and drains every packet.
    static func decodeAll(_ bytes: [UInt8], maxPacketSize: Int = 1 << 20) throws(WireError) -> [MQTTPacket] {
        var decoder = MQTTFrameDecoder(maxPacketSize: maxPacketSize)
        decoder.append(bytes)
        var packets: [MQTTPacket] = []
        while let packet = try decoder.next() { packets.append(packet) }
        return packets
    }

    /// Decodes bytes that must hold exactly one packet.
    static func decodeOne(_ bytes: [UInt8]) throws(WireError) -> MQTTPacket? {
        let packets = try decodeAll(bytes)
        return packets.count == 1 ? packets[0] : nil
    }

    /// The error kind a throwing decode produced, or `nil` if it did not throw.
    static func errorKind(_ body: () throws(WireError) -> Void) -> WireError.Kind? {
        do {
            try body()
            return nil
        } catch {
            return error.kind
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

/// Deterministic SplitMix64, so random split tests are reproducible.
struct MQTTSeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
