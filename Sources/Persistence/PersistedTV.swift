import TVModel

public struct PersistedTV: Equatable, Sendable {
    public var identity: TVIdentity
    public var capabilities: TVCapabilities?
    /// App name → id, in display order.
    public var apps: [AppEntry]?
    /// The token the TV issued (a Samsung's remote-control token, an LG's client-key; a secret:
    /// never logged).
    public var token: String?
    /// SHA-256 of the TV's certificate (Samsung, LG), hex, pinned on first use.
    public var certificatePin: String?
    /// Unix time the TV last answered.
    public var lastSeen: Double?

    public init(identity: TVIdentity, capabilities: TVCapabilities? = nil, apps: [AppEntry]? = nil) {
        self.identity = identity
        self.capabilities = capabilities
        self.apps = apps
    }
}
