import Drivers
import HomeAssistant
import Support
import TVModel

/// Keeps Home Assistant's discovery configs in step with the known TVs: a config
/// is published when it changes, cleared when its TV is removed, and all of them are
/// regenerated and sent again after a reconnect or Home Assistant's birth message.
actor HomeAssistantDiscoveryPublisher {
    let settings: DiscoverySettings
    let enabled: Bool
    let publisher: BridgePublisher
    let logger: Logger
    private var cache = DiscoveryCache()
    private var descriptions: [TVID: TVDescription] = [:]

    init(settings: DiscoverySettings, enabled: Bool, publisher: BridgePublisher, logger: Logger) {
        self.settings = settings
        self.enabled = enabled
        self.publisher = publisher
        self.logger = logger
    }

    /// A TV appeared or changed (description), or was removed (nil).
    func update(_ id: TVID, _ description: TVDescription?) async {
        if let description {
            descriptions[id] = description
        } else {
            descriptions[id] = nil
        }
        guard enabled else { return }
        // A removed TV: clear the configs it held (entity style) and its device topic.
        let messages =
            description.map {
                DiscoveryBuilder.messages(for: $0.identity, capabilities: $0.capabilities, settings: settings)
            } ?? DiscoveryBuilder.clearMessages(for: id, settings: settings)
        let planned = cache.plan(messages, owner: id.rawValue)
        await send(planned)
    }

    /// Sends the bridge device's config and every TV's, whether or not they changed.
    func republishAll() async {
        guard enabled else { return }
        cache.forgetAll()
        await send(cache.plan(DiscoveryBuilder.bridgeMessages(settings: settings), owner: settings.bridgeID))
        for id in descriptions.keys.sorted() {
            guard let description = descriptions[id] else { continue }
            let messages = DiscoveryBuilder.messages(
                for: description.identity, capabilities: description.capabilities, settings: settings)
            await send(cache.plan(messages, owner: id.rawValue))
        }
    }

    /// Every topic we want to hold a config on now.
    func desiredTopics() -> Set<String> {
        var topics = Set(DiscoveryBuilder.bridgeMessages(settings: settings).filter { !$0.isClear }.map(\.topic))
        for description in descriptions.values {
            for message in DiscoveryBuilder.messages(
                for: description.identity, capabilities: description.capabilities, settings: settings)
            where !message.isClear {
                topics.insert(message.topic)
            }
        }
        return topics
    }

    /// Clears retained configs of ours that an earlier run left for TVs (or entities, or a
    /// discovery style) no longer wanted.
    func clearStale(_ retained: [DiscoveryMessage]) async {
        guard enabled else { return }
        let clears = DiscoveryCache.staleClears(retained: retained, desiredTopics: desiredTopics(), settings: settings)
        if !clears.isEmpty { logger.info("clearing \(clears.count) stale discovery configs") }
        for clear in clears { cache.forget(topic: clear.topic) }
        await send(clears)
    }

    private func send(_ messages: [DiscoveryMessage]) async {
        for message in messages {
            if !(await publisher.publishRetained(message.topic, Array(message.payload.utf8))) {
                cache.forget(topic: message.topic)  // not sent: try again next time
            }
        }
    }
}
