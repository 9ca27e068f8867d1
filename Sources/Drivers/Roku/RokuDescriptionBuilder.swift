import TVModel

/// Identity and capabilities of a Roku from its device-info and app list.
///
/// Choices where the spec is silent:
/// - `manufacturer` is `vendor-name` (Hisense, TCL, Onn…; "Roku" on Roku's own players),
///   because that is the brand on the TV's box; "Roku" when it is missing.
/// - `model` is `friendly-model-name` ("Onn Roku TV") when given, else `model-name`;
///   `modelID` is `model-number` ("7820X").
/// - A Roku TV (`is-tv`) gets power, volume keys, inputs (its `tvin` apps, in the TV's order)
///   and channel keys when it has a tuner. A player (stick, box) gets none of them, except
///   volume keys when it reports `supports-audio-volume-control` (Roku OS 15+: it drives the
///   TV's volume over CEC); without that flag ECP volume keys do nothing on a player.
/// - Volume level and mute state are false: HTTP ECP cannot read them (ECP-2 will).
/// - A player reporting `supports-tv-power-control` (Roku OS 15+: its CEC "TV power" setting
///   is on) still gets no power switch: whether ECP `PowerOff`/`PowerOn` reach the TV over
///   CEC is not documented, and the player's own `power-mode` does not follow the TV's, so the
///   switch's state could not be confirmed (Roku/README.md › Live TV, power on streaming players).
public enum RokuDescriptionBuilder {
    public static func capabilities(_ info: RokuDeviceInfo, apps: [RokuApp]) -> TVCapabilities {
        let inputs = info.isTV ? apps.filter(\.isInput).map(\.name) : []
        let hasTuner =
            apps.contains { $0.id == "tvinput.dtv" }
            || (info.tunerType.map { !$0.isEmpty && $0 != "none" } ?? false)
        var capabilities = TVCapabilities(
            power: info.isTV, volumeKeys: info.isTV || info.supportsAudioVolumeControl == true,
            volumeLevel: false, muteState: false, inputs: inputs, inputState: !inputs.isEmpty,
            apps: apps.filter { !$0.isInput }.map(\.name), keyboard: true, mediaState: true,
            limitedMode: true,
            channels: info.isTV && hasTuner)
        // Only where the Roku says so (ECP docs: `supports-find-remote`); a TV's remote is
        // usually an IR one that cannot beep.
        capabilities.findRemoteKey = info.supportsFindRemote == true ? RokuKeys.findRemote : nil
        capabilities.diagnosticSensors = [RokuECPSettingMode.sensor]
        capabilities.channelInfo = capabilities.channels
        capabilities.appIcons = true  // `/query/icon/<id>` (RokuDriver+AppIcon.swift)
        return capabilities
    }

    /// The TV's id: from the serial number, else the UDN.
    public static func id(_ info: RokuDeviceInfo) -> TVID? {
        TVID(kind: .roku, hardwareID: info.serialNumber) ?? TVID(kind: .roku, hardwareID: info.udn)
    }

    /// A full description of a Roku first seen at `host:port`.
    public static func description(
        _ info: RokuDeviceInfo, apps: [RokuApp], host: String, port: UInt16
    )
        throws(DriverError) -> TVDescription
    {
        guard let id = id(info) else {
            throw DriverError(.badResponse, "the Roku's serial number cannot make an id")
        }
        var identity = TVIdentity(
            id: id, kind: .roku, name: info.displayName, manufacturer: "Roku", host: host, port: port)
        update(&identity, from: info)
        return TVDescription(
            identity: identity, capabilities: capabilities(info, apps: apps),
            apps: apps.map { TVApp(id: $0.id, name: $0.name) })
    }

    /// Refreshes what device-info says about a known TV; the id and name stay (the bridge
    /// owns them), MACs are added to, never forgotten (a TV on Ethernet still has its Wi-Fi MAC).
    public static func update(_ identity: inout TVIdentity, from info: RokuDeviceInfo) {
        identity.manufacturer = info.vendorName ?? "Roku"
        identity.model = info.friendlyModelName ?? info.modelName ?? identity.model
        identity.modelID = info.modelNumber ?? identity.modelID
        identity.serialNumber = info.serialNumber
        identity.softwareVersion = info.softwareVersion ?? identity.softwareVersion
        for mac in info.macs where !identity.macs.contains(mac) { identity.macs.append(mac) }
    }
}
