import TVModel

extension TVKind {
    public static let androidtv = TVKind(rawValue: "androidtv")
}

extension Vendor {
    /// Android TV and Google TV (Sony, TCL, Hisense, Philips, Chromecast with Google TV, Shield):
    /// the Android TV Remote protocol v2 over TLS, paired by the code on the screen (6467), then
    /// one remote session (6466). Found by mDNS, which `serviceTypes` declares.
    public static let androidTV = Vendor(
        kind: .androidtv, manufacturer: "Android TV", defaultPort: AndroidTVPorts.remote, ssdpTargets: [],
        ssdpLocationIsControlPort: false, mdnsServices: ["_androidtvremote2._tcp", "_androidtvremote._tcp"],
        placeholderCapabilities: .androidTV(apps: AndroidTVApps.defaults, ime: true),
        pairs: true, pin: .sixHexDigits,
        wakeHint: "Android TV: Networked standby (Settings › System › Power; Sony: Remote start)",
        configuration: AndroidTVSettings.configuration,
        drivers: { settings, sections in
            let androidTV = sections[AndroidTVSettings.self]
            return VendorDrivers(
                describe: { host, port throws(DriverError) in
                    var description = try await AndroidTVProbe.describe(host: host, port: port, settings: settings)
                    description.capabilities = .androidTV(apps: androidTV.apps, ime: androidTV.ime)
                    return description
                },
                makeDriver: { description, secrets, _ in
                    let port = description.identity.port
                    return AndroidTVDriver(
                        kind: .androidtv, description: description, settings: settings,
                        options: AndroidTVDriverOptions(
                            remotePort: port, pairingPort: AndroidTVPorts.pairing(after: port),
                            identity: settings.clientIdentity, certificatePin: secrets.certificatePin,
                            ime: androidTV.ime, apps: androidTV.apps))
                })
        })
}

extension TVCapabilities {
    /// What every Android TV takes over the remote protocol, with the settings' apps and IME.
    static func androidTV(apps: [TVApp], ime: Bool) -> TVCapabilities {
        var capabilities = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true,
            inputs: AndroidTVPlanner.inputs.map(\.name), apps: apps.map(\.name), keyboard: ime,
            channels: true)
        capabilities.pairing = true
        capabilities.pairingPIN = true
        return capabilities
    }
}
