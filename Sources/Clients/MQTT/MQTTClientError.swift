import Net
import Wire

/// Why an `MQTTClient` call failed.
public enum MQTTClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no connection right now (QoS 0 publishes are not queued).
    case notConnected
    /// The client was stopped before the operation completed.
    case stopped
    /// The calling task was cancelled while it waited. A QoS 1/2 message already queued stays
    /// queued (and is resent after a reconnect); only the wait for its acknowledgement ends.
    case cancelled
    /// The request breaks the protocol (topic rules, sizes); nothing was sent.
    case invalid(String)
    /// The broker refused a subscription (SUBACK 0x80).
    case subscriptionRefused(String)

    public var description: String {
        switch self {
        case .notConnected: "not connected to the MQTT broker"
        case .stopped: "the MQTT client was stopped"
        case .cancelled: "cancelled while waiting for the MQTT broker"
        case .invalid(let reason): "invalid MQTT request: \(reason)"
        case .subscriptionRefused(let filter): "the broker refused the subscription to '\(filter)'"
        }
    }
}
