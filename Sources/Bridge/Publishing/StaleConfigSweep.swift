import Clients
import HomeAssistant
import Synchronization

/// The retained discovery configs seen while sweeping: only the topics that are ours.
final class StaleConfigSweep: Sendable {
    private let state = Mutex<(settings: DiscoverySettings?, owned: Set<String>)>((nil, []))

    func begin(settings: DiscoverySettings) {
        state.withLock { $0 = (settings, []) }
    }

    /// A retained config arrived; keep its topic if an earlier tv2mqtt of ours made it.
    func collect(_ message: MQTTMessage) -> Bool {
        state.withLock { state in
            // Only discovery configs: Home Assistant's own `homeassistant/status` must still get through.
            guard let settings = state.settings, settings.discoveryTopics.isConfig(message.topic) else {
                return false
            }
            if message.retain, !message.payload.isEmpty,
                DiscoveryCache.owner(topic: message.topic, payload: message.text, settings: settings) != nil
            {
                state.owned.insert(message.topic)
            }
            return true
        }
    }

    func end() -> Set<String> {
        state.withLock { state in
            defer { state = (nil, []) }
            return state.owned
        }
    }
}
