import MQTTInterface
import TVModel
import Wire

extension BridgeEvent {
    /// The JSON for `<base>/<tv>/event`: the `bridge/event` JSON plus the `event_type` member
    /// Home Assistant's MQTT event entity reads; nil for an event that names no known TV id or
    /// whose type is not one of `TVEventType` (it stays on `bridge/event` only).
    var tvEvent: (tv: TVID, json: JSONValue)? {
        guard let tv = tv.flatMap(TVID.init), let type = TVEventType(rawValue: kind.rawValue),
            case .object(var members) = json
        else { return nil }
        members[TVEventType.member] = .string(type.rawValue)
        return (tv, .object(members))
    }
}

extension BridgeContext {
    /// The per-TV copy of an event (README › Events): every event goes through `emit`, so a driver's
    /// `pairing_required`, a `command_failed` and the turn-on events all reach the TV's topic
    /// without their senders knowing it exists. Sent whenever the event names a valid id (a
    /// command for an unknown but well-formed id fails there too: not retained, it costs
    /// nothing when nobody listens).
    func publishTVEvent(_ event: BridgeEvent) async {
        guard let (tv, json) = event.tvEvent else { return }
        await publisher.publish(topics.event(tv), json.serializedBytes())
    }
}
