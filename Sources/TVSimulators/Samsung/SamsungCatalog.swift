/// What a simulated Samsung has installed and which remote keys it knows.
public enum SamsungCatalog {
    public struct App: Sendable, Equatable {
        public let id: String
        public let name: String
        /// 2 = web app (launched with DEEP_LINK), 4 = native (NATIVE_LAUNCH).
        public let appType: Int
        public let version: String
    }

    /// Post-2020 ids (tvws APPLICATIONS.md): what the bridge's `samsung.apps` defaults use.
    public static let apps: [App] = [
        App(id: "111299001912", name: "YouTube", appType: 2, version: "2.1.498"),
        App(id: "3201907018807", name: "Netflix", appType: 2, version: "5.3.1"),
        App(id: "3201910019365", name: "Prime Video", appType: 2, version: "4.2.15"),
        App(id: "3201901017640", name: "Disney+", appType: 2, version: "1.20.0"),
        App(id: "3201606009684", name: "Spotify - Music and Podcasts", appType: 2, version: "1.9.12"),
        App(id: "3201608010191", name: "Deezer", appType: 2, version: "3.1.0"),
        App(id: "org.tizen.browser", name: "Internet", appType: 4, version: "5.0.0"),
    ]

    public static func app(_ id: String) -> App? { apps.first { $0.id == id } }

    /// What Tizen TVs put in SSDP `SERVER` and HTTP `Server`.
    static let serverHeader = "Tizen/5.5 UPnP/1.0 Samsung UPnP SDK/1.0"

    /// Sources the simulated TV shows, and the keys that select them directly.
    public static let sources = ["TV", "HDMI1", "HDMI2", "HDMI3", "HDMI4"]

    /// Keys that change nothing here but that a real TV accepts (logged like any key).
    static let plainKeys: Set<String> = [
        "KEY_UP", "KEY_DOWN", "KEY_LEFT", "KEY_RIGHT", "KEY_ENTER", "KEY_MENU", "KEY_GUIDE",
        "KEY_TOOLS", "KEY_INFO", "KEY_CHUP", "KEY_CHDOWN", "KEY_CH_LIST", "KEY_PRECH", "KEY_PLAY",
        "KEY_PAUSE", "KEY_STOP", "KEY_FF", "KEY_REWIND", "KEY_RED", "KEY_GREEN", "KEY_YELLOW",
        "KEY_BLUE", "KEY_0", "KEY_1", "KEY_2", "KEY_3", "KEY_4", "KEY_5", "KEY_6", "KEY_7", "KEY_8",
        "KEY_9", "KEY_AMBIENT", "KEY_SOURCE", "KEY_SEARCH",
    ]
}
