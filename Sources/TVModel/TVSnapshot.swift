/// What is playing, normalised across vendors (the state document's `media_state`).
public enum MediaState: String, Sendable, Codable, CaseIterable {
    case playing, paused, buffering, stopped, idle
}

/// Everything known about a TV's state at one moment: the poller's output and the source
/// of `<base>/<tv>/state`. `nil` means unknown, and is left out of the published JSON.
public struct TVSnapshot: Equatable, Sendable {
    /// The TV answered the last poll (drives `<base>/<tv>/availability`).
    public var reachable: Bool
    /// True only when the TV is really on (Roku `PowerOn`, Samsung `PowerState` on).
    public var power: Bool?
    /// The raw vendor value: `PowerOn`, `DisplayOff`, `Ready`, `on`, `standby`…
    public var powerMode: String?
    /// The foreground app's name ("Netflix", "Roku" for the home screen).
    public var app: String?
    public var appID: String?
    /// The active input's name when the TV shows an input; `nil` otherwise.
    public var input: String?
    public var mediaState: MediaState?
    /// Seconds.
    public var position: Double?
    public var duration: Double?
    /// 0–100.
    public var volume: Int?
    public var muted: Bool?
    /// Remote control is limited by a setting on the TV (Roku "Control by mobile apps"):
    /// commands refused with HTTP 403.
    public var limitedMode: Bool?
    /// While `limitedMode` is true: what refuses and which setting to change, in the driver's
    /// words (the `limited_mode` event's message).
    public var limitedReason: String?
    /// How commands reach the TV right now.
    public var controlPath: ControlPath?
    /// A TV that pairs (Samsung, LG) has not approved us yet (say what to do on the TV).
    public var pairingRequired: Bool?
    /// Live TV (a Roku TV's tuner): the channel number ("7.1"), its name ("KQED"), the label
    /// both make ("7.1 KQED", the `channel` select's option), the program on air and its
    /// description. All nil away from live TV (see `clearChannel()`).
    public var channelNumber: String?
    public var channelName: String?
    public var channel: String?
    public var mediaTitle: String?
    public var mediaDescription: String?
    /// The media playing is a live stream (it has no fixed duration).
    public var live: Bool?
    /// The picture is on (`true`) or switched off while the TV stays on (`false`); nil on TVs
    /// without `screenControl`, or while unknown.
    public var screenOn: Bool?
    /// The sound output in use, by the id the TV lists it under (`TVCapabilities.soundOutputs`).
    public var soundOutput: String?
    /// The values of the sensors and controls the driver declares
    /// (`TVCapabilities.diagnosticSensors`, `TVCapabilities.controls`), by key: each is the
    /// state document field of that name.
    public var declared: [String: String] = [:]
    /// An unreachable TV that answered before: its likely causes and what to check, in the
    /// driver's words (the `tv_lost` event names them); nil when the driver has no idea.
    public var unreachableHint: String?

    public init(
        reachable: Bool, power: Bool? = nil, powerMode: String? = nil, app: String? = nil, appID: String? = nil,
        input: String? = nil, mediaState: MediaState? = nil, position: Double? = nil, duration: Double? = nil,
        volume: Int? = nil, muted: Bool? = nil, limitedMode: Bool? = nil, controlPath: ControlPath? = nil,
        pairingRequired: Bool? = nil
    ) {
        self.reachable = reachable
        self.power = power
        self.powerMode = powerMode
        self.app = app
        self.appID = appID
        self.input = input
        self.mediaState = mediaState
        self.position = position
        self.duration = duration
        self.volume = volume
        self.muted = muted
        self.limitedMode = limitedMode
        self.controlPath = controlPath
        self.pairingRequired = pairingRequired
    }

    /// A TV that did not answer: unreachable and off, everything else unknown.
    public static let unreachable = TVSnapshot(reachable: false, power: false)
}
