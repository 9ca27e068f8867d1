/// Any MQTT 3.1.1 control packet, in either direction (MQTT 3.1.1 §2, §3).
///
/// Encoding validates as strictly as decoding: a packet that `encode(into:)` accepts is one
/// `decode(header:body:)` accepts, and the reverse. Packets are framed by `MQTTFrameDecoder`.
public enum MQTTPacket: Equatable, Sendable {
    case connect(MQTTConnect)
    case connAck(MQTTConnAck)
    case publish(MQTTPublish)
    /// QoS 1 acknowledgement (§3.4).
    case pubAck(UInt16)
    /// QoS 2 part 1: publish received (§3.5).
    case pubRec(UInt16)
    /// QoS 2 part 2: publish release (§3.6).
    case pubRel(UInt16)
    /// QoS 2 part 3: publish complete (§3.7).
    case pubComp(UInt16)
    case subscribe(MQTTSubscribe)
    case subAck(MQTTSubAck)
    case unsubscribe(MQTTUnsubscribe)
    /// Answers UNSUBSCRIBE (§3.11).
    case unsubAck(UInt16)
    /// Keep-alive probe from the client (§3.12).
    case pingReq
    /// The server's answer to PINGREQ (§3.13).
    case pingResp
    /// The client's last packet on a clean close; the will is discarded (§3.14).
    case disconnect

    /// Control packet types, the high nibble of the fixed header (§2.2.1, Table 2.1).
    enum PacketType: UInt8 {
        case connect = 1
        case connAck
        case publish
        case pubAck
        case pubRec
        case pubRel
        case pubComp
        case subscribe
        case subAck
        case unsubscribe
        case unsubAck
        case pingReq
        case pingResp
        case disconnect

        var name: String {
            switch self {
            case .connect: "CONNECT"
            case .connAck: "CONNACK"
            case .publish: "PUBLISH"
            case .pubAck: "PUBACK"
            case .pubRec: "PUBREC"
            case .pubRel: "PUBREL"
            case .pubComp: "PUBCOMP"
            case .subscribe: "SUBSCRIBE"
            case .subAck: "SUBACK"
            case .unsubscribe: "UNSUBSCRIBE"
            case .unsubAck: "UNSUBACK"
            case .pingReq: "PINGREQ"
            case .pingResp: "PINGRESP"
            case .disconnect: "DISCONNECT"
            }
        }

        /// The only flags allowed for every type but PUBLISH (§2.2.2, Table 2.2).
        var requiredFlags: UInt8 {
            switch self {
            case .pubRel, .subscribe, .unsubscribe: 0x02
            default: 0x00
            }
        }

        /// The remaining length of types whose length is fixed (§3.2.1, §3.4.1…§3.14.1).
        var fixedRemainingLength: Int? {
            switch self {
            case .connAck, .pubAck, .pubRec, .pubRel, .pubComp, .unsubAck: 2
            case .pingReq, .pingResp, .disconnect: 0
            case .connect, .publish, .subscribe, .subAck, .unsubscribe: nil
            }
        }
    }

    var packetType: PacketType {
        switch self {
        case .connect: .connect
        case .connAck: .connAck
        case .publish: .publish
        case .pubAck: .pubAck
        case .pubRec: .pubRec
        case .pubRel: .pubRel
        case .pubComp: .pubComp
        case .subscribe: .subscribe
        case .subAck: .subAck
        case .unsubscribe: .unsubscribe
        case .unsubAck: .unsubAck
        case .pingReq: .pingReq
        case .pingResp: .pingResp
        case .disconnect: .disconnect
        }
    }

    /// The packet type's name as the spec writes it ("PUBLISH", "CONNACK"…), for log lines.
    public var typeName: String { packetType.name }

    // MARK: - Encoding

    /// Validates every field and returns the remaining length (§2.2.3).
    private func remainingLength() throws(WireError) -> Int {
        let length: Int
        switch self {
        case .connect(let connect): length = try connect.bodySize()
        case .connAck(let connAck):
            try connAck.validate()
            length = 2
        case .publish(let publish): length = try publish.bodySize()
        case .pubAck(let id), .pubRec(let id), .pubRel(let id), .pubComp(let id), .unsubAck(let id):
            try MQTTCodec.checkPacketID(id, typeName)
            length = 2
        case .subscribe(let subscribe): length = try subscribe.bodySize()
        case .subAck(let subAck): length = try subAck.bodySize()
        case .unsubscribe(let unsubscribe): length = try unsubscribe.bodySize()
        case .pingReq, .pingResp, .disconnect: length = 0
        }
        guard length <= MQTTCodec.maxRemainingLength else {
            throw MQTTCodec.tooLarge("\(typeName) remaining length \(length) exceeds 268435455 (§2.2.3)")
        }
        return length
    }

    /// The number of bytes `encode(into:)` appends, after checking the packet is valid.
    /// - Throws: `WireError` for anything `encode(into:)` would refuse.
    public func encodedSize() throws(WireError) -> Int {
        let length = try remainingLength()
        return 1 + MQTTCodec.remainingLengthSize(length) + length
    }

