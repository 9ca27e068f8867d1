import Support
import TVModel
import Wire

/// `<base>/<tv>/state`: a TV's snapshot as the JSON state document (README › MQTT topics and commands).
///
/// Unknown fields are left out (never an "unknown" string). `input` is `null` on a TV that
/// reports its input (`TVCapabilities.inputState`) and is on but shows an app. `last_seen` is
/// when the TV last answered; it is refreshed in the published document only when something
/// else changes (or availability does), so a steady TV causes no traffic.
public enum StateDocument {
    /// Every field of the document, the one list of their names: the bridge writes only these
    /// and Home Assistant's templates (`EntityTable`) read only these, besides the values of
    /// the sensors and controls a driver declares (`TVSnapshot.declared`, named by their keys).
    public enum Field: String, Sendable, CaseIterable {
        case host, power, app, input, volume, muted, position, duration
        case powerMode = "power_mode"
        case appID = "app_id"
        case mediaState = "media_state"
        case limitedMode = "limited_mode"
        case limitedReason = "limited_mode_reason"
        case control
        case pairingRequired = "pairing_required"
        case lastSeen = "last_seen"
        case channel
        case channelNumber = "channel_number"
        case channelName = "channel_name"
        case mediaTitle = "media_title"
        case mediaDescription = "media_description"
        case live
        case screen
        case soundOutput = "sound_output"
    }

    /// Whether a value a driver declares may be published as field `key`: a valid key that is
    /// not one of the document's own fields (which it would overwrite).
    public static func acceptsDeclared(_ key: String) -> Bool {
        DiagnosticSensor(key: key, name: key).hasValidKey && Field(rawValue: key) == nil
    }

    /// The longest state Home Assistant accepts (255 characters, which it counts in code
    /// points): the document caps vendor strings to it, and text readings cut to it.
    public static let maxStringLength = 255

    public static func json(_ snapshot: TVSnapshot, host: String, reportsInput: Bool, lastSeen: Double?) -> JSONValue {
        var members: [String: JSONValue] = [:]
        func set(_ field: Field, _ value: JSONValue?) { if let value { members[field.rawValue] = value } }
        set(.host, .string(host))
        set(.power, snapshot.power.map { .string($0 ? "ON" : "OFF") })
        set(.powerMode, snapshot.powerMode.map { .string(capped($0)) })
        set(.app, snapshot.app.map { .string(capped($0)) })
        set(.appID, snapshot.appID.map { .string(capped($0)) })
        if let input = snapshot.input {
            set(.input, .string(capped(input)))
        } else if reportsInput && snapshot.reachable && snapshot.power == true {
            set(.input, .null)
        }
        set(.mediaState, snapshot.mediaState.map { .string($0.rawValue) })
        set(.position, snapshot.position.map { .number(rounded($0)) })
        set(.duration, snapshot.duration.map { .number(rounded($0)) })
        set(.volume, snapshot.volume.map { .integer(Int64($0)) })
        set(.muted, snapshot.muted.map { .bool($0) })
        set(.limitedMode, snapshot.limitedMode.map { .bool($0) })
        set(.limitedReason, snapshot.limitedReason.map { .string(capped($0)) })
        set(.control, snapshot.controlPath.map { .string(capped($0.rawValue)) })
        set(.pairingRequired, snapshot.pairingRequired.map { .bool($0) })
        set(.screen, snapshot.screenOn.map { .string($0 ? "ON" : "OFF") })
        set(.soundOutput, snapshot.soundOutput.map { .string(capped($0)) })
        set(.lastSeen, lastSeen.map { .string(isoTimestamp($0, fractional: false)) })
        setLiveTV(snapshot, set)
        setDeclared(snapshot, into: &members)
        return .object(members)
    }

    /// `text` cut to `maxStringLength` code points, on a character boundary (never half of an
    /// emoji or of a letter with its accent): a longer vendor string (an app name, a power mode,
    /// an input) would make Home Assistant refuse the entity's update.
    static func capped(_ text: String) -> String {
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
