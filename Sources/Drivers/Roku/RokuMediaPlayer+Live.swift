import TVModel

extension RokuMediaPlayer {
    /// One rule for both paths (HTTP `media-player` and ECP-2 `media-player-state-changed`):
    /// a duration of 0 is no duration (ECP-2 always read it so; HTTP published 0), and a live
    /// stream has neither a duration nor a position. A live stream's `<duration>` is the
    /// window the player has buffered and its `<position>` runs inside that window (Pluto TV
    /// reports position 73 s of a 95 s "duration" for a channel that never ends), so neither
    /// says where the program is.
    mutating func normaliseLive() {
        if duration == 0 { duration = nil }
        if isLive == true {
            duration = nil
            position = nil
        }
    }
}

/// `ecp-setting-mode` in device-info: what Settings › System › Advanced system settings ›
/// Control by mobile apps says. Newer firmware reports it, so Limited mode is known before a
/// command is refused.
public enum RokuECPSettingMode {
    public static let limited = "limited"

    /// "Control by mobile apps" as device-info reports it (default, limited, enabled,
    /// permissive): a diagnostic sensor of every Roku, published as state field `ecp_setting_mode`.
    public static let sensor = DiagnosticSensor(
        key: "ecp_setting_mode", name: "Control by mobile apps", icon: "mdi:cellphone-link")

    /// Lowercased; nil for anything that is not a short plain word (never published raw).
    static func normalised(_ text: String) -> String? {
        let lowered = text.lowercased()
        guard lowered.count <= 32, lowered.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") })
        else { return nil }
        return lowered
    }

    /// Limited mode as the setting implies it: `limited` is true, `enabled` and `permissive`
    /// are false; `default` (whose rights vary by firmware) and anything else say nothing, and
    /// a refused request decides as before.
    public static func impliesLimited(_ mode: String?) -> Bool? {
        switch mode {
        case limited: true
        case "enabled", "permissive": false
        default: nil
        }
    }
}
