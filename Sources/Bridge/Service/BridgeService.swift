import Clients
import Configuration
import Drivers
import HomeAssistant
import MQTTInterface
import Net
import Persistence
import Support
import TVModel
import Wire

/// A running tv2mqtt instance: owns the MQTT client, the TVs and the discovery loops, in one
/// task group, and shuts them down in reverse order (`offline`, then DISCONNECT).
public final class BridgeService: Sendable {
    let configuration: BridgeConfiguration
    let context: BridgeContext
    let client: MQTTClient
    let registry: TVRegistry
    let homeAssistantDiscovery: HomeAssistantDiscoveryPublisher
    let finder: TVFinder
    /// Every switch and select a vendor's driver may declare: the parser accepts their keys.
    let controls: [DeclaredControl]
    let startedAt = LoopClock.current.wallSeconds
    let stateDirectory: String
    let threshold: LogThreshold
    let observer: (any BridgeObserver)?

    private let control: AsyncStream<Control>
    private let controlSink: AsyncStream<Control>.Continuation
    let sweep = StaleConfigSweep()
    /// The "TV to add" text's address, for the "Add TV" button (`AddTVRequest.swift`).
    let addTVDraft = AddTVDraft()
    /// Where `tv/add` may connect (`add_tv`), and how many of its probes run (`AddTVGate`).
    let addTVPolicy: AddTVPolicy
    let addTVGate = AddTVGate()

    enum Control: Sendable {
        case spawn(@Sendable () async -> Void)
        case shutdown
    }

    /// - Parameters:
    ///   - factory: makes drivers (`VendorDriverFactory` in production).
    ///   - observer: the status page's feed (nil while the page is off).
    public init(
        configuration: BridgeConfiguration, logger: Logger, factory: any DriverFactory,
        observer: (any BridgeObserver)? = nil
    ) throws {
        self.observer = observer
        self.configuration = configuration
        self.threshold = logger.threshold
        addTVPolicy = AddTVPolicy(configuration.addTV, vendors: factory.vendors)
        stateDirectory = StateStore.resolveDirectory(configuration.stateDir)
        let store = StateStore(directory: stateDirectory, kinds: factory.vendors.stateFileKinds, logger: logger)
        try store.checkDirectory()  // a link, or another user's or a shared directory: refuse to start
        let topics = Topics(
            base: configuration.baseTopic, homeAssistantStatus: configuration.homeAssistant.statusTopic)
        client = try MQTTClient(
            configuration: Self.mqttConfiguration(configuration), logger: logger.labeled("mqtt"))
        let publisher = BridgePublisher(
            client: client, logger: logger.labeled("mqtt"), observer: observer)
        context = BridgeContext(
            configuration: configuration, vendors: factory.vendors, topics: topics, publisher: publisher,
            logger: logger.labeled("bridge"), observer: observer)
        (control, controlSink) = AsyncStream.makeStream(of: Control.self)
        registry = TVRegistry(context: context, factory: factory, store: store)
        var settings = DiscoverySettings(
            baseTopic: configuration.baseTopic,
            discoveryPrefix: configuration.homeAssistant.discoveryPrefix,
            style: configuration.homeAssistant.style,
            mergeWithNativeDevices: configuration.homeAssistant.mergeWithNativeDevices,
            version: TV2MQTTVersion.current, originURL: TV2MQTTVersion.url)
        settings.diagnosticSensors = factory.vendors.flatMap(\.diagnosticSensors)
        controls = factory.vendors.flatMap(\.controls)
        settings.controls = controls
        // Two labels: finding TVs (SSDP, scan) is not Home Assistant discovery.
        homeAssistantDiscovery = HomeAssistantDiscoveryPublisher(
            settings: settings, enabled: configuration.homeAssistant.enabled, publisher: publisher,
            logger: logger.labeled("homeassistant"))
        finder = TVFinder(
            configuration: configuration, registry: registry, logger: logger.labeled("search"))
    }

