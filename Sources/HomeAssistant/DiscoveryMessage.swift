/// One discovery config to publish retained with QoS 1. QoS and retain are the
/// publisher's business; they are not part of the message.
public struct DiscoveryMessage: Equatable, Sendable, CustomStringConvertible {
    /// `<prefix>/device/<node>/config` or `<prefix>/<platform>/<node>/<key>/config`.
    public var topic: String
    /// Sorted-key JSON; empty = remove the config (Home Assistant MQTT discovery: an empty
    /// retained payload deletes the item, and its device when nothing else references it).
    public var payload: String

    public init(topic: String, payload: String) {
        self.topic = topic
        self.payload = payload
    }

    /// An empty payload on `topic`.
    public static func clear(_ topic: String) -> DiscoveryMessage { DiscoveryMessage(topic: topic, payload: "") }

    public var isClear: Bool { payload.isEmpty }

    public var description: String { isClear ? "clear \(topic)" : "\(topic) (\(payload.utf8.count) bytes)" }
}
