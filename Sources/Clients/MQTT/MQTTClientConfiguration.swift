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
    /// TCP connect (and TLS handshake) timeout (3 s by default).
    public var connectTimeout: Duration
    public var backoff: ReconnectBackoff
    /// Inbound packets larger than this are not accepted (1 MiB by default): a PUBLISH is skipped
    /// without buffering its body, anything else ends the connection.
    public var maxPacketSize: Int
    /// Outgoing bytes queued beyond which publishers wait for the writer (Tests/README.md ›
    /// Reliability): the outbox holds at most this much plus one message, and the writer as much
    /// again.
    public var maxQueuedBytes: Int
    /// How long one write of at most `writeSliceSize` bytes may take before the connection
    /// counts as dead. Per slice, so a slow link that makes progress is never cut.
    public var writeTimeout: Duration

    /// The most the writer hands the socket at once, with one `writeTimeout` each.
    public static let writeSliceSize = 64 * 1024

    public init(
        host: String, port: UInt16 = 1883, tls: TLSConfiguration? = nil, session: MQTTSessionConfiguration,
        connectTimeout: Duration = .seconds(3), backoff: ReconnectBackoff = ReconnectBackoff(),
        maxPacketSize: Int = 1 << 20, maxQueuedBytes: Int = 1 << 20, writeTimeout: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.session = session
        self.connectTimeout = connectTimeout
        self.backoff = backoff
        self.maxPacketSize = maxPacketSize
        self.maxQueuedBytes = maxQueuedBytes
        self.writeTimeout = writeTimeout
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
    /// How long a connection must have been up for the delays to start again from `initial`.
    /// A broker that accepts and then drops the connection at once (it dislikes something we
    /// do on every connection) must not be reconnected to in a tight loop.
    public var stableAfter: Duration

    public init(
        initial: Duration = .seconds(1), maximum: Duration = .seconds(60), jitter: Double = 0.2,
        stableAfter: Duration = .seconds(2)
    ) {
        self.initial = initial
        self.maximum = maximum
        self.jitter = jitter
        self.stableAfter = stableAfter
    }

    /// Whether the delays start again from `initial` after a connection that ended: only
    /// when it had been accepted and up for `stableAfter`.
    /// - Parameter connectedFor: how long the broker's CONNACK was in force; nil when the
    ///   connection failed or was refused.
    public func resets(afterConnectedFor connectedFor: Duration?) -> Bool {
        guard let connectedFor else { return false }
        return connectedFor >= stableAfter
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
