import Wire

/// `GET /query/device-info`: who the Roku is and whether it is on.
///
/// Only what tv2mqtt uses is kept. A device-info without a serial number or UDN is refused:
/// the TV's id is derived from them, and an answer without them is not from a Roku.
public struct RokuDeviceInfo: Equatable, Sendable {
    public var serialNumber: String
    public var udn: String
    public var vendorName: String?
    public var modelName: String?
    public var modelNumber: String?
    /// "Onn Roku TV"; newer firmware only.
    public var friendlyModelName: String?
    public var userDeviceName: String?
    public var friendlyDeviceName: String?
    public var defaultDeviceName: String?
    public var softwareVersion: String?
    /// The raw value (`PowerOn`, `DisplayOff`, `Ready`, `Suspend`…), kept even when unknown.
    public var powerMode: String?
    /// Missing on players of older firmware (a Roku 3): then it is not a TV.
    public var isTV: Bool
    public var isStick: Bool
    public var tunerType: String?
    /// Lowercase, colon-separated; only addresses that parse as a MAC are kept.
    public var wifiMAC: String?
    public var ethernetMAC: String?
    /// Roku OS 15+ streaming players: the player drives the TV's volume (CEC).
    public var supportsAudioVolumeControl: Bool?
    /// Roku OS 15+ streaming players: the player switches the TV on and off (CEC).
    public var supportsTVPowerControl: Bool?
    public var supportsFindRemote: Bool?
    /// "Control by mobile apps" (newer firmware): `default`, `limited`, `enabled`,
    /// `permissive`, lowercased; nil when absent or not a plain word.
    public var ecpSettingMode: String?

    /// True only for `PowerOn` (Roku/README.md › HTTP ECP): standby, display-off and suspend are off.
    public var isPoweredOn: Bool { powerMode == "PowerOn" }

    /// Every known MAC, Wi-Fi first.
    public var macs: [String] { [wifiMAC, ethernetMAC].compactMap { $0 } }

    /// The name a user knows the Roku by: the name they gave it, else the one it made up.
    public var displayName: String {
        userDeviceName ?? friendlyDeviceName ?? defaultDeviceName ?? friendlyModelName ?? modelName
            ?? "Roku"
    }

    public init(serialNumber: String, udn: String, powerMode: String? = nil, isTV: Bool = false) {
        self.serialNumber = serialNumber
        self.udn = udn
        self.powerMode = powerMode
        self.isTV = isTV
        self.isStick = false
    }

    public static func parse(_ bytes: [UInt8]) throws(DriverError) -> RokuDeviceInfo {
        let root = try RokuXML.root(bytes, named: "device-info", what: "device-info")
        func text(_ name: String) -> String? { RokuXML.nonEmpty(root.childText(name)) }
        guard let serial = text("serial-number") ?? text("device-id") else {
            throw DriverError(.badResponse, "the Roku's device-info has no serial-number")
        }
        guard let udn = text("udn") else {
            throw DriverError(.badResponse, "the Roku's device-info has no udn")
        }
        var info = RokuDeviceInfo(
            serialNumber: serial, udn: udn, powerMode: text("power-mode"),
            isTV: RokuXML.bool(text("is-tv")) ?? false)
        info.isStick = RokuXML.bool(text("is-stick")) ?? false
        info.vendorName = text("vendor-name")
        info.modelName = text("model-name")
        info.modelNumber = text("model-number")
        info.friendlyModelName = text("friendly-model-name")
        info.userDeviceName = text("user-device-name")
        info.friendlyDeviceName = text("friendly-device-name")
        info.defaultDeviceName = text("default-device-name")
        info.softwareVersion = text("software-version")
        info.tunerType = text("tuner-type")
        info.wifiMAC = text("wifi-mac").flatMap(Self.mac)
        info.ethernetMAC = text("ethernet-mac").flatMap(Self.mac)
        info.supportsAudioVolumeControl = RokuXML.bool(text("supports-audio-volume-control"))
        info.supportsTVPowerControl = RokuXML.bool(text("supports-tv-power-control"))
        info.supportsFindRemote = RokuXML.bool(text("supports-find-remote"))
        info.ecpSettingMode = text("ecp-setting-mode").flatMap(RokuECPSettingMode.normalised)
        return info
    }

    /// A MAC in the canonical form, or nil for a placeholder such as `00:00:00:00:00:00`.
    static func mac(_ text: String) -> String? {
        MACAddress(text)?.description
    }
}
