/// How to configure a test broker; the defaults give an anonymous plain-TCP broker on a free
/// loopback port with persistence off and everything logged.
public struct MosquittoOptions: Sendable {
    /// Address the listeners bind to (an IP literal; tests stay on loopback).
    public var host: String = "127.0.0.1"
    /// Plain MQTT port; nil picks a free one (kept across `restart()`).
    public var port: UInt16?
    /// `false` leaves only the TLS listener (`tls` must then be set).
    public var plainListener: Bool = true
    /// `allow_anonymous`: mosquitto 2.0 refuses anonymous clients unless this is set.
    public var allowAnonymous: Bool = true
    /// User name → password, written with `mosquitto_passwd -b` into a `password_file`.
    public var users: [String: String] = [:]
    /// A TLS listener.
    public var tls: MosquittoTLS?
    /// `max_keepalive`: the longest keepalive the broker grants. MQTT 5 clients asking for more
    /// get this value back as Server Keep Alive in CONNACK; mosquitto 2.0.11 still accepts larger
    /// MQTT 3.1.1 requests as they are (later 2.0.x releases refuse them).
    public var maxKeepalive: Int?
    /// `persistence`: off by default, so `restart()` really loses retained messages and sessions.
    public var persistence: Bool = false
    /// Lines appended to the generated configuration, verbatim. Keep information-level logging:
    /// readiness is detected from the log line `mosquitto version … running`.
    public var extraConfig: [String] = []
    /// How long `start` and `restart` wait for the listeners to accept connections.
    public var readyTimeout: Duration = .seconds(10)
    /// The broker executable: a path, or a name looked up on `PATH` and the sbin directories.
    public var executable: String = "mosquitto"

    public init(
        host: String = "127.0.0.1", port: UInt16? = nil, plainListener: Bool = true, allowAnonymous: Bool = true,
        users: [String: String] = [:], tls: MosquittoTLS? = nil, maxKeepalive: Int? = nil, persistence: Bool = false,
        extraConfig: [String] = [], readyTimeout: Duration = .seconds(10), executable: String = "mosquitto"
    ) {
        self.host = host
        self.port = port
        self.plainListener = plainListener
        self.allowAnonymous = allowAnonymous
        self.users = users
        self.tls = tls
        self.maxKeepalive = maxKeepalive
        self.persistence = persistence
        self.extraConfig = extraConfig
        self.readyTimeout = readyTimeout
        self.executable = executable
    }
}

/// A TLS listener: the server certificate and key, and the CA that signs client certificates.
public struct MosquittoTLS: Sendable {
    /// `cafile`: CA certificate(s) used to verify client certificates.
    public var caFile: String
    /// `certfile`: the server certificate (PEM).
    public var certFile: String
    /// `keyfile`: the server private key (PEM, unencrypted).
    public var keyFile: String
    /// `require_certificate`: clients must present a certificate signed by `caFile`.
    public var requireCertificate: Bool
    /// `use_identity_as_username`: the client certificate's CN becomes the user name.
    public var useIdentityAsUsername: Bool
    /// nil picks a free port (kept across `restart()`).
    public var port: UInt16?

    public init(
        caFile: String, certFile: String, keyFile: String, requireCertificate: Bool = false,
        useIdentityAsUsername: Bool = false, port: UInt16? = nil
    ) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.requireCertificate = requireCertificate
        self.useIdentityAsUsername = useIdentityAsUsername
        self.port = port
    }

    /// A listener serving `server`, trusting `authority` for client certificates.
    public init(
        authority: CertificateAuthority, server: CertificateFiles, requireCertificate: Bool = false,
        useIdentityAsUsername: Bool = false, port: UInt16? = nil
    ) {
        self.init(
            caFile: authority.certPath, certFile: server.certPath, keyFile: server.keyPath,
            requireCertificate: requireCertificate, useIdentityAsUsername: useIdentityAsUsername, port: port)
    }
}
