import TVModel
import Wire

/// A message on `<base>/bridge/event` (not retained, README › MQTT topics and commands).
public struct BridgeEvent: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case tvDiscovered = "tv_discovered"
        case tvLost = "tv_lost"
        case pairingRequired = "pairing_required"
        case limitedMode = "limited_mode"
        case commandFailed = "command_failed"
        case certificateChanged = "certificate_changed"
        /// `ON` asked for while the TV is off (README › Events, `TurnOnWatch`).
        case turnOnRequested = "turn_on_requested"
        /// Still not on `wake_timeout` seconds after an `ON` (README › Events, `TurnOnWatch`).
        case turnOnFailed = "turn_on_failed"
    }

    public var kind: Kind
    public var tv: String?
    public var message: String
    /// Extra fields (the command that failed, the TV's name…).
    public var data: [String: JSONValue]

    public init(_ kind: Kind, tv: String?, message: String, data: [String: JSONValue] = [:]) {
        self.kind = kind
        self.tv = tv
        self.message = message
        self.data = data
    }

    public var json: JSONValue {
        var members = data
        members["type"] = .string(kind.rawValue)
        members["tv"] = tv.map(JSONValue.string) ?? .null
        members["message"] = .string(message)
        return .object(members)
    }
}
