/// What a driver was given by its TV and the bridge keeps for it (a Samsung's or an LG's token
/// and pinned certificate), and the bridge's own id; never logged.
public struct TVSecrets: Sendable, Equatable {
    public var token: String?
    /// SHA-256 of the TV's certificate, hex.
    public var certificatePin: String?
    /// A random id of this installation, the same for every TV, kept in the state file: the
    /// client id of protocols that want a stable one (the pre-2016 Samsung remote's).
    public var installationID: String?

    public init(token: String? = nil, certificatePin: String? = nil, installationID: String? = nil) {
        self.token = token
        self.certificatePin = certificatePin
        self.installationID = installationID
    }
}
