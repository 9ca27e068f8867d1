/// The events a TV's `<base>/<tv>/event` topic carries (README › Events), by their `type` on
/// `<base>/bridge/event`: the `event_types` of the TV's Home Assistant `event` entity, and
/// what its device triggers match. Bridge events of other types (`tv_discovered`, `tv_lost`)
/// stay on `bridge/event` only: the `connected` sensor shows them, and an event entity logs a
/// warning for a type outside its list.
public enum TVEventType: String, Sendable, CaseIterable {
    case commandFailed = "command_failed"
    case pairingRequired = "pairing_required"
    case limitedMode = "limited_mode"
    case certificateChanged = "certificate_changed"
    case turnOnRequested = "turn_on_requested"
    case turnOnFailed = "turn_on_failed"

    /// The JSON member naming the type, as Home Assistant's MQTT event entity reads it.
    public static let member = "event_type"
}
