import Net
import Wire

/// Where and how an `MQTTClient` connects.
public struct MQTTClientConfiguration: Sendable {
    public var host: String
    public var port: UInt16
    /// TLS settings for `mqtts://`; nil for plain TCP.
    public var tls: TLSConfiguration?
    /// The session: client id, keep-alive, will, credentials.
    public var session: MQTTSessionConfiguration
    /// TCP connect (and TLS handshake) timeout (SPEC §8: connect 3 s).
    public var connectTimeout: Duration
    public var backoff: ReconnectBackoff
    /// Inbound packets larger than this are refused before their body is read (SPEC §8).
    public var maxPacketSize: Int

    public init(
        host: String, port: UInt16 = 1883, tls: TLSConfiguration? = nil, session: MQTTSessionConfiguration,
        connectTimeout: Duration = .seconds(3), backoff: ReconnectBackoff = ReconnectBackoff(),
        maxPacketSize: Int = 1 << 20
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.session = session
        self.connectTimeout = connectTimeout
        self.backoff = backoff
        self.maxPacketSize = maxPacketSize
    }

    /// "mqtt://127.0.0.1:1883", for logs.
    public var serverDescription: String {
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "\(tls == nil ? "mqtt" : "mqtts")://\(host):\(port)"
    }
}

/// Exponential reconnection delays: `initial` doubling up to `maximum`, each one randomised
/// within ±`jitter` so a fleet of bridges does not reconnect in lockstep after a broker restart.
public struct ReconnectBackoff: Sendable, Equatable {
    public var initial: Duration
    public var maximum: Duration
    /// Fraction of the delay to randomise by (0.2 = ±20 %).
    public var jitter: Double

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(60), jitter: Double = 0.2) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay before reconnection attempt `attempt` (0 = the first retry).
    /// - Parameter unit: a random number in 0..<1 (passed in so tests are deterministic).
    public func delay(attempt: Int, unit: Double) -> Duration {
        var base = initial
        for _ in 0..<min(attempt, 30) where base < maximum { base = base * 2 }
        base = min(base, maximum)
        let factor = 1 + jitter * (2 * unit - 1)
        return min(maximum, base * factor)
    }
}

/// The client's connection, as reported on `MQTTClient.states`.
public enum MQTTConnectionState: Equatable, Sendable {
    case connecting
    /// CONNACK accepted; subscriptions have been re-sent.
    case connected(sessionPresent: Bool)
    /// The connection ended or could not be made; the client retries after a delay.
    case disconnected(reason: String)
    /// `stop()` finished, or `run()` was cancelled.
    case stopped
}

/// An application message received on a subscribed topic.
public struct MQTTMessage: Equatable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: MQTTQoS
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atMostOnce, retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// The payload as UTF-8 text (invalid sequences replaced).
    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// Why an `MQTTClient` call failed.
public enum MQTTClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no connection right now (QoS 0 publishes are not queued).
    case notConnected
    /// The client was stopped before the operation completed.
    case stopped
    /// The request breaks the protocol (topic rules, sizes); nothing was sent.
    case invalid(String)
    /// The broker refused a subscription (SUBACK 0x80).
    case subscriptionRefused(String)

    public var description: String {
        switch self {
        case .notConnected: "not connected to the MQTT broker"
        case .stopped: "the MQTT client was stopped"
        case .invalid(let reason): "invalid MQTT request: \(reason)"
        case .subscriptionRefused(let filter): "the broker refused the subscription to '\(filter)'"
        }
    }
}
