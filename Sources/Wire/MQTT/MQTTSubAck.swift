/// The result for one filter of a SUBSCRIBE (MQTT 3.1.1 §3.9.3).
public enum MQTTSubAckReturnCode: Equatable, Sendable {
    /// 0x00, 0x01, 0x02: subscribed, with this maximum QoS (possibly lower than asked).
    case granted(MQTTQoS)
    /// 0x80: the server refused the subscription.
    case failure

    static let failureByte: UInt8 = 0x80

    var byte: UInt8 {
        switch self {
        case .granted(let qos): qos.rawValue
        case .failure: Self.failureByte
        }
    }

    init?(byte: UInt8) {
        if byte == Self.failureByte {
            self = .failure
        } else if let qos = MQTTQoS(rawValue: byte) {
            self = .granted(qos)
        } else {
            return nil
        }
    }
}

/// SUBACK: answers SUBSCRIBE with one return code per filter, in order (MQTT 3.1.1 §3.9).
public struct MQTTSubAck: Equatable, Sendable {
    public var packetID: UInt16
    public var returnCodes: [MQTTSubAckReturnCode]

    public init(packetID: UInt16, returnCodes: [MQTTSubAckReturnCode]) {
        self.packetID = packetID
        self.returnCodes = returnCodes
    }

    func bodySize() throws(WireError) -> Int {
        try MQTTCodec.checkPacketID(packetID, "SUBACK")
        guard !returnCodes.isEmpty else {
            throw MQTTCodec.malformed("SUBACK has no return code [MQTT-3.8.4-5]")
        }
        return 2 + returnCodes.count
    }

    func writeBody(into buffer: inout [UInt8]) {
        MQTTCodec.appendUInt16(packetID, to: &buffer)
        for code in returnCodes { buffer.append(code.byte) }
    }

    /// Decodes the packet identifier and return codes; any byte but 0, 1, 2 and 0x80 is
    /// reserved [MQTT-3.9.3-2]. A SUBSCRIBE has at least one filter, so an empty list is malformed.
    static func decode(_ body: ArraySlice<UInt8>) throws(WireError) -> MQTTSubAck {
        var reader = ByteReader(body)
        let packetID = try MQTTCodec.readPacketID(&reader, "SUBACK")
        var returnCodes: [MQTTSubAckReturnCode] = []
        returnCodes.reserveCapacity(reader.remaining)
        for byte in reader.readRemaining() {
            guard let code = MQTTSubAckReturnCode(byte: byte) else {
                throw MQTTCodec.malformed("SUBACK return code 0x\(String(byte, radix: 16)) is reserved [MQTT-3.9.3-2]")
            }
            returnCodes.append(code)
        }
        guard !returnCodes.isEmpty else {
            throw MQTTCodec.malformed("SUBACK has no return code [MQTT-3.8.4-5]")
        }
        return MQTTSubAck(packetID: packetID, returnCodes: returnCodes)
    }
}
