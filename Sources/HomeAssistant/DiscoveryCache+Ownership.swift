import MQTTInterface
import TVModel
import Wire

extension DiscoveryCache {
    /// Whose a retained discovery config seen on the broker is.
    public enum Owner: Equatable, Sendable {
        case tv(TVID)
        case bridge
    }

    /// The TV a retained discovery config belongs to, when the config is one of ours: on a
    /// topic of our discovery prefix, with origin name `tv2mqtt`, and every availability, state
    /// and command topic one this instance uses for that node (see `Topics.isOwn`). nil for
    /// anything else, and for the bridge's configs.
    ///
    /// At startup the bridge reads the retained configs and clears those of TVs it no longer
    /// knows; another instance's configs are left alone, also when its base topic
    /// lies under ours (`tv2mqtt/floor2` under `tv2mqtt`, deploy/README.md › Several instances).
    public static func isOwnedConfig(topic: String, payload: String, settings: DiscoverySettings) -> TVID? {
        if case .tv(let id) = owner(topic: topic, payload: payload, settings: settings) { return id }
        return nil
    }

    /// The owner of a retained discovery config, when it is one of ours (see `isOwnedConfig`).
    public static func owner(topic: String, payload: String, settings: DiscoverySettings) -> Owner? {
        guard let node = settings.discoveryTopics.node(of: topic), !payload.isEmpty,
            let config = try? JSONParser.parse(payload), config.objectValue != nil,
            (config["origin"] ?? config["o"])?["name"]?.stringValue == "tv2mqtt"
        else { return nil }
        var configs = [config]
        if let components = (config["components"] ?? config["cmps"])?.objectValue {
            configs += components.values
        }
        let topics = configs.flatMap(referencedTopics)
        guard !topics.isEmpty, topics.allSatisfy({ settings.topics.isOwn($0, node: node) }) else {
            return nil
        }
        if node == settings.bridgeID { return .bridge }
        return TVID(node).map(Owner.tv)
    }

    /// Empty payloads for the retained configs that are ours and not among `desiredTopics`:
    /// configs of TVs no longer known, of entities a TV lost, or of the other discovery style.
    public static func staleClears(
        retained: [DiscoveryMessage], desiredTopics: Set<String>, settings: DiscoverySettings
    ) -> [DiscoveryMessage] {
        retained.filter {
            !$0.isClear && !desiredTopics.contains($0.topic)
                && owner(topic: $0.topic, payload: $0.payload, settings: settings) != nil
        }
        .map { .clear($0.topic) }
    }

    /// Availability, state and command topics of one config, under full or abbreviated keys.
    private static func referencedTopics(_ config: JSONValue) -> [String] {
        var topics: [String] = []
        // `topic`/`t`: a device trigger's (`DeviceTrigger`).
        for key in ["state_topic", "stat_t", "command_topic", "cmd_t", "availability_topic", "avty_t", "topic", "t"] {
            if let topic = config[key]?.stringValue { topics.append(topic) }
        }
        for entry in (config["availability"] ?? config["avty"])?.arrayValue ?? [] {
            if let topic = (entry["topic"] ?? entry["t"])?.stringValue { topics.append(topic) }
        }
        return topics
    }
}
