import TVModel

/// Makes drivers: the seam between the bridge and the vendor protocols.
public protocol DriverFactory: Sendable {
    /// The vendors whose TVs it drives: what the bridge searches for, scans and accepts.
    var vendors: [Vendor] { get }

    /// Asks the device at `host` who it is. `kind` nil: try every vendor's port.
    func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError) -> TVDescription

    /// A driver for a TV the bridge knows (just probed, or remembered from the state file),
    /// with the secrets remembered for it.
    func makeDriver(for description: TVDescription, secrets: TVSecrets) -> any TVDriver
}

extension DriverFactory {
    public var vendors: [Vendor] { Vendors.all }
}

/// What a driver was given by its TV and the bridge keeps for it (Samsung: the token and
/// the pinned certificate), and the bridge's own id; never logged.
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
