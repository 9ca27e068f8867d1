import Wire

/// What a simulated LG TV is doing: a snapshot, as `GET /sim/state` reports it.
public struct LGSimState: Sendable, Equatable {
    /// The TV's own power states, named as `getPowerState` names them.
    public enum Power: String, Sendable, CaseIterable {
        case active = "Active"
        case screenOff = "Screen Off"
        case screenSaver = "Screen Saver"
        case activeStandby = "Active Standby"
        case suspend = "Suspend"

        /// Showing something (the picture may be off): commands work.
        public var isOn: Bool { self == .active || self == .screenOff || self == .screenSaver }
    }

    public var power: Power = .active
    /// A transition under way (`getPowerState`'s `processing`), e.g. "Request Active Standby".
    public var processing: String?
    public var appID: String = LGCatalog.liveTV
    /// The tuner's channel (kept while another app is in front).
    public var channelID: String = "3_7_1_0_0_2_0"
    public var volume: Int = 10
    public var muted: Bool = false
    public var soundOutput: String = "tv_speaker"
    /// `play`, `pause`, `stop`, `rewind`, `fastForward`: the last media control.
    public var mediaState: String?
    /// The on-screen keyboard's text box.
    public var text: String = ""
    /// What `sendEnterKey` last submitted.
    public var submittedText: String?

    public init() {}

    /// The input in front, when an HDMI app is.
    public var input: String? { LGCatalog.inputs.first { $0.appID == appID }?.id }
    public var channel: LGCatalog.Channel? { LGCatalog.channel(channelID) }

    /// The `GET /sim/state` document (`client_keys` is added by the simulator).
    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "power_mode": .string(power.rawValue),
            "screen": power == .active || power == .screenSaver ? "ON" : "OFF",
            "app": .string(appID),
            "volume": .integer(Int64(volume)),
            "muted": .bool(muted),
            "sound_output": .string(soundOutput),
            "text": .string(text),
        ]
        if let input { fields["input"] = .string(input) }
        if let channel { fields["channel"] = .string(channel.number) }
        if let processing { fields["processing"] = .string(processing) }
        if let mediaState { fields["media_state"] = .string(mediaState) }
        if let submittedText { fields["submitted_text"] = .string(submittedText) }
        return .object(fields)
    }
}
