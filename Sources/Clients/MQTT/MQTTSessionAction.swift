import Wire

/// What the driver of an `MQTTSession` must do, in order, after an event.
public enum MQTTSessionAction: Equatable, Sendable {
    /// Encode and write this packet.
    case send(MQTTPacket)
    /// CONNACK accepted the connection; any resent packets come just before this action.
    case connected(sessionPresent: Bool)
    /// CONNACK refused the connection (§3.2.2.3); a `closeConnection` follows.
    case connectRefused(MQTTConnectReturnCode)
    /// An inbound application message for the subscribers, exactly once per QoS 2 message.
    case deliver(MQTTPublish)
    /// The QoS 1 (PUBACK) or QoS 2 (PUBCOMP) publish with this id is done; the id is free.
    case publishCompleted(UInt16)
    /// SUBACK for this SUBSCRIBE: one return code per requested filter, in order (§3.9.3).
    case subscribeCompleted(UInt16, [MQTTSubAckReturnCode])
    /// UNSUBACK for this UNSUBSCRIBE (§3.11).
    case unsubscribeCompleted(UInt16)
    /// Close the network connection, then call `connectionClosed()`.
    case closeConnection(MQTTSessionCloseReason)
}

/// Why the session asks for the connection to be closed.
public enum MQTTSessionCloseReason: Equatable, Sendable, CustomStringConvertible {
    /// `disconnect()` was called; DISCONNECT was sent just before (§3.14).
    case disconnectRequested
    /// The server refused CONNECT with this return code (§3.2.2.3).
    case connectionRefused(MQTTConnectReturnCode)
    /// No CONNACK within `connAckTimeout` of CONNECT.
    case connAckTimeout
    /// No PINGRESP within `pingTimeout` of PINGREQ (§3.1.2.10).
    case pingTimeout
    /// The server broke the protocol (§4.8): a packet before CONNACK, a second CONNACK,
    /// a packet only clients send, a SUBACK of the wrong length…
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .disconnectRequested: "disconnect requested"
        case .connectionRefused(let code): "connection refused: \(code)"
        case .connAckTimeout: "no CONNACK in time"
        case .pingTimeout: "no PINGRESP in time (keep-alive)"
        case .protocolViolation(let reason): "protocol violation: \(reason)"
        }
    }
}

/// Why the session refused a request from its own application.
public struct MQTTSessionError: Error, Equatable, Sendable, CustomStringConvertible {
    private enum Code: Equatable, Sendable {
        case notConnected
        case packetIDsExhausted
        case invalidPacket(WireError)
    }

    private let code: Code

    /// The session has no accepted connection (before CONNACK, or closing): nothing was sent.
    public static let notConnected = MQTTSessionError(code: .notConnected)
    /// All 65535 packet identifiers are in flight [MQTT-2.3.1-2]: wait for acknowledgements.
    public static let packetIDsExhausted = MQTTSessionError(code: .packetIDsExhausted)

    /// The packet would break the protocol (topic or filter rules, sizes); nothing was sent.
    public static func invalidPacket(_ error: WireError) -> MQTTSessionError {
        MQTTSessionError(code: .invalidPacket(error))
    }

    /// The codec's reason, for `invalidPacket`.
    public var wireError: WireError? {
        if case .invalidPacket(let error) = code { error } else { nil }
    }

    public var description: String {
        switch code {
        case .notConnected: "MQTT session is not connected"
        case .packetIDsExhausted: "all 65535 MQTT packet identifiers are in use"
        case .invalidPacket(let error): "invalid MQTT packet: \(error)"
        }
    }
}
