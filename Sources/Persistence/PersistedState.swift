/// What survives a restart (the state directory's `state.json`): every known TV with what was
/// learned about it.
public struct PersistedState: Equatable, Sendable {
    public var version = 1
    /// A random id of this installation, made once and kept (`ensureInstallationID`): what
    /// the bridge calls itself where a protocol wants a stable client id.
    public var installationID: String?
    public var tvs: [PersistedTV] = []

    public init(tvs: [PersistedTV] = []) { self.tvs = tvs }
}
