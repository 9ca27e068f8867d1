/// Quality of service for delivering an application message (MQTT 3.1.1 §4.3).
///
/// The raw value is the two-bit wire value; 3 is reserved and malformed everywhere it appears.
public enum MQTTQoS: UInt8, Sendable, Hashable, CaseIterable, Comparable {
    /// Fire and forget: delivered at most once, no acknowledgement (§4.3.1).
    case atMostOnce = 0
    /// Acknowledged by PUBACK; may be delivered more than once (§4.3.2).
    case atLeastOnce = 1
    /// Four-packet handshake PUBLISH, PUBREC, PUBREL, PUBCOMP; delivered exactly once (§4.3.3).
    case exactlyOnce = 2

    public static func < (lhs: MQTTQoS, rhs: MQTTQoS) -> Bool { lhs.rawValue < rhs.rawValue }
}
