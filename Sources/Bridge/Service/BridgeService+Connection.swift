import Clients
import HomeAssistant
import Net
import Support
import Synchronization
import TVModel
import Wire

extension BridgeService {
    /// Reacts to the MQTT connection: on every (re)connect, subscriptions, `online`, then
    /// discovery, availability and state republished in that order.
    func followConnection() async {
        var firstConnection = true
        for await state in client.states {
            switch state {
            case .connected:
                observer?.brokerConnection(connected: true)
                await connected(first: firstConnection)
                firstConnection = false
            case .disconnected:
                observer?.brokerConnection(connected: false)
                await context.publisher.connectionLost()
            case .stopped:
                return
            case .connecting:
                break
            }
        }
    }

    private func connected(first: Bool) async {
        let publisher = context.publisher
        if first {
            // Subscribed before saying `online`: a command sent as soon as the bridge says it
            // is online must not be lost. (Reconnects resubscribe in the client itself.)
            let subscriptions = context.topics.subscriptions.map { MQTTSubscription(filter: $0, qos: .atLeastOnce) }
            do {
                try await client.subscribe(subscriptions)
            } catch {
                context.logger.error("cannot subscribe to the command topics: \(error)")
            }
        }
        await publisher.setRetained(context.topics.bridgeState, "online", category: .bridge)
        if first && configuration.homeAssistant.enabled { await sweepStaleConfigs() }
        await publishInfo()
        await publishTVList()
        await publisher.republish([.bridge])
        await homeAssistantDiscovery.republishAll()
        await publisher.republish([.availability, .state])
    }

    /// Collects the retained discovery configs on the broker for a moment and clears the ones
    /// an earlier run left for TVs this instance no longer knows (Sources/README.md › Choices made
    /// where the specification is silent).
    private func sweepStaleConfigs() async {
        let filters = homeAssistantDiscovery.settings.discoveryTopics.everyConfig
        sweep.begin(settings: homeAssistantDiscovery.settings)
        do {
            try await client.subscribe(filters.map { MQTTSubscription(filter: $0, qos: .atMostOnce) })
            try? await EventLoop.sleep(for: .seconds(2))  // retained messages arrive right after SUBACK
            try await client.unsubscribe(filters)
        } catch {
            context.logger.warning("cannot look for stale discovery configs: \(error)")
        }
        let owned = sweep.end()
        let desired = await homeAssistantDiscovery.desiredTopics()
        let stale = owned.subtracting(desired).sorted()
        if !stale.isEmpty { context.logger.info("clearing \(stale.count) stale discovery configs of an earlier run") }
        for topic in stale { _ = await context.publisher.publishRetained(topic, []) }
    }

    /// Home Assistant came back online: republish after a random 1–5 s, so a
    /// restarted Home Assistant is not flooded by every bridge at the same instant. A loop
    /// timer, not a task sleeping until then.
    func homeAssistantOnline() {
        let delay = Duration.milliseconds(Int.random(in: 1000...5000))
        context.logger.info("Home Assistant is online; republishing discovery in \(delay)")
        LoopClock.current.startTask(at: LoopClock.current.now + delay) { [weak self] in
            await self?.republishForHomeAssistant()
        }
    }

    /// Skipped while disconnected (stopped, or the broker away): the next connect republishes
    /// everything anyway.
    private func republishForHomeAssistant() async {
        guard await client.isConnected else { return }
        await homeAssistantDiscovery.republishAll()
        await context.publisher.republish([.availability, .state], force: true)
    }
}
