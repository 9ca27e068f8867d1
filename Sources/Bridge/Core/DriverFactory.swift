import Drivers
import TVModel

/// Makes drivers: the seam between the bridge and the vendor protocols.
public protocol DriverFactory: Sendable {
    /// Asks the device at `host` who it is. `kind` nil: try every vendor's port.
    func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError) -> TVDescription

    /// A driver for a TV the bridge knows (just probed, or remembered from the state file).
    func makeDriver(for description: TVDescription, persisted: PersistedTV?) -> any TVDriver
}
