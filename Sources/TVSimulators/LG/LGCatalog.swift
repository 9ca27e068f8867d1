/// What the simulated LG has installed and tuned: apps, inputs, channels, sound outputs, and the
/// pointer socket's button names (LG's, as aiowebostv's `buttons.py` and lgtv2 list them).
public enum LGCatalog {
    public struct App: Sendable {
        public let id: String
        public let title: String
    }

    public struct Input: Sendable {
        /// "HDMI_1", what `switchInput` takes.
        public let id: String
        public let label: String
        public let port: Int
        /// The app that shows it ("com.webos.app.hdmi1").
        public let appID: String
    }

    public struct Channel: Sendable {
        public let id: String
        /// ATSC numbers as LG writes them: "7-1".
        public let number: String
        public let name: String
    }

    public static let homeApp = "com.webos.app.home"
    public static let liveTV = "com.webos.app.livetv"

    public static let inputs: [Input] = (1...4).map { port in
        Input(id: "HDMI_\(port)", label: "HDMI \(port)", port: port, appID: "com.webos.app.hdmi\(port)")
    }

    public static let apps: [App] =
        [
            App(id: homeApp, title: "Home"), App(id: liveTV, title: "Live TV"),
            App(id: "netflix", title: "Netflix"), App(id: "youtube.leanback.v4", title: "YouTube"),
            App(id: "amazon", title: "Prime Video"),
        ] + inputs.map { App(id: $0.appID, title: $0.label) }

    public static let channels: [Channel] = [
        Channel(id: "3_2_1_0_0_1_0", number: "2-1", name: "KTVU"),
        Channel(id: "3_7_1_0_0_2_0", number: "7-1", name: "KQED"),
        Channel(id: "3_7_2_0_0_3_0", number: "7-2", name: "KQED+"),
        Channel(id: "3_14_3_0_0_4_0", number: "14-3", name: "getTV"),
    ]

    /// The outputs `changeSoundOutput` accepts (real TVs have no SSAP call that lists them).
    public static let soundOutputs = [
        "tv_speaker", "external_arc", "external_optical", "bt_soundbar", "headphone", "tv_external_speaker",
    ]

    public static let buttons: Set<String> = Set(
        [
            "HOME", "BACK", "UP", "DOWN", "LEFT", "RIGHT", "ENTER", "MENU", "INFO", "EXIT", "DASH", "RED", "GREEN",
            "YELLOW", "BLUE", "VOLUMEUP", "VOLUMEDOWN", "MUTE", "CHANNELUP", "CHANNELDOWN", "PLAY", "PAUSE", "STOP",
            "REWIND", "FASTFORWARD", "ASTERISK", "CC", "POWER", "GUIDE", "LIST", "QMENU", "SAP", "3D_MODE",
            "SCREEN_REMOTE", "AD", "RECORD",
        ] + (0...9).map(String.init))

    public static func app(_ id: String) -> App? { apps.first { $0.id == id } }
    public static func input(_ id: String) -> Input? { inputs.first { $0.id == id } }

    /// A channel by id or number ("7-1"; "7.1" is read the same).
    public static func channel(_ key: String) -> Channel? {
        let number = key.split(separator: ".", omittingEmptySubsequences: false).joined(separator: "-")
        return channels.first { $0.id == key || $0.number == number }
    }
}
