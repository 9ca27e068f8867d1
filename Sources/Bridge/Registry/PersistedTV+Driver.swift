import Drivers
import Persistence
import TVModel

extension PersistedTV {
    /// What a driver starts from for a TV remembered in the state file (no capabilities saved:
    /// none known until the TV answers).
    public var tvDescription: TVDescription {
        TVDescription(
            identity: identity, capabilities: capabilities ?? TVCapabilities(),
            apps: (apps ?? []).map { TVApp(id: $0.id, name: $0.name) })
    }
}

extension TVSecrets {
    /// What the state file remembers for `tv` (nil: a TV not in it) and this installation's id,
    /// for its driver.
    public init(_ tv: PersistedTV?, installationID: String?) {
        self.init(token: tv?.token, certificatePin: tv?.certificatePin, installationID: installationID)
    }
}
