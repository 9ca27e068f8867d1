import Drivers
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
