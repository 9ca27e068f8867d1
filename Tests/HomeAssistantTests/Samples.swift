import HomeAssistant
import TVModel
import TestSupport
import Wire

/// TVs built from the captured fixtures in Tests/Fixtures.
enum Samples {
    static let settings: DiscoverySettings = {
        var settings = DiscoverySettings(version: "1.0.0", originURL: "https://github.com/tv2mqtt/tv2mqtt")
        settings.diagnosticSensors = [rokuSensor]
        settings.controls = [artSwitch]
        return settings
    }()

    /// The switch a Samsung Frame's driver declares, as the bridge learns it from the vendor
    /// list (`SamsungArtMode.control`; DriversTests checks they agree).
    static let artSwitch = DeclaredControl(
        key: "art_mode", platform: .switch, name: "Art mode", icon: "mdi:image-frame", stateFileFlag: "artMode")

    /// The diagnostic sensor a Roku's driver declares, as the bridge learns it from the vendor
    /// list (`RokuECPSettingMode.sensor`; DriversTests checks they agree).
    static let rokuSensor = DiagnosticSensor(
        key: "ecp_setting_mode", name: "Control by mobile apps", icon: "mdi:cellphone-link")

    static func settings(_ style: DiscoverySettings.Style, merge: Bool = false) -> DiscoverySettings {
        var settings = settings
        settings.style = style
        settings.mergeWithNativeDevices = merge
        return settings
    }

    /// The Onn 7820X Roku TV of `roku/device-info-7820x.xml`, with the apps and `tvin` inputs
    /// of `roku/apps-tv.xml`; no volume level (no ECP-2 events).
    static func rokuTV() throws -> (TVIdentity, TVCapabilities) {
        let apps = try rokuApps()
        let identity = TVIdentity(
            id: TVID(kind: .roku, hardwareID: "YN00H5555555")!, kind: .roku, name: "58\" Onn Roku TV",
            manufacturer: "Onn", model: "Onn Roku TV", modelID: "7820X", serialNumber: "YN00H5555555",
            softwareVersion: "9.2.0", host: "203.0.113.50", port: 8060,
            macs: ["d8:13:99:f8:b0:c6", "d4:3a:2e:07:fd:cb"])
        var capabilities = TVCapabilities(
            power: true, volumeKeys: true, inputs: apps.inputs, apps: apps.apps, keyboard: true, mediaState: true,
            limitedMode: true, channels: true)
        capabilities.channelInfo = true  // a tuner (tvinput.dtv): the channel and program sensors
        capabilities.appIcons = true
        capabilities.diagnosticSensors = [rokuSensor]
        return (identity, capabilities)
    }

    /// The Roku 3 of `roku/device-info-standby.xml`: a player without power, volume or inputs.
    static func rokuStick() throws -> (TVIdentity, TVCapabilities) {
        let apps = try rokuApps()
        let identity = TVIdentity(
            id: TVID(kind: .roku, hardwareID: "1GU48T017973")!, kind: .roku, name: "My Roku 3",
            manufacturer: "Roku", model: "Roku 3", modelID: "4200X", serialNumber: "1GU48T017973",
            softwareVersion: "7.5.0", host: "203.0.113.51", port: 8060,
            macs: ["b0:a7:37:96:4d:fb", "b0:a7:37:96:4d:fa"])
        var capabilities = TVCapabilities(apps: apps.apps, keyboard: true, mediaState: true, limitedMode: true)
        capabilities.appIcons = true
        capabilities.diagnosticSensors = [rokuSensor]
        return (identity, capabilities)
    }

    /// A Samsung TV with UPnP volume and mute, the apps of `samsung/event_ed_installedApp_get.json`
    /// and source keys; no serial number or software version (the REST API gives none).
    static func samsungTV() throws -> (TVIdentity, TVCapabilities) {
        let event = try JSONParser.parse(try TestFixtures.bytes("samsung/event_ed_installedApp_get.json"))
        let apps = (event["data"]?["data"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        let identity = TVIdentity(
            id: TVID(kind: .samsung, hardwareID: "uuid:0b1f2c3d-4e5f-6071-8293-a4b5c6d7e8f9")!, kind: .samsung,
            name: "[TV] Samsung Q60 Series (55)", manufacturer: "Samsung", model: "QE55Q60TAUXXU",
            modelID: "20_MUSEL_UHD", host: "203.0.113.60", port: 8001, macs: ["64:1c:ae:00:11:22"])
        var capabilities = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true,
            inputs: ["HDMI", "Source"], apps: apps, keyboard: true, channels: true)
        capabilities.pairing = true  // as SamsungDeviceInfo.capabilities(apps:) reports it
        return (identity, capabilities)
    }

    /// The webOS 1 TV of `lg/upnp-description-webos1.xml` as the LG probe describes it from that
    /// description and a `hello` naming only its UUID, paired and before its first poll lists
    /// its apps and inputs (`LGProbe.description`; DriversTests' `LGDeviceDescriptionTests` checks they agree).
    /// A Sony Google TV as the Android TV probe describes it from its certificate
    /// (`atvremote/BRAVIA 4K UR3/…/Living Room TV/3C:5C:C4:12:34:56`), with the default apps
    /// and the input method on, once its session named its manufacturer.
    static func androidTV() -> (TVIdentity, TVCapabilities) {
        let identity = TVIdentity(
            id: TVID(kind: .androidtv, hardwareID: "3c5cc4123456")!, kind: .androidtv, name: "Living Room TV",
            manufacturer: "Sony", model: "BRAVIA 4K UR3", host: "203.0.113.80", port: 6466, macs: ["3c:5c:c4:12:34:56"])
        var capabilities = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true,
            inputs: ["HDMI1", "HDMI2", "HDMI3", "HDMI4", "TV"],
            apps: ["Netflix", "YouTube", "Prime Video", "Disney+", "Home"],
            keyboard: true, channels: true)
        capabilities.pairing = true
        capabilities.pairingPIN = true
        return (identity, capabilities)
    }

