import Wire

/// What a simulated Roku is doing: a snapshot, as `GET /sim/state` reports it.
public struct RokuSimState: Sendable, Equatable {
    public enum Power: String, Sendable, CaseIterable {
        /// Fully on: power-mode PowerOn.
        case on
        /// Standby with the network up ("fast TV start"): power-mode Ready (a stick: DisplayOff).
        case standby
        /// Unreachable: the ECP listener is closed until a Wake-on-LAN packet arrives.
        case off
    }

    public enum MediaState: String, Sendable, CaseIterable {
        case play, pause, buffer, close
    }

    public var power: Power = .on
    /// The foreground app's id: `RokuCatalog.homeID` on the home screen, `tvinput.hdmi1`…
    public var appID: String = RokuCatalog.homeID
    public var mediaState: MediaState = .close
    /// Playback position; advances with wall time while `mediaState` is `play`.
    public var positionMS: Int = 0
    public var durationMS: Int = 0
    public var volume: Int = 15
    public var muted: Bool = false
    public var screensaver: Bool = false
    /// "Control by mobile apps"; nil is firmware before Roku OS 15.2.4: device-info says
    /// `enabled` and HTTP ECP refuses nothing.
    public var ecpSetting: RokuECPSetting?
    /// Accepts connections and reads requests but answers none (but `/sim/state`), and serves
    /// no ECP-2: a Roku whose software update left it silent on the network.
    public var silent: Bool = false
    /// device-info's `software-version` (a software update changes it).
    public var softwareVersion: String = "12.5.0"
    /// Everything typed with `Lit_` keys so far (Backspace removes the last character).
    public var text: String = ""
    /// The tuner's channel (a number of `RokuTuner.channels`), shown while the app is `tvinput.dtv`.
    public var channel: String = RokuTuner.channels[0].number
    /// The media playing is a live stream: `is_live` true and no duration. An app without a
    /// duration (The Roku Channel's live feed) is live too.
    public var live: Bool = false

    /// Limited mode: `ecpSetting` is `limited`; false goes back to refusing nothing.
    public var limited: Bool {
        get { ecpSetting == .limited }
        set { ecpSetting = newValue ? .limited : nil }
    }

    /// What device-info reports as `ecp-setting-mode`.
    public var ecpSettingMode: String { ecpSetting?.rawValue ?? RokuECPSetting.enabled.rawValue }

    /// Whether media-player reports `is_live` true.
    public var isLive: Bool { live || durationMS == 0 }

    public init() {}

    /// The `GET /sim/state` document.
    public var json: JSONValue {
        .object([
            "power": .string(power.rawValue),
            "app": .string(appID),
            "media_state": .string(mediaState.rawValue),
            "position_ms": .integer(Int64(positionMS)),
            "duration_ms": .integer(Int64(durationMS)),
            "volume": .integer(Int64(volume)),
            "muted": .bool(muted),
            "screensaver": .bool(screensaver),
            "limited": .bool(limited),
            "ecp_setting_mode": .string(ecpSettingMode),
            "silent": .bool(silent),
            "software_version": .string(softwareVersion),
            "text": .string(text),
            "channel": .string(channel),
            "live": .bool(isLive),
        ])
    }
}
