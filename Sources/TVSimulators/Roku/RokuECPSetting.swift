/// "Control by mobile apps › Network access" (`ecp-setting-mode` in device-info), applied to
/// HTTP ECP as Roku OS 15.2.4 does. ECP-2 sessions pass whatever it says (the official app's
/// path).
public enum RokuECPSetting: String, Sendable, CaseIterable {
    /// Keypresses, media-player, search and the tuner queries answer the Limited-mode 403.
    case limited
    /// Plain-HTTP keypresses (`keypress`, `keydown`, `keyup`) answer 403 Forbidden;
    /// device-info, the other queries and `launch` keep working.
    case enabled
    /// Refuses like `enabled` (what `default` allows varies by firmware).
    case `default`
    /// Everything works.
    case permissive

    /// The body of the 403 a refused keypress gets under `enabled` or `default`.
    static let forbiddenBody = "Forbidden"

    var refusesHTTPKeys: Bool { self == .enabled || self == .default }
}
