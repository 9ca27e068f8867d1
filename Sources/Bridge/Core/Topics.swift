import TVModel

/// Every MQTT topic the bridge uses, built here and nowhere else (SPEC §4).
public struct Topics: Sendable, Equatable {
    public let base: String
    /// Home Assistant's birth/will topic (`homeassistant/status`).
    public let homeAssistantStatus: String

    public init(base: String, homeAssistantStatus: String) {
        self.base = base
        self.homeAssistantStatus = homeAssistantStatus
    }

    /// The level under the base topic that holds the bridge's own topics (`<base>/bridge/…`).
    public static let bridgeLevel = "bridge"

    /// Whether a TV with this id would have its topics among the bridge's own (SPEC §10): its
    /// `<base>/<id>/state` would be `<base>/bridge/state`, so the id is refused.
    public static func collidesWithBridgeTopics(_ id: String) -> Bool { id == bridgeLevel }

    public var bridgeState: String { "\(base)/bridge/state" }
    public var bridgeInfo: String { "\(base)/bridge/info" }
    public var bridgeTVs: String { "\(base)/bridge/tvs" }
    public var bridgeEvent: String { "\(base)/bridge/event" }
    public func bridgeRequest(_ action: String) -> String { "\(base)/bridge/request/\(action)" }
    public func bridgeResponse(_ action: String) -> String { "\(base)/bridge/response/\(action)" }

    public func availability(_ tv: TVID) -> String { "\(base)/\(tv)/availability" }
    public func state(_ tv: TVID) -> String { "\(base)/\(tv)/state" }
    public func set(_ tv: TVID) -> String { "\(base)/\(tv)/set" }
    public func set(_ tv: TVID, _ property: String) -> String { "\(base)/\(tv)/set/\(property)" }
    /// Answers to commands that carried a `transaction`.
    public func response(_ tv: TVID) -> String { "\(base)/\(tv)/response" }

    /// What the bridge subscribes to on every connection.
    public var subscriptions: [String] {
        [
            "\(base)/+/set", "\(base)/+/set/+", "\(base)/bridge/request/+", "\(base)/bridge/request/tv/+",
            homeAssistantStatus,
        ]
    }

    /// What an incoming message is for.
    public enum Route: Equatable, Sendable {
        /// `<base>/<tv>/set` (JSON) or `<base>/<tv>/set/<property>` (plain); the id as written.
        case command(tv: String, property: String?)
        /// `<base>/bridge/request/<action>` (`discover`, `tv/remove`…).
        case request(String)
        case homeAssistantStatus
    }

    public func route(_ topic: String) -> Route? {
        if topic == homeAssistantStatus { return .homeAssistantStatus }
        guard topic.hasPrefix(base + "/") else { return nil }
        let rest = topic.dropFirst(base.count + 1)
        if rest.hasPrefix("bridge/request/") {
            let action = rest.dropFirst("bridge/request/".count)
            return action.isEmpty ? nil : .request(String(action))
        }
        let levels = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2 || levels.count == 3, levels[1] == "set", !levels[0].isEmpty, levels[0] != "bridge"
        else { return nil }
        return .command(tv: String(levels[0]), property: levels.count == 3 ? String(levels[2]) : nil)
    }
}
