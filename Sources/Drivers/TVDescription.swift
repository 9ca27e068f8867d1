import TVModel

/// What the bridge knows about a TV besides its live state: identity, capabilities, apps.
public struct TVDescription: Equatable, Sendable {
    public var identity: TVIdentity
    public var capabilities: TVCapabilities
    /// Installed (or configured) apps, in display order.
    public var apps: [TVApp]

    public init(identity: TVIdentity, capabilities: TVCapabilities, apps: [TVApp] = []) {
        self.identity = identity
        self.capabilities = capabilities
        self.apps = apps
    }
}
