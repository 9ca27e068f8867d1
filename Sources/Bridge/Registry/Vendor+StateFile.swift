import Drivers
import Persistence

extension [Vendor] {
    /// What the state file needs of these vendors (`StateStore`): their kinds, and what a file
    /// written by an older version lacks for their TVs.
    public var stateFileKinds: [StateFileKind] {
        map {
            StateFileKind(
                kind: $0.kind, manufacturer: $0.manufacturer, defaultPort: $0.defaultPort,
                findRemoteKey: $0.findRemoteKey, diagnosticSensors: $0.diagnosticSensors, controls: $0.controls)
        }
    }
}