    public static func mqttConfiguration(_ configuration: BridgeConfiguration)
        -> MQTTClientConfiguration
    {
        let mqtt = configuration.mqtt
        var tls: TLSConfiguration?
        if mqtt.server.useTLS {
            let trust: TLSConfiguration.Trust =
                !mqtt.rejectUnauthorized
                ? .none : mqtt.ca.isEmpty ? .systemDefault : .certificateAuthority(file: mqtt.ca)
            tls = TLSConfiguration(
                trust: trust, certificateFile: mqtt.cert.isEmpty ? nil : mqtt.cert,
                privateKeyFile: mqtt.key.isEmpty ? nil : mqtt.key)
        }
        let will = MQTTWill(
            topic: Topics(base: configuration.baseTopic).bridgeState, payload: Array("offline".utf8),
            qos: .atLeastOnce,
            retain: true)
        let session = MQTTSessionConfiguration(
            clientID: mqtt.clientID, cleanSession: true, keepAlive: UInt16(mqtt.keepalive), will: will,
            username: mqtt.user.isEmpty ? nil : mqtt.user,
            password: mqtt.password.isEmpty ? nil : Array(mqtt.password.utf8))
        return MQTTClientConfiguration(
            host: mqtt.server.host, port: mqtt.server.port, tls: tls, session: session)
    }

    /// Runs until `shutdown()`.
    public func run() async {
        context.logger.info(
            "tv2mqtt \(TV2MQTTVersion.current) starting",
            [("broker", configuration.mqtt.server.description), ("state_dir", stateDirectory)])
        await registry.setOnChange { [homeAssistantDiscovery, context] id, description in
            await homeAssistantDiscovery.update(id, description)
            // Coalesced by `refreshInfoPeriodically` (one publish per 200 ms burst): published
            // here directly, a fleet of N TVs found at once would send N ever-longer lists.
            context.tvListChanged.signal()
        }
        await registry.restoreSaved()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.followConnection() }
            group.addTask { await self.handleMessages() }
            group.addTask { await self.finder.run() }
            group.addTask { await self.refreshInfoPeriodically() }
            for await request in control {
                switch request {
                case .spawn(let work):
                    group.addTask { await work() }
                case .shutdown:
                    await stopEverything()
                    group.cancelAll()
                    return
                }
            }
        }
        context.logger.info("tv2mqtt stopped")
    }

    /// Asks `run()` to stop: TVs first, then `offline` and DISCONNECT.
    public func shutdown() {
        controlSink.yield(.shutdown)
    }

    /// How long shutting down may take in all (Tests/README.md › Reliability: SIGTERM ends the
    /// process within 5 s, whatever the broker and the TVs do), and how much of it the TVs get.
    static let shutdownBudget = Duration.seconds(4)
    static let driverShutdownBudget = Duration.seconds(2)

    /// Stops under one deadline: state saved first (it is what a slow exit must not lose),
    /// the TVs' connections closed in parallel, then `offline` and DISCONNECT with the time left.
    private func stopEverything() async {
        context.logger.info("shutting down")
        let deadline = LoopClock.current.now + Self.shutdownBudget
        finder.stop()
        let agents = await registry.agents()
        for agent in agents { agent.stop() }
        await registry.stopWatchingStateFile()
        await registry.saveNow()
        let driversClosed: Void? = await withDeadline(LoopClock.current.now + Self.driverShutdownBudget) {
            await withDiscardingTaskGroup { group in
                for agent in agents { group.addTask { await agent.driver.shutdown() } }
            }
        }
        if driversClosed == nil {
            context.logger.warning("some TV connections did not close in time; leaving them")
        }
        // The will would say the same, but only after the keep-alive runs out; say it now.
        let client = self.client
        let offlineTopic = context.topics.bridgeState
        let saidOffline: Void? = await withDeadline(deadline - .seconds(1)) {
            _ = try? await client.publish(
                offlineTopic, Array("offline".utf8), qos: .atLeastOnce, retain: true)
        }
        let disconnected: Void? = await withDeadline(deadline) { await client.stop() }
        if saidOffline == nil || disconnected == nil {
            context.logger.warning(
                "the MQTT broker did not answer in time; the will says offline instead")
        }
        controlSink.finish()
    }

    /// Runs `work` in the service's task group.
    func spawn(_ work: @escaping @Sendable () async -> Void) {
        controlSink.yield(.spawn(work))
    }
}
