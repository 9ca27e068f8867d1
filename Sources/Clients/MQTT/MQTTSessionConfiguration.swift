import Wire

/// What an `MQTTSession` sends in CONNECT, and how long it waits for the server.
public struct MQTTSessionConfiguration: Equatable, Sendable {
    /// Must be unique per broker: the server closes the older of two connections sharing an
    /// id [MQTT-3.1.4-2]. Empty only with `cleanSession` [MQTT-3.1.3-7].
    public var clientID: String
    /// Start a fresh session on every connection (§3.1.2.4).
    public var cleanSession: Bool
    /// Seconds of send silence after which PINGREQ goes out; 0 disables keep-alive (§3.1.2.10).
    public var keepAlive: UInt16
    /// Published by the server if the connection is lost without DISCONNECT (§3.1.2.5).
    public var will: MQTTWill?
    public var username: String?
    /// Requires `username` [MQTT-3.1.2-22].
    public var password: [UInt8]?
    /// How long to wait for PINGRESP before declaring the connection dead (§3.1.2.10: the
    /// client "SHOULD close" it after "a reasonable amount of time").
    public var pingTimeout: Duration
    /// How long to wait for CONNACK after sending CONNECT (§3.1.4: the server may simply
    /// close on a bad CONNECT, but a half-open TCP connection would otherwise hang forever).
    public var connAckTimeout: Duration

    /// - Parameters:
    ///   - pingTimeout: defaults to the keep-alive or 10 seconds, whichever is smaller
    ///     (10 seconds when keep-alive is off, where it is unused). A broker tolerates 1.5 ×
    ///     keep-alive of silence [MQTT-3.1.2-24], so a PINGRESP later than that, or than
    ///     10 s on a LAN, means the path is gone.
    ///   - connAckTimeout: defaults to 10 seconds.
    public init(
        clientID: String, cleanSession: Bool = true, keepAlive: UInt16 = 60, will: MQTTWill? = nil,
        username: String? = nil, password: [UInt8]? = nil, pingTimeout: Duration? = nil,
        connAckTimeout: Duration = .seconds(10)
    ) {
        self.clientID = clientID
        self.cleanSession = cleanSession
        self.keepAlive = keepAlive
        self.will = will
        self.username = username
        self.password = password
        self.pingTimeout = pingTimeout ?? Self.defaultPingTimeout(keepAlive: keepAlive)
        self.connAckTimeout = connAckTimeout
    }

    /// The smaller of the keep-alive and 10 seconds; 10 seconds when keep-alive is off.
    public static func defaultPingTimeout(keepAlive: UInt16) -> Duration {
        keepAlive == 0 ? .seconds(10) : min(.seconds(Int(keepAlive)), .seconds(10))
    }

    /// The keep-alive as a duration, or `nil` when it is off.
    var keepAliveInterval: Duration? {
        keepAlive == 0 ? nil : .seconds(Int(keepAlive))
    }

    /// The CONNECT packet this configuration describes (§3.1).
    public var connectPacket: MQTTConnect {
        MQTTConnect(
            clientID: clientID, cleanSession: cleanSession, keepAlive: keepAlive, will: will, username: username,
            password: password)
    }
}
