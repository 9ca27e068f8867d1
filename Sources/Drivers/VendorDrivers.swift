import TVModel

/// One vendor's probe and driver maker in one driver factory, made by the vendor
/// (`Vendor.MakeDrivers`) from the settings when the factory is made, so whatever its drivers
/// share (Samsung's UPnP event listener) is made once there, in the vendor's own code.
public struct VendorDrivers: Sendable {
    /// Asks the device at `host` who it is, at `port` or the vendor's default port.
    public typealias Describe = @Sendable (_ host: String, _ port: UInt16?) async throws(DriverError) -> TVDescription
    /// A driver for a TV the bridge knows, with its secrets and its own options.
    public typealias MakeDriver =
        @Sendable (_ description: TVDescription, _ secrets: TVSecrets, _ options: TVOptions) -> any TVDriver

    let describe: Describe
    let makeDriver: MakeDriver

    public init(describe: @escaping Describe, makeDriver: @escaping MakeDriver) {
        self.describe = describe
        self.makeDriver = makeDriver
    }
}
