import Clients
import TVModel

/// The Samsung vendor's probe and drivers in one driver factory (`Vendor.MakeDrivers`): the
/// `samsung` section, each TV's own ports and inputs, and one UPnP event listener that every
/// Samsung driver of the factory shares while `samsung.events` is on.
enum SamsungDrivers {
    static func make(settings: DriverSettings, sections: VendorSettingsBag) -> VendorDrivers {
        let samsung = sections[SamsungSettings.self]
        // Bound only while a TV is subscribed; nil: volume and mute are polled.
        let listener =
            samsung.events
            ? GENANotifyListener(
                port: samsung.eventPort, callbackHost: samsung.eventCallbackHost, logger: settings.logger) : nil
        return VendorDrivers(
            describe: { host, port throws(DriverError) in
                do throws(DriverError) {
                    return try await SamsungProbe.describe(
                        host: host, port: port, settings: settings, inputs: samsung.inputs)
                } catch {
                    // Refused or not a Tizen REST API: maybe a pre-2016 or an encrypted 2014–2015
                    // one. (A host that lets connections time out is not there at all.)
                    guard error.kind != .timeout else { throw error }
                    return try await SamsungLegacyProbe.describeAfter(
                        error, host: host, restPort: port, settings: settings)
                }
            },
            makeDriver: { description, secrets, options in
                let tv = options.vendorKeys[SamsungTVOptions.self]
                var section = samsung
                if let inputs = tv.inputs { section.inputs = inputs }
                let driverOptions = SamsungDriverOptions(
                    securePort: tv.secure ?? SamsungRemoteEndpoint.securePort,
                    upnpPort: tv.upnp ?? UPnPRenderingControl.defaultPort, token: secrets.token,
                    certificatePin: secrets.certificatePin, eventListener: listener)
                return SamsungDriver(
                    description: description, settings: settings, samsung: section, options: driverOptions)
            })
    }
}
