import TVModel
import Wire

extension SamsungDeviceInfo {
    /// The inputs a Samsung TV offers in the `input` select before the configuration is
    /// applied: the source keys every model year obeys (`SamsungInputs.defaults`). The
    /// driver replaces them with `samsung.inputs` when that is set.
    public static let inputs = SamsungInputs().names

    /// The TV's stable id: `samsung_<duid without "uuid:">`; `nil` when the TV gave no id.
    public var tvID: TVID? {
        deviceID.flatMap { TVID(kind: .samsung, hardwareID: $0) }
    }

    /// The capabilities of a Samsung Tizen TV (README › Supported TVs): power (WoL and
    /// KEY_POWER), volume keys, volume level and mute through UPnP RenderingControl (every
    /// Tizen TV has the DMR on 9197; assumed rather than probed, because the DMR does not
    /// answer while the TV is in standby), the fixed `inputs`, the keyboard (SendInputString),
    /// channels (a tuner). No media state (the remote channel does not report playback) and
    /// no Roku Limited mode.
    public func capabilities(apps: [TVApp]) -> TVCapabilities {
        var capabilities = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true, inputs: Self.inputs,
            apps: apps.map(\.name), keyboard: true, mediaState: false, limitedMode: false, channels: true)
        capabilities.artMode = frameTV  // The Frame's switch (`SamsungArtMode`)
        capabilities.pairing = true  // the remote channel's approval prompt (`SamsungDriver.pair`)
        return capabilities
    }

    /// The description the bridge keeps for this TV, reached at `host` (the address we
    /// connected to, never the `ip` the TV claims). `port` nil means the default 8001.
    ///
    /// - Throws: `DriverError` `.badResponse` when the answer has no usable device id (the
    ///   id is the TV's MQTT topic segment, so we cannot guess one).
    public func tvDescription(host: String, port: UInt16? = nil, apps: [TVApp] = [])
        throws(DriverError)
        -> TVDescription
    {
        guard let id = tvID else {
            throw DriverError(.badResponse, "Samsung device info has no device id (duid or id)")
        }
        let identity = TVIdentity(
            id: id, kind: .samsung, name: name ?? modelName ?? "Samsung TV", manufacturer: "Samsung",
            model: modelName, modelID: modelCode, serialNumber: nil, softwareVersion: firmwareVersion,
            host: host,
            port: port ?? Vendor.samsung.defaultPort, macs: macs)
        return TVDescription(identity: identity, capabilities: capabilities(apps: apps), apps: apps)
    }

    /// `wifiMac` in canonical form (lowercase, colons); empty when absent or not a MAC.
    /// The REST API reports no Ethernet MAC: a wired TV's comes from configuration.
    public var macs: [String] {
        guard let text = wifiMAC, let mac = MACAddress(text) else { return [] }
        return [mac.description]
    }
}

/// How a Samsung TV's power reads in the state document: `ON` only when
/// `PowerState` is `on`, or, on a TV that has no `PowerState` (before ~2019), when the REST
/// API answers at all; standby, unknown values and unreachable are `OFF`.
public struct SamsungPowerReading: Equatable, Sendable {
    public var power: Bool
    /// The raw vendor value for `power_mode`: the `PowerState` text, "unreachable", or nil
    /// for a reachable TV that reports none.
    public var powerMode: String?

    public init(power: Bool, powerMode: String?) {
        self.power = power
        self.powerMode = powerMode
    }

    /// `info` nil: the REST API did not answer.
    public init(info: SamsungDeviceInfo?) {
        guard let info else {
            self.init(power: false, powerMode: "unreachable")
            return
        }
        switch info.powerState {
        case .none: self.init(power: true, powerMode: nil)
        case .on: self.init(power: true, powerMode: "on")
        case .some(let state): self.init(power: false, powerMode: state.rawValue)
        }
    }
}
