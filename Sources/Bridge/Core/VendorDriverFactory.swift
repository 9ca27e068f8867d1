import Drivers
import TVModel

/// The production driver factory: one driver per vendor.
public struct VendorDriverFactory: DriverFactory {
    public init() {}

    public func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError) -> TVDescription {
        throw DriverError(.unsupported, "no driver for \(kind.map(\.rawValue) ?? "this device") yet")
    }

    public func makeDriver(for description: TVDescription, persisted: PersistedTV?) -> any TVDriver {
        fatalError("no drivers yet")
    }
}
