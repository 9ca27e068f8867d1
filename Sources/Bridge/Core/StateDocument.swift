import HomeAssistant
import Support
import TVModel
import Wire

/// `<base>/<tv>/state`: a TV's snapshot as the JSON document of SPEC §4.
///
/// Unknown fields are left out (never an "unknown" string). `input` is `null` on a TV that
/// reports its input (`TVCapabilities.inputState`) and is on but shows an app. `last_seen` is
/// when the TV last answered; it is refreshed in the published document only when something
/// else changes (or availability does), so a steady TV causes no traffic.
public enum StateDocument {
    public static func json(_ snapshot: TVSnapshot, host: String, reportsInput: Bool, lastSeen: Double?) -> JSONValue {
        var members: [String: JSONValue] = ["host": .string(host)]
        if let power = snapshot.power { members["power"] = .string(power ? "ON" : "OFF") }
        if let mode = snapshot.powerMode { members["power_mode"] = .string(capped(mode)) }
        if let app = snapshot.app { members["app"] = .string(capped(app)) }
        if let appID = snapshot.appID { members["app_id"] = .string(capped(appID)) }
        if let input = snapshot.input {
            members["input"] = .string(capped(input))
        } else if reportsInput && snapshot.reachable && snapshot.power == true {
            members["input"] = .null
        }
        if let state = snapshot.mediaState { members["media_state"] = .string(state.rawValue) }
        if let position = snapshot.position { members["position"] = .number(rounded(position)) }
        if let duration = snapshot.duration { members["duration"] = .number(rounded(duration)) }
        if let volume = snapshot.volume { members["volume"] = .integer(Int64(volume)) }
        if let muted = snapshot.muted { members["muted"] = .bool(muted) }
        if let limited = snapshot.limitedMode { members["limited_mode"] = .bool(limited) }
        if let path = snapshot.controlPath { members["control"] = .string(capped(path.rawValue)) }
        if let pairing = snapshot.pairingRequired { members["pairing_required"] = .bool(pairing) }
        if let lastSeen { members["last_seen"] = .string(isoTimestamp(lastSeen, fractional: false)) }
        return .object(members)
    }

    /// `text` cut to Home Assistant's `ValueTemplate.maxStateLength` code points, on a character
    /// boundary (never half of an emoji or of a letter with its accent): a longer vendor string
    /// (an app name, a power mode, an input) would make it refuse the entity's update.
    static func capped(_ text: String) -> String {
        let maxStringLength = ValueTemplate.maxStateLength
        guard text.unicodeScalars.count > maxStringLength else { return text }
        var result = ""
        var scalars = 0
        for character in text {
            scalars += character.unicodeScalars.count
            if scalars > maxStringLength { break }
            result.append(character)
        }
        return result
    }

    /// Milliseconds precision: positions come from the TV in milliseconds.
    private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
