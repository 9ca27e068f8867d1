import Wire

/// What a simulated Samsung TV is doing: a snapshot, as `GET /sim/state` reports it.
public struct SamsungSimState: Sendable, Equatable {
    public enum Power: String, Sendable, CaseIterable {
        /// Screen on: `PowerState` "on", every service up.
        case on
        /// Network standby: REST answers `PowerState` "standby", the remote channel connects
        /// (KEY_POWER turns the TV on), UPnP is down.
        case standby
        /// Unreachable: every listener closed until a Wake-on-LAN packet arrives.
        case off
    }

    public var power: Power = .on
    /// The running app's id; nil when none runs (a source is shown).
    public var appID: String?
    /// The source shown when no app runs: "TV", "HDMI1"…"HDMI4".
    public var source: String = "TV"
    public var volume: Int = 12
    public var muted: Bool = false
    /// Everything typed with `SendInputString` since the last `SendInputEnd`… kept whole.
    public var text: String = ""
    /// Frame TVs: showing art instead of TV (the screen is "on" for the art, PowerState "on").
    public var artMode: Bool = false

    public init() {}

    /// The `GET /sim/state` document.
    public var json: JSONValue {
        .object([
            "power": .string(power.rawValue),
            "app": .optional(appID),
            "source": .string(source),
            "input": .string(source),
            "volume": .integer(Int64(volume)),
            "muted": .bool(muted),
            "text": .string(text),
            "art_mode": .bool(artMode),
        ])
    }
}
