import TVModel

extension TVKind {
    public static let samsung = TVKind(rawValue: "samsung")
}

extension Vendor {
    /// Samsung Tizen TVs (2016 and later): REST on 8001, the remote WebSocket on 8002 (TLS).
    /// Pre-2016 models answer the same SSDP target; the probe hands them to `samsungLegacy`.
    public static let samsung = Vendor(
        kind: .samsung, manufacturer: "Samsung", defaultPort: 8001,
        ssdpTargets: ["urn:samsung.com:device:RemoteControlReceiver:1"], ssdpLocationIsControlPort: false,
        placeholderCapabilities: TVCapabilities(power: true, volumeKeys: true, keyboard: true, mediaState: false),
        pairs: true, wakeHint: "Samsung: Power On with Mobile", configuration: SamsungSettings.configuration,
        controls: [SamsungArtMode.control],
        describe: { host, port, settings throws(DriverError) in
            do throws(DriverError) {
                return try await SamsungProbe.describe(host: host, port: port, settings: settings)
            } catch {
                // Refused or not a Tizen REST API: maybe a pre-2016 or an encrypted 2014–2015 one.
                // (A host that lets connections time out is not there at all.)
                guard error.kind != .timeout else { throw error }
                return try await SamsungLegacyProbe.describeAfter(error, host: host, restPort: port, settings: settings)
            }
        },
        makeDriver: { description, secrets, factory in factory.samsungDriver(description, secrets: secrets) })
}