    /// Appends the packet's bytes to `buffer`; on a throw, `buffer` is unchanged.
    ///
    /// Validates like the decoder: topic rules (§4.7), strings of at most 65535 bytes
    /// without U+0000 (§1.5.3), non-zero packet identifiers (§2.3.1), the DUP/QoS rule
    /// (§3.3.1.1), and a remaining length of at most 268,435,455 (§2.2.3).
    /// - Throws: `WireError` (`.malformed` or `.tooLarge`).
    public func encode(into buffer: inout [UInt8]) throws(WireError) {
        let length = try remainingLength()
        let type = packetType
        let flags: UInt8
        if case .publish(let publish) = self { flags = publish.flags } else { flags = type.requiredFlags }
        buffer.append(type.rawValue << 4 | flags)
        MQTTCodec.appendRemainingLength(length, to: &buffer)
        switch self {
        case .connect(let connect): connect.writeBody(into: &buffer)
        case .connAck(let connAck): connAck.writeBody(into: &buffer)
        case .publish(let publish): publish.writeBody(into: &buffer)
        case .pubAck(let id), .pubRec(let id), .pubRel(let id), .pubComp(let id), .unsubAck(let id):
            MQTTCodec.appendUInt16(id, to: &buffer)
        case .subscribe(let subscribe): subscribe.writeBody(into: &buffer)
        case .subAck(let subAck): subAck.writeBody(into: &buffer)
        case .unsubscribe(let unsubscribe): unsubscribe.writeBody(into: &buffer)
        case .pingReq, .pingResp, .disconnect: break
        }
    }

    /// The packet's bytes in a new array.
    /// - Throws: `WireError`, as `encode(into:)`.
    public func encoded() throws(WireError) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(try encodedSize())
        try encode(into: &buffer)
        return buffer
    }

    // MARK: - Decoding

    /// Checks the first byte of a fixed header: a known type, and the flags §2.2.2 requires.
    ///
    /// Types 0 and 15 are reserved (§2.2.1). PUBREL, SUBSCRIBE and UNSUBSCRIBE must carry
    /// 0010 and every other type but PUBLISH 0000 [MQTT-2.2.2-1, MQTT-2.2.2-2]; PUBLISH may
    /// not have QoS 3 [MQTT-3.3.1-4] nor DUP with QoS 0 [MQTT-3.3.1-2].
    static func checkFixedHeader(_ header: UInt8) throws(WireError) -> PacketType {
        guard let type = PacketType(rawValue: header >> 4) else {
            throw MQTTCodec.malformed("packet type \(header >> 4) is reserved (§2.2.1)")
        }
        let flags = header & 0x0F
        if type == .publish {
            try MQTTPublish.checkFlags(flags)
        } else if flags != type.requiredFlags {
            throw MQTTCodec.malformed(
                "\(type.name) fixed-header flags are \(String(flags, radix: 2)), "
                    + "not \(String(type.requiredFlags, radix: 2)) [MQTT-2.2.2-2]")
        }
        return type
    }

    /// Checks the remaining length of the fixed-length types (PUBACK family 2, PINGREQ 0…).
    static func checkRemainingLength(_ length: Int, of type: PacketType) throws(WireError) {
        if let expected = type.fixedRemainingLength, length != expected {
            throw MQTTCodec.malformed("\(type.name) remaining length is \(length), not \(expected)")
        }
    }

    /// Decodes one packet from its fixed-header byte and its body (the `remaining length` bytes).
    ///
    /// Accepts the packets of both directions, so it serves clients and scripted brokers.
    /// - Parameters:
    ///   - header: the first byte of the fixed header: type and flags (§2.2).
    ///   - body: exactly the variable header and payload.
    /// - Throws: `WireError.malformed` for anything the spec forbids; `.unsupported` for a
    ///   CONNECT of another protocol version.
    public static func decode(header: UInt8, body: ArraySlice<UInt8>) throws(WireError) -> MQTTPacket {
        let type = try checkFixedHeader(header)
        try checkRemainingLength(body.count, of: type)
        switch type {
        case .connect: return .connect(try MQTTConnect.decode(body))
        case .connAck: return .connAck(try MQTTConnAck.decode(body))
        case .publish: return .publish(try MQTTPublish.decode(flags: header & 0x0F, body: body))
        case .pubAck: return .pubAck(try ackID(body, type))
        case .pubRec: return .pubRec(try ackID(body, type))
        case .pubRel: return .pubRel(try ackID(body, type))
        case .pubComp: return .pubComp(try ackID(body, type))
        case .subscribe: return .subscribe(try MQTTSubscribe.decode(body))
        case .subAck: return .subAck(try MQTTSubAck.decode(body))
        case .unsubscribe: return .unsubscribe(try MQTTUnsubscribe.decode(body))
        case .unsubAck: return .unsubAck(try ackID(body, type))
        case .pingReq: return .pingReq
        case .pingResp: return .pingResp
        case .disconnect: return .disconnect
        }
    }

    /// The packet identifier that is the whole body of the acknowledgement packets.
    private static func ackID(_ body: ArraySlice<UInt8>, _ type: PacketType) throws(WireError) -> UInt16 {
        var reader = ByteReader(body)
        return try MQTTCodec.readPacketID(&reader, type.name)
    }
}
