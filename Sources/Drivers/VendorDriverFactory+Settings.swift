import Clients
import Support

extension VendorDriverFactory {
    /// The factory for the configured vendors' settings and TVs' own options (`tvOptions`, by
    /// the TV's host and configured id).
    public init(
        settings: DriverSettings, vendorSettings: VendorSettingsBag,
        tvOptions: [(host: String, id: String?, options: VendorSettingsBag)], logger: Logger
    ) {
        var ports: [String: SamsungPorts] = [:]
        for tv in tvOptions where tv.options.contains(SamsungPorts.self) {
            ports[tv.host] = tv.options[SamsungPorts.self]
            if let id = tv.id { ports[id] = tv.options[SamsungPorts.self] }
        }
        self.init(settings: settings, samsungPorts: ports)
        let samsung = vendorSettings[SamsungSettings.self]
        if samsung.events {
            // One listener for every Samsung TV's UPnP events (bound only while one is subscribed).
            samsungEventListener = GENANotifyListener(
                port: samsung.eventPort, callbackHost: samsung.eventCallbackHost, logger: logger)
        }
    }
}
