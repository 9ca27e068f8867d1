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
        drivers: SamsungDrivers.make)
}