    static func lgTV() -> (TVIdentity, TVCapabilities) {
        let uuid = "86ea12c3-4ad7-2117-edbd-8177429fe21e"
        let identity = TVIdentity(
            id: TVID(kind: .lg, hardwareID: uuid)!, kind: .lg, name: "Adnan TV", manufacturer: "LG",
            model: "LG Smart TV", serialNumber: uuid, host: "203.0.113.70", port: 3001)
        var capabilities = TVCapabilities(
            power: true, volumeKeys: true, volumeLevel: true, muteState: true, keyboard: true, channels: true)
        capabilities.inputState = true
        capabilities.channelInfo = true
        capabilities.pairing = true
        capabilities.pairingPIN = true
        capabilities.screenControl = true
        capabilities.soundOutputs = [
            "tv_speaker", "external_arc", "external_optical", "bt_soundbar", "headphone", "tv_external_speaker",
        ]
        capabilities.toast = true
        capabilities.appIcons = true
        return (identity, capabilities)
    }

    /// App names and `tvin` input names from `roku/apps-tv.xml`, in document order.
    static func rokuApps() throws -> (apps: [String], inputs: [String]) {
        let xml = try TestFixtures.text("roku/apps-tv.xml")
        var apps: [String] = []
        var inputs: [String] = []
        for line in xml.split(separator: "\n") {
            guard let open = line.firstRange(of: "<app "), let close = line.firstRange(of: "</app>"),
                let tagEnd = line[open.upperBound...].firstIndex(of: ">")
            else { continue }
            let name = String(line[line.index(after: tagEnd)..<close.lowerBound])
            if line[open.upperBound..<tagEnd].contains("type=\"tvin\"") {
                inputs.append(name)
            } else {
                apps.append(name)
            }
        }
        return (apps.map(unescapeXML), inputs.map(unescapeXML))
    }

    private static func unescapeXML(_ text: String) -> String {
        text.replacing("&amp;", with: "&").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
    }
}

/// Where the golden files are: Tests/HomeAssistantTests/Golden.
enum Golden {
    static let directory = TestFixtures.testsDirectory + "/HomeAssistantTests/Golden"
}

/// An indented rendering of a JSON value with sorted keys, for golden files a person can review.
enum PrettyJSON {
    static func render(_ value: JSONValue, indent: String = "") -> String {
        let inner = indent + "  "
        let compact = value.serialized()
        if compact.utf8.count + indent.utf8.count <= 100 { return compact }
        switch value {
        case .array(let elements) where !elements.isEmpty:
            if elements.allSatisfy({ $0.arrayValue == nil && $0.objectValue == nil }) { return compact }
            return "[\n" + elements.map { inner + render($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent
                + "]"
        case .object(let members) where !members.isEmpty:
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return "{\n"
                + keys.map { inner + JSONValue.string($0).serialized() + ": " + render(members[$0]!, indent: inner) }
                .joined(separator: ",\n") + "\n" + indent + "}"
        default:
            return compact
        }
    }

    /// A golden file: the messages as `[{"topic": …, "payload": <parsed JSON or "">}]`.
    static func golden(_ messages: [DiscoveryMessage]) throws -> String {
        let entries: [JSONValue] = try messages.map {
            ["topic": .string($0.topic), "payload": $0.isClear ? "" : try JSONParser.parse($0.payload)]
        }
        return render(.array(entries)) + "\n"
    }
}

/// The kinds of the sample TVs. HomeAssistant knows no vendor; Drivers names the real ones.
extension TVKind {
    static let roku = TVKind(rawValue: "roku")
    static let samsung = TVKind(rawValue: "samsung")
    static let lg = TVKind(rawValue: "lg")
    static let androidtv = TVKind(rawValue: "androidtv")
}
