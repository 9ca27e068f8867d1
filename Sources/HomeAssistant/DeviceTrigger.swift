import MQTTInterface
import TVModel
import Wire

/// An MQTT device trigger of a TV (README › Events): Home Assistant lists it in the device's
/// automation editor ("<subtype> <type>"), and fires it when the TV's event topic carries
/// its event. Not an entity: no name, no `unique_id`, no availability (Home Assistant's
/// trigger schema, 2024.3 to 2025.4, drops unknown keys; `device_automation` is not an entity
/// platform, so device discovery needs no `unique_id` for it either).
public struct DeviceTrigger: Sendable {
    /// The component key in device discovery and the `<key>` of entity-style topics.
    public var key: String
    /// Home Assistant's `type` and `subtype`: `turn_on` / `requested`.
    public var type: String
    public var subtype: String
    /// The event on `<base>/<tv>/event` that fires it.
    public var event: TVEventType
    public var applies: @Sendable (TVCapabilities) -> Bool

    /// The triggers every TV that can be switched on gets: `turn_on` / `requested` (an `ON`
    /// while the TV is off: add an IR or HDMI-CEC way to wake it) and `turn_on` / `failed`
    /// (still not on `wake_timeout` seconds later).
    public static let tv: [DeviceTrigger] = [
        DeviceTrigger(
            key: "turn_on_requested", type: "turn_on", subtype: "requested", event: .turnOnRequested,
            applies: { $0.power }),
        DeviceTrigger(
            key: "turn_on_failed", type: "turn_on", subtype: "failed", event: .turnOnFailed, applies: { $0.power }),
    ]

    /// Renders the event's type, or nothing for a payload that is not a JSON object with one
    /// (tested, never printed, so Home Assistant logs no template warning; see `ValueTemplate`).
    public static let valueTemplate =
        "{{ value_json." + TVEventType.member + " if value_json is mapping and value_json." + TVEventType.member
        + " is string else '' }}"
}

extension DiscoveryBuilder {
    /// `<prefix>/device_automation/<node>/<key>/config`.
    public static func triggerTopic(_ trigger: DeviceTrigger, node: String, settings: DiscoverySettings) -> String {
        settings.discoveryTopics.component(.deviceAutomation, node: node, key: trigger.key)
    }

    /// A trigger's options, without `platform`, `device` and `origin`.
    static func trigger(_ trigger: DeviceTrigger, node: Node, settings: DiscoverySettings) -> [String: JSONValue] {
        var config: [String: JSONValue] = [
            "automation_type": "trigger", "type": .string(trigger.type), "subtype": .string(trigger.subtype),
            "payload": .string(trigger.event.rawValue), "value_template": .string(DeviceTrigger.valueTemplate),
        ]
        if let topic = node.topic(.tvEvent, settings) { config["topic"] = .string(topic) }
        return config
    }
}
