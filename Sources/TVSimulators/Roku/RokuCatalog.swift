/// The fixed facts of a simulated Roku: installed apps, TV inputs, the key set, models.
public enum RokuCatalog {
    /// The home screen as newer firmware reports it in active-app (home-assistant/core#131969).
    public static let homeID = "562859"
    public static let homeName = "Roku Dynamic Menu"

    public struct App: Sendable, Equatable {
        public let id: String
        public let name: String
        public let type: String
        public let version: String
        public let subtype: String?
        /// Playback length when launched; nil for apps that report no duration (live TV).
        public let durationMS: Int?
    }

    /// Installed channels, with ids of the real apps.
    public static let channels: [App] = [
        App(
            id: "12", name: "Netflix", type: "appl", version: "5.2.101", subtype: "ndka",
            durationMS: 5_400_000),
        App(
            id: "837", name: "YouTube", type: "appl", version: "2.21.93", subtype: "ndka",
            durationMS: 1_260_000),
        App(
            id: "13", name: "Prime Video", type: "appl", version: "14.3.2", subtype: "ndka",
            durationMS: 6_600_000),
        App(
            id: "291097", name: "Disney Plus", type: "appl", version: "1.68.0", subtype: "rsga",
            durationMS: 7_800_000),
        App(
            id: "2285", name: "Hulu", type: "appl", version: "7.12.1", subtype: "rsga",
            durationMS: 2_640_000),
        App(
            id: "74519", name: "Pluto TV - It's Free TV", type: "appl", version: "5.45.4",
            subtype: "rsga",
            durationMS: 6_496_762),
        App(
            id: "22297", name: "Spotify Music", type: "appl", version: "2.4.4", subtype: "rsga",
            durationMS: 215_000),
        App(
            id: "151908", name: "The Roku Channel", type: "appl", version: "2.9.78", subtype: "ndka",
            durationMS: nil),
    ]

    /// TV inputs appear as apps of type `tvin` on Roku TVs.
    public static let inputs: [App] = [
        App(
            id: "tvinput.hdmi1", name: "HDMI 1", type: "tvin", version: "1.0.0", subtype: nil,
            durationMS: nil),
        App(
            id: "tvinput.hdmi2", name: "HDMI 2", type: "tvin", version: "1.0.0", subtype: nil,
            durationMS: nil),
        App(
            id: "tvinput.hdmi3", name: "HDMI 3", type: "tvin", version: "1.0.0", subtype: nil,
            durationMS: nil),
        App(
            id: "tvinput.dtv", name: "Live TV", type: "tvin", version: "1.0.0", subtype: nil,
            durationMS: nil),
        App(
            id: "tvinput.cvbs", name: "AV", type: "tvin", version: "1.0.0", subtype: nil, durationMS: nil),
    ]

    public static let home = App(
        id: homeID, name: homeName, type: "home", version: "1.0.0", subtype: nil, durationMS: nil)

    /// Every app of a device of this kind, as `GET /query/apps` lists them.
    public static func apps(for kind: RokuDeviceKind) -> [App] {
        kind == .tv ? channels + inputs : channels
    }

    /// The app with this id on a device of this kind, including the home screen.
    public static func app(_ id: String, kind: RokuDeviceKind) -> App? {
        id == homeID ? home : apps(for: kind).first { $0.id == id }
    }

    /// Keys every Roku accepts (RokuDoc), plus the undocumented ones in common use.
    public static let commonKeys = [
        "Home", "Rev", "Fwd", "Play", "Select", "Left", "Right", "Down", "Up", "Back", "InstantReplay",
        "Info",
        "Backspace", "Search", "Enter", "FindRemote",
    ]

    /// Keys of Roku TVs; sticks accept them too (they go out over HDMI-CEC) but nothing changes here.
    public static let tvKeys = [
        "VolumeUp", "VolumeDown", "VolumeMute", "PowerOff", "PowerOn", "Power", "ChannelUp",
        "ChannelDown",
        "InputTuner", "InputHDMI1", "InputHDMI2", "InputHDMI3", "InputHDMI4", "InputAV1", "Sleep",
    ]

    /// The canonical spelling of a key name, matched case-insensitively; nil for unknown keys
    /// (`Lit_` keys are handled apart).
    public static func canonicalKey(_ name: String) -> String? {
        let lower = name.lowercased()
        return (commonKeys + tvKeys).first { $0.lowercased() == lower }
    }

    /// Model facts reported in device-info and the UPnP description.
    public struct Model: Sendable {
        public let vendor: String
        public let modelName: String
        public let modelNumber: String
        public let friendlyModelName: String
    }

    public static func model(for kind: RokuDeviceKind) -> Model {
        switch kind {
        case .tv:
            Model(
                vendor: "TCL", modelName: "7-Series", modelNumber: "7820X", friendlyModelName: "TCL Roku TV"
            )
        case .stick:
            Model(
                vendor: "Roku", modelName: "Roku Streaming Stick 4K", modelNumber: "3820X",
                friendlyModelName: "Roku Streaming Stick 4K")
        }
    }

    /// `Server` header of every ECP answer and SSDP response.
    public static let serverHeader = "Roku/12.5.0 UPnP/1.0 Roku/12.5.0"
}
