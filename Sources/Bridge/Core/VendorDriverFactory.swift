import Drivers
import Support
import TVModel

/// The production driver factory: one driver per vendor, set up from the configuration.
public struct VendorDriverFactory: DriverFactory {
    public let settings: DriverSettings

    public init(settings: DriverSettings) {
        self.settings = settings
    }

    /// The settings the drivers take from the configuration (`wol`, `roku`, `samsung`).
    public init(configuration: BridgeConfiguration, logger: Logger) {
        self.init(settings: Self.settings(configuration, logger: logger))
    }

    public static func settings(_ configuration: BridgeConfiguration, logger: Logger)
        -> DriverSettings
    {
        DriverSettings(
            wolTargets: configuration.wol.targets.map {
                DriverSettings.WakeTarget(host: $0.host, port: $0.port)
            },
            wolRepeat: configuration.wol.repeatCount, rokuECP2: configuration.roku.ecp2.rawValue,
            samsungClientName: configuration.samsung.clientName, samsungApps: configuration.samsung.apps,
            logger: logger)
    }

    /// Roku when `kind` is `.roku` or unknown; Samsung is not built yet.
    public func probe(host: String, kind: TVKind?, port: UInt16?) async throws(DriverError)
        -> TVDescription
    {
        switch kind {
        case .roku, nil:
            return try await RokuProbe.describe(host: host, port: port, settings: settings)
        case .samsung:
            throw DriverError(.unsupported, "Samsung support is not built yet")
        }
    }

    public func makeDriver(for description: TVDescription, persisted: PersistedTV?) -> any TVDriver {
        switch description.identity.kind {
        case .roku:
            return RokuDriver(description: description, settings: settings)
        case .samsung:
            return UnsupportedDriver(description: description)
        }
    }
}
