import Clients
import Support
import Wire

/// Everything the bridge publishes goes through here.
///
/// Retained topics (bridge state and info, discovery configs, availability, state) are kept
/// as the desired value per topic; a value is published only when it differs from what the
/// broker was last sent, and after every (re)connect all of them are sent again in this
/// order: bridge, discovery, availability, state. Events and responses are not retained and
/// are dropped (with a debug line) while disconnected.
public actor BridgePublisher {
    public enum Category: Int, Comparable, Sendable, CaseIterable {
        case bridge, discovery, availability, state

        public static func < (lhs: Category, rhs: Category) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private struct Entry {
        var category: Category
        var payload: [UInt8]
        /// Whether the broker has this payload since the current connection started.
        var sent: Bool
    }

    let client: MQTTClient
    let logger: Logger
    /// The status page's feed; nil while the page is off.
    let observer: (any BridgeObserver)?
    private var retained: [String: Entry] = [:]
    /// Insertion order per category, so a republish keeps a stable order.
    private var order: [Category: [String]] = [:]

    public init(client: MQTTClient, logger: Logger, observer: (any BridgeObserver)? = nil) {
        self.client = client
        self.logger = logger
        self.observer = observer
    }

    /// The retained value a topic holds now (what the broker has or will get).
    public func retainedPayload(_ topic: String) -> [UInt8]? { retained[topic]?.payload }

    /// Sets a retained topic; publishes it now if it changed and we are connected.
    public func setRetained(_ topic: String, _ payload: [UInt8], category: Category) async {
        if let entry = retained[topic], entry.payload == payload, entry.sent { return }
        await replaceRetained(topic, payload, category: category)
    }

    /// Sets a retained topic its owner already compared (a TV's availability and state:
    /// `TVStateTracker`; its app icon: `AppIconPublisher`): kept and published now if we are
    /// connected, without comparing again.
    public func replaceRetained(_ topic: String, _ payload: [UInt8], category: Category) async {
        let previous = retained[topic]
        if previous == nil { order[category, default: []].append(topic) }
        if previous?.payload != payload { observer?.published(topic: topic, payload: payload) }
        retained[topic] = Entry(category: category, payload: payload, sent: await send(topic, payload, retain: true))
    }

    public func setRetained(_ topic: String, _ text: String, category: Category) async {
        await setRetained(topic, Array(text.utf8), category: category)
    }

    /// Deletes a retained message (empty retained payload, MQTT 3.1.1 §3.3.1.3) and forgets it.
    public func clearRetained(_ topic: String) async {
        if let entry = retained.removeValue(forKey: topic) {
            order[entry.category]?.removeAll { $0 == topic }
        }
        observer?.published(topic: topic, payload: [])
        _ = await send(topic, [], retain: true)
    }

    /// Publishes a retained message without keeping it here: discovery configs, which are
    /// large and regenerated when needed (the caller tracks what was sent).
    public func publishRetained(_ topic: String, _ payload: [UInt8]) async -> Bool {
        await send(topic, payload, retain: true)
    }

    /// Topics currently held, for one category.
    public func topics(in category: Category) -> [String] { order[category] ?? [] }

    /// A non-retained message (events, responses).
    public func publish(_ topic: String, _ payload: [UInt8], qos: MQTTQoS = .atMostOnce) async {
        observer?.published(topic: topic, payload: payload)
        _ = await send(topic, payload, retain: false, qos: qos)
    }

    /// Sends retained topics again, in category order: after a reconnect the ones the broker
    /// has not had on this connection; with `force` (Home Assistant came back online), all.
    public func republish(_ categories: [Category] = Category.allCases, force: Bool = false) async {
        for category in categories.sorted() {
            for topic in order[category] ?? [] {
                guard var entry = retained[topic], force || !entry.sent else { continue }
                entry.sent = await send(topic, entry.payload, retain: true)
                retained[topic] = entry
            }
        }
    }

    /// The connection dropped: nothing counts as sent any more.
    public func connectionLost() {
        for key in retained.keys { retained[key]?.sent = false }
    }

    private func send(_ topic: String, _ payload: [UInt8], retain: Bool, qos: MQTTQoS = .atLeastOnce) async -> Bool {
        do {
            try await client.enqueue(topic, payload, qos: qos, retain: retain)
            return true
        } catch {
            if error != .notConnected && error != .cancelled { logger.error("cannot publish to \(topic): \(error)") }
            return false
        }
    }
}
