import Configuration
import Drivers
import Support

/// The driver factory as the configuration sets it up (`wol`, each vendor's section, `tvs`).
extension VendorDriverFactory {
    public init(configuration: BridgeConfiguration, logger: Logger) {
        self.init(
            settings: Self.settings(configuration, logger: logger), vendorSettings: configuration.vendorSettings,
            tvOptions: configuration.tvs.map { (host: $0.host, id: $0.id?.rawValue, options: $0.vendorOptions) },
            logger: logger)
        cleartextAllowed = Set(
            configuration.tvs.filter(\.allowCleartext).flatMap { [$0.host] + ($0.id.map { [$0.rawValue] } ?? []) })
    }

    /// The settings every driver takes from the configuration.
    public static func settings(_ configuration: BridgeConfiguration, logger: Logger)
        -> DriverSettings
    {
        var settings = DriverSettings(
            wolTargets: configuration.wol.targets.map {
                DriverSettings.WakeTarget(host: $0.host, port: $0.port)
            },
            wolRepeat: configuration.wol.repeatCount, logger: logger)
        for section in Vendors.all.compactMap(\.configuration) {
            section.apply(configuration.vendorSettings, to: &settings)
        }
        return settings
    }
}
