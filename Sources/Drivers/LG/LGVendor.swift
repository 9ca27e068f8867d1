import TVModel

extension TVKind {
    public static let lg = TVKind(rawValue: "lg")
}

extension Vendor {
    /// LG webOS TVs (2014 and later): SSAP over a WebSocket on 3001 (TLS) or 3000 (in clear).
    public static let lg = Vendor(
        kind: .lg, manufacturer: "LG", defaultPort: LGPorts.secure,
        ssdpTargets: [LGProbe.searchTarget], ssdpLocationIsControlPort: false,
        placeholderCapabilities: TVCapabilities(power: true, volumeKeys: true, keyboard: true),
        pairs: true, pin: .digits, wakeHint: "LG: Turn on via Wi-Fi (Mobile TV On)",
        drivers: { settings, _ in
            VendorDrivers(
                describe: { host, port throws(DriverError) in
                    try await LGProbe.describe(host: host, port: port, settings: settings)
                },
                makeDriver: { description, secrets, options in
                    let port = description.identity.port
                    return LGDriver(
                        description: description, settings: settings,
                        options: LGDriverOptions(
                            securePort: port == LGPorts.plain ? LGPorts.secure : port,
                            clientKey: secrets.token, certificatePin: secrets.certificatePin,
                            // Only a TV that was found in clear (it refused TLS): one found on TLS never is.
                            allowCleartext: port == LGPorts.plain && options.allowsCleartext))
                })
        })
}
