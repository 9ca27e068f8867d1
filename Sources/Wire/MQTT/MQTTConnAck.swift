/// The server's answer to CONNECT (MQTT 3.1.1 §3.2.2.3, Table 3.1).
public enum MQTTConnectReturnCode: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 0x00: connection accepted.
    case accepted = 0
    /// 0x01: the server does not support the level of the MQTT protocol requested.
    case unacceptableProtocolVersion = 1
    /// 0x02: the client identifier is well-formed UTF-8 but not allowed by the server.
    case identifierRejected = 2
    /// 0x03: the network connection was made but the MQTT service is unavailable.
    case serverUnavailable = 3
    /// 0x04: the data in the user name or password is malformed.
    case badUserNameOrPassword = 4
    /// 0x05: the client is not authorized to connect.
    case notAuthorized = 5

    /// The meaning from the spec's table, in words fit for a log line.
    public var description: String {
        switch self {
        case .accepted: "connection accepted"
        case .unacceptableProtocolVersion: "unacceptable protocol version"
        case .identifierRejected: "identifier rejected"
        case .serverUnavailable: "server unavailable"
        case .badUserNameOrPassword: "bad user name or password"
        case .notAuthorized: "not authorized"
        }
    }
}

/// CONNACK: acknowledges CONNECT (MQTT 3.1.1 §3.2). Remaining length is always 2.
public struct MQTTConnAck: Equatable, Sendable {
    /// Whether the server resumed a stored session (§3.2.2.2). Always false when refused [MQTT-3.2.2-4].
    public var sessionPresent: Bool
    public var returnCode: MQTTConnectReturnCode

    public init(sessionPresent: Bool = false, returnCode: MQTTConnectReturnCode = .accepted) {
        self.sessionPresent = sessionPresent
        self.returnCode = returnCode
    }

    func validate() throws(WireError) {
        guard !sessionPresent || returnCode == .accepted else {
            throw MQTTCodec.malformed("CONNACK refuses the connection but sets session present [MQTT-3.2.2-4]")
        }
    }

    func writeBody(into buffer: inout [UInt8]) {
        buffer.append(sessionPresent ? 1 : 0)
        buffer.append(returnCode.rawValue)
    }

    /// Decodes the two-byte variable header (§3.2.2). Reserved bits 7–1 of the first byte
    /// must be 0 (§3.2.2.1); return codes 6–255 are reserved and rejected.
    static func decode(_ body: ArraySlice<UInt8>) throws(WireError) -> MQTTConnAck {
        guard body.count == 2 else {
            throw MQTTCodec.malformed("CONNACK remaining length is \(body.count), not 2 (§3.2.1)")
        }
        let acknowledgeFlags = body[body.startIndex]
        let code = body[body.startIndex + 1]
        guard acknowledgeFlags & 0xFE == 0 else {
            throw MQTTCodec.malformed("CONNACK reserved acknowledge flags are set (§3.2.2.1)")
        }
        guard let returnCode = MQTTConnectReturnCode(rawValue: code) else {
            throw MQTTCodec.malformed("CONNACK return code \(code) is reserved (§3.2.2.3)")
        }
        let connAck = MQTTConnAck(sessionPresent: acknowledgeFlags == 1, returnCode: returnCode)
        try connAck.validate()
        return connAck
    }
}
