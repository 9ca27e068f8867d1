import Clients
import Drivers
import Support

/// The driver factory as the configuration sets it up (`wol`, `roku`, `samsung`, `tvs`).
extension VendorDriverFactory {
    public init(configuration: BridgeConfiguration, logger: Logger) {
        self.init(
            settings: Self.settings(configuration, logger: logger),
            samsungPorts: Self.samsungPorts(configuration))
        samsungEventListener = Self.samsungEventListener(configuration, logger: logger)
    }

    /// One listener for every Samsung TV's UPnP events (bound only while one is subscribed).
    static func samsungEventListener(_ configuration: BridgeConfiguration, logger: Logger) -> GENANotifyListener? {
        let samsung = configuration.samsung
        guard samsung.events else { return nil }
        return GENANotifyListener(port: samsung.eventPort, callbackHost: samsung.eventCallbackHost, logger: logger)
    }

    /// The settings every driver takes from the configuration.
    public static func settings(_ configuration: BridgeConfiguration, logger: Logger)
        -> DriverSettings
    {
        DriverSettings(
            wolTargets: configuration.wol.targets.map {
                DriverSettings.WakeTarget(host: $0.host, port: $0.port)
            },
            wolRepeat: configuration.wol.repeatCount, rokuECP2: configuration.roku.ecp2 == .off ? .off : .auto,
            samsungClientName: configuration.samsung.clientName, samsungApps: configuration.samsung.apps,
            samsungInputs: configuration.samsung.inputs, logger: logger)
    }

    /// The ports configured for a TV (only Samsung's have any), by id and by host.
    static func samsungPorts(_ configuration: BridgeConfiguration) -> [String: SamsungPorts] {
        var ports: [String: SamsungPorts] = [:]
        for tv in configuration.tvs where tv.portWSS != nil || tv.portUPnP != nil || tv.samsungInputs != nil {
            let entry = SamsungPorts(secure: tv.portWSS, upnp: tv.portUPnP, inputs: tv.samsungInputs)
            ports[tv.host] = entry
            if let id = tv.id { ports[id.rawValue] = entry }
        }
        return ports
    }
}
