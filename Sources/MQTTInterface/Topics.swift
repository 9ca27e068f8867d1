import TVModel

/// Every MQTT topic under the base topic, and Home Assistant's status topic, built and read here
/// and nowhere else (README › MQTT topics and commands). The bridge publishes and subscribes with
/// them; Home Assistant's discovery configs name them. (The discovery topics themselves, under the
/// discovery prefix, follow Home Assistant's layout and are built by `DiscoveryBuilder`.)
public struct Topics: Sendable, Equatable {
    public let base: String
    /// Home Assistant's birth/will topic (`homeassistant/status`).
    public let homeAssistantStatus: String

    /// Home Assistant's default birth/will topic (README › Configuration,
    /// `homeassistant.status_topic`).
    public static let defaultHomeAssistantStatus = "homeassistant/status"

    public init(base: String, homeAssistantStatus: String = Topics.defaultHomeAssistantStatus) {
        self.base = base
        self.homeAssistantStatus = homeAssistantStatus
    }

    /// The level under the base topic that holds the bridge's own topics (`<base>/bridge/…`).
    public static let bridgeLevel = "bridge"
    /// The level under `<base>/bridge` that holds requests (`<base>/bridge/request/<action>`).
    static let requestLevel = "request"
    /// The level under `<base>/<tv>` that holds commands (`<base>/<tv>/set[/<property>]`).
    static let setLevel = "set"

    /// Whether a TV with this id would have its topics among the bridge's own: its
    /// `<base>/<id>/state` would be `<base>/bridge/state`, so the id is refused.
    public static func collidesWithBridgeTopics(_ id: String) -> Bool { id == bridgeLevel }

    private var bridge: String { "\(base)/\(Self.bridgeLevel)" }

    /// `online`/`offline`, retained; the last will sets `offline`.
    public var bridgeState: String { "\(bridge)/state" }
    /// Retained JSON with `version` and `log_level`.
    public var bridgeInfo: String { "\(bridge)/info" }
    public var bridgeTVs: String { "\(bridge)/tvs" }
    public var bridgeEvent: String { "\(bridge)/event" }
    public func bridgeRequest(_ action: String) -> String { "\(bridge)/\(Self.requestLevel)/\(action)" }
    public func bridgeResponse(_ action: String) -> String { "\(bridge)/response/\(action)" }

    public func availability(_ tv: TVID) -> String { "\(base)/\(tv)/availability" }
    /// The retained state document (`StateDocument`).
    public func state(_ tv: TVID) -> String { "\(base)/\(tv)/state" }
    /// Plain-payload commands for one property (`<base>/<tv>/set/<property>`).
    public func set(_ tv: TVID, _ property: String) -> String { "\(base)/\(tv)/\(Self.setLevel)/\(property)" }
    /// The current app's icon as raw image bytes, retained; emptied when there is none.
    public func appIcon(_ tv: TVID) -> String { "\(base)/\(tv)/app_icon" }
    /// Answers to commands that carried a `transaction`.
    public func response(_ tv: TVID) -> String { "\(base)/\(tv)/response" }
    /// One TV's events (not retained): the `bridge/event` JSON plus `event_type`,
    /// for the TV's Home Assistant `event` entity and device triggers (`TVEventType`).
    public func event(_ tv: TVID) -> String { "\(base)/\(tv)/event" }

    /// What the bridge subscribes to on every connection.
    public var subscriptions: [String] {
        [
            "\(base)/+/\(Self.setLevel)", "\(base)/+/\(Self.setLevel)/+", bridgeRequest("+"), bridgeRequest("tv/+"),
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
        let requests = "\(Self.bridgeLevel)/\(Self.requestLevel)/"
        if rest.hasPrefix(requests) {
            let action = rest.dropFirst(requests.count)
            return action.isEmpty ? nil : .request(String(action))
        }
        let levels = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 2 || levels.count == 3, levels[1] == Self.setLevel, !levels[0].isEmpty,
            levels[0] != Self.bridgeLevel
        else { return nil }
        return .command(tv: String(levels[0]), property: levels.count == 3 ? String(levels[2]) : nil)
    }

    /// Whether `topic` can be one this base uses for the bridge or for the TV `node`, level by
    /// level: `<base>/bridge/<leaf>` or `<base>/bridge/request/…` (the bridge's, which TV
    /// configs name too), or `<base>/<node>/<leaf>` or `<base>/<node>/set/<property>`. A prefix
    /// test is not enough: another instance's `tv2mqtt/floor2/<tv>/state` starts with `tv2mqtt/`.
    public func isOwn(_ topic: String, node: String) -> Bool {
        guard topic.hasPrefix(base + "/") else { return false }
        let levels = topic.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count >= 2, !levels.contains(where: \.isEmpty) else { return false }
        if levels[0] == Self.bridgeLevel { return levels.count == 2 || levels[1] == Self.requestLevel }
        guard levels[0] == node else { return false }
        return levels.count == 2 || (levels.count == 3 && levels[1] == Self.setLevel)
    }
}
