import Wire

/// What a simulated Android TV shows: on, in standby or in deep sleep, the app in front (its
/// package), and its own volume (a maximum of 0: the sound goes to an external device).
public struct AndroidTVSimState: Equatable, Sendable {
    public var on = true
    /// Deep sleep: its network is down (connections close at once) until Wake-on-LAN.
    public var asleep = false
    public var app = AndroidTVSimState.launcher
    public var volume = 12
    public var volumeMax = 100
    public var muted = false

    /// The home screen's package on a Google TV.
    public static let launcher = "com.google.android.apps.tv.launcherx"

    public init() {}

    var json: JSONValue {
        .object([
            "power": .string(asleep ? "off" : on ? "on" : "standby"), "app": .string(app),
            "volume": .integer(Int64(volume)),
            "volume_max": .integer(Int64(volumeMax)), "muted": .bool(muted),
        ])
    }
}
