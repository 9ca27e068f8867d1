/// The will: a message the server publishes on the client's behalf if the connection
/// ends without a DISCONNECT (MQTT 3.1.1 §3.1.2.5–§3.1.2.7).
public struct MQTTWill: Equatable, Sendable {
    /// A topic name: no wildcards (§3.1.3.2).
    public var topic: String
    /// At most 65535 bytes: the will message is length-prefixed binary data (§3.1.3.3).
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }
}

/// CONNECT: the first packet a client sends (MQTT 3.1.1 §3.1). Protocol name "MQTT", level 4.
public struct MQTTConnect: Equatable, Sendable {
    /// May be empty only with a clean session [MQTT-3.1.3-7]; servers must accept 1…23
    /// characters of `[0-9a-zA-Z]` and may accept more [MQTT-3.1.3-5].
    public var clientID: String
    /// Discard any previous session and start a new one (§3.1.2.4).
    public var cleanSession: Bool
    /// Seconds; 0 turns the keep-alive mechanism off (§3.1.2.10).
    public var keepAlive: UInt16
    public var will: MQTTWill?
    public var username: String?
    /// Only allowed together with a user name [MQTT-3.1.2-22]; at most 65535 bytes.
    public var password: [UInt8]?

    public init(
        clientID: String, cleanSession: Bool = true, keepAlive: UInt16 = 60, will: MQTTWill? = nil,
        username: String? = nil, password: [UInt8]? = nil
    ) {
        self.clientID = clientID
        self.cleanSession = cleanSession
        self.keepAlive = keepAlive
        self.will = will
        self.username = username
        self.password = password
    }

    /// Connect flags byte (§3.1.2.3, Figure 3.4).
    enum Flags {
        static let username: UInt8 = 0x80
        static let password: UInt8 = 0x40
        static let willRetain: UInt8 = 0x20
        static let willQoSShift: UInt8 = 3
        static let willQoSMask: UInt8 = 0x18
        static let will: UInt8 = 0x04
        static let cleanSession: UInt8 = 0x02
        /// Must be 0 [MQTT-3.1.2-3].
        static let reserved: UInt8 = 0x01
    }

    /// Protocol level 4 is MQTT 3.1.1 (§3.1.2.2).
    static let protocolLevel: UInt8 = 4
    private static let protocolName = Array("MQTT".utf8)

    var flags: UInt8 {
        var flags: UInt8 = cleanSession ? Flags.cleanSession : 0
        if let will {
            flags |= Flags.will | will.qos.rawValue << Flags.willQoSShift
            if will.retain { flags |= Flags.willRetain }
        }
        if username != nil { flags |= Flags.username }
        if password != nil { flags |= Flags.password }
        return flags
    }

    /// Validates every field and returns the remaining length.
    func bodySize() throws(WireError) -> Int {
        guard !clientID.isEmpty || cleanSession else {
            throw MQTTCodec.malformed("an empty client identifier requires a clean session [MQTT-3.1.3-7]")
        }
        guard password == nil || username != nil else {
            throw MQTTCodec.malformed("a password requires a user name [MQTT-3.1.2-22]")
        }
        // Protocol name (2 + 4), level, flags, keep alive.
        var size = 10 + (try MQTTCodec.encodedSize(ofString: clientID, "client identifier"))
        if let will {
            try MQTTTopic.validateName(will.topic)
            size += 2 + will.topic.utf8.count
            size += try MQTTCodec.encodedSize(ofBinary: will.payload, "will message")
        }
        if let username { size += try MQTTCodec.encodedSize(ofString: username, "user name") }
        if let password { size += try MQTTCodec.encodedSize(ofBinary: password, "password") }
        return size
    }

    func writeBody(into buffer: inout [UInt8]) {
        MQTTCodec.appendBinary(Self.protocolName, to: &buffer)
        buffer.append(Self.protocolLevel)
        buffer.append(flags)
        MQTTCodec.appendUInt16(keepAlive, to: &buffer)
        MQTTCodec.appendString(clientID, to: &buffer)
        if let will {
            MQTTCodec.appendString(will.topic, to: &buffer)
            MQTTCodec.appendBinary(will.payload, to: &buffer)
        }
        if let username { MQTTCodec.appendString(username, to: &buffer) }
        if let password { MQTTCodec.appendBinary(password, to: &buffer) }
    }

    /// Decodes the variable header and payload (§3.1.2, §3.1.3).
    ///
    /// Another protocol name or level is `.unsupported` (a server answers CONNACK 0x01,
    /// §3.1.2.2); everything else that breaks a rule is `.malformed`. An empty client id
    /// without a clean session is refused here too, although a full server would answer
    /// CONNACK 0x02 instead [MQTT-3.1.3-8]: this codec only serves scripted test brokers.
    static func decode(_ body: ArraySlice<UInt8>) throws(WireError) -> MQTTConnect {
        var reader = ByteReader(body)
        let name = try MQTTCodec.readBinary(&reader, "the protocol name")
        guard name.elementsEqual(protocolName) else {
            throw WireError.unsupported(MQTTCodec.proto, "protocol name is not \"MQTT\" (§3.1.2.1)")
        }
        let level = try MQTTCodec.readUInt8(&reader, "the protocol level")
        guard level == protocolLevel else {
            throw WireError.unsupported(MQTTCodec.proto, "protocol level \(level) is not 4 (MQTT 3.1.1, §3.1.2.2)")
        }
        let flags = try MQTTCodec.readUInt8(&reader, "the connect flags")
        guard flags & Flags.reserved == 0 else {
            throw MQTTCodec.malformed("CONNECT reserved flag is set [MQTT-3.1.2-3]")
        }
        let hasWill = flags & Flags.will != 0
        let willQoSBits = (flags & Flags.willQoSMask) >> Flags.willQoSShift
        let willRetain = flags & Flags.willRetain != 0
        guard hasWill || (willQoSBits == 0 && !willRetain) else {
            throw MQTTCodec.malformed("will QoS or retain set without the will flag [MQTT-3.1.2-11]")
        }
        guard let willQoS = MQTTQoS(rawValue: willQoSBits) else {
            throw MQTTCodec.malformed("will QoS is 3 [MQTT-3.1.2-14]")
        }
        let hasUsername = flags & Flags.username != 0
        let hasPassword = flags & Flags.password != 0
        guard hasUsername || !hasPassword else {
            throw MQTTCodec.malformed("password flag set without the user name flag [MQTT-3.1.2-22]")
        }
        let keepAlive = try MQTTCodec.readUInt16(&reader, "the keep alive")
        let cleanSession = flags & Flags.cleanSession != 0
        let clientID = try MQTTCodec.readString(&reader, "the client identifier")
        guard !clientID.isEmpty || cleanSession else {
            throw MQTTCodec.malformed("an empty client identifier requires a clean session [MQTT-3.1.3-8]")
        }
        var will: MQTTWill?
        if hasWill {
            let topic = try MQTTCodec.readString(&reader, "the will topic")
            try MQTTTopic.validateName(topic)
            let payload = try MQTTCodec.readBinary(&reader, "the will message")
            will = MQTTWill(topic: topic, payload: Array(payload), qos: willQoS, retain: willRetain)
        }
        let username = hasUsername ? try MQTTCodec.readString(&reader, "the user name") : nil
        let password = hasPassword ? Array(try MQTTCodec.readBinary(&reader, "the password")) : nil
        try MQTTCodec.expectEnd(reader, "CONNECT")
        return MQTTConnect(
            clientID: clientID, cleanSession: cleanSession, keepAlive: keepAlive, will: will,
            username: username, password: password)
    }
}
