import Configuration
import Drivers
import Persistence
import Support

/// The driver factory as the configuration sets it up (`wol`, each vendor's section, `tvs`).
extension VendorDriverFactory {
    public init(configuration: BridgeConfiguration, vendors: [Vendor], logger: Logger) {
        self.init(
            vendors: vendors, settings: Self.settings(configuration, logger: logger),
            sections: configuration.vendorSettings,
            tvOptions: configuration.tvs.map {
                (
                    host: $0.host, id: $0.id?.rawValue,
                    options: TVOptions(vendorKeys: $0.vendorOptions, allowsCleartext: $0.allowCleartext)
                )
            })
    }

    /// The settings every driver takes from the configuration.
    public static func settings(_ configuration: BridgeConfiguration, logger: Logger) -> DriverSettings {
        DriverSettings(
            wolTargets: configuration.wol.targets.map { DriverSettings.WakeTarget(host: $0.host, port: $0.port) },
            wolRepeat: configuration.wol.repeatCount,
            clientIdentity: StateStore.clientIdentity(directory: StateStore.resolveDirectory(configuration.stateDir)),
            logger: logger)
    }
}
