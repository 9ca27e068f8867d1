import TVModel

extension TVKind {
    public static let roku = TVKind(rawValue: "roku")
}

extension Vendor {
    /// Roku TVs, sticks, boxes and soundbars: ECP over HTTP on 8060, ECP-2 where offered.
    public static let roku = Vendor(
        kind: .roku, manufacturer: "Roku", defaultPort: 8060, ssdpTargets: ["roku:ecp"],
        ssdpLocationIsControlPort: true,
        placeholderCapabilities: TVCapabilities(power: true, volumeKeys: true, keyboard: true, mediaState: true),
        wakeHint: "Roku: Fast TV start", configuration: RokuSettings.configuration,
        diagnosticSensors: [RokuECPSettingMode.sensor], findRemoteKey: RokuKeys.findRemote,
        drivers: { settings, sections in
            let roku = sections[RokuSettings.self]
            return VendorDrivers(
                describe: { host, port throws(DriverError) in
                    try await RokuProbe.describe(host: host, port: port, settings: settings)
                },
                makeDriver: { description, _, _ in RokuDriver(description: description, settings: settings, roku: roku)
                })
        })
}
