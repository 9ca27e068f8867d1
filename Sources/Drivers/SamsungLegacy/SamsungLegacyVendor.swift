import TVModel

extension TVKind {
    /// A pre-2016 Samsung (C/D/E/F series, non-encrypted 2014–2015 models): the legacy remote
    /// protocol on TCP 55000, keys and power off only.
    public static let samsungLegacy = TVKind(rawValue: "samsung-legacy")
}

extension Vendor {
    /// Found through the Samsung probe (same SSDP target) or named by its kind; never probed
    /// on its own for a device of unknown kind, as a bare TCP connect claims any listener.
    public static let samsungLegacy = Vendor(
        kind: .samsungLegacy, manufacturer: "Samsung", defaultPort: 55000, ssdpTargets: [],
        ssdpLocationIsControlPort: false, probedWhenKindUnknown: false,
        placeholderCapabilities: SamsungLegacyDriver.capabilities,
        drivers: { settings, sections in
            // The name on the allow prompt is `samsung.client_name`, as on a newer Samsung's.
            let clientName = sections[SamsungSettings.self].clientName
            return VendorDrivers(
                describe: { host, port throws(DriverError) in
                    try await SamsungLegacyProbe.describe(host: host, port: port, settings: settings)
                },
                makeDriver: { description, secrets, _ in
                    SamsungLegacyDriver(
                        description: description, settings: settings, clientName: clientName,
                        clientID: secrets.installationID)
                })
        })
}
