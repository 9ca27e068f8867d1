/// How a TLS client decides whether to trust the server.
public struct TLSConfiguration: Sendable, Hashable {
    public enum Trust: Sendable, Hashable {
        /// The system's CA store (`/etc/ssl/certs`), with a host name check. The default for brokers.
        case systemDefault
        /// Only certificates issued by the CAs in this PEM file, with a host name check.
        case certificateAuthority(file: String)
        /// Any certificate (a TV's self-signed one). The SHA-256 fingerprint of the certificate is
        /// reported after the handshake and, when `pinned` is given, must equal it (pin on first use).
        case selfSigned(pinned: [UInt8]?)
        /// No checks at all (`reject_unauthorized: false`). Encrypts, but does not authenticate.
        case none
    }

    public var trust: Trust
    /// PEM files of a client certificate and its key, for brokers that require one.
    public var certificateFile: String?
    public var privateKeyFile: String?
    /// A client certificate and key held in memory (the bridge's own, toward an Android TV).
    public var identity: TLSIdentity?

    public init(
        trust: Trust = .systemDefault, certificateFile: String? = nil, privateKeyFile: String? = nil,
        identity: TLSIdentity? = nil
    ) {
        self.trust = trust
        self.certificateFile = certificateFile
        self.privateKeyFile = privateKeyFile
        self.identity = identity
    }
}
