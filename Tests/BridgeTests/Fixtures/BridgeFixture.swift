import Clients
import Configuration
import Drivers
import Harness
import Support
import Synchronization
import TVModel
import Wire

@testable import Bridge

/// Every message an observer saw, with a way to wait for one.
actor MessageLog {
    private(set) var messages: [MQTTMessage] = []

    /// How many messages arrived so far: a mark for `waitFor(_:after:)`.
    var count: Int { messages.count }

    func append(_ message: MQTTMessage) { messages.append(message) }

    /// The latest message on `topic` (nil if none yet).
    func latest(_ topic: String) -> MQTTMessage? { messages.last { $0.topic == topic } }

    func all(_ topic: String) -> [MQTTMessage] { messages.filter { $0.topic == topic } }

    func all(prefix: String) -> [MQTTMessage] { messages.filter { $0.topic.hasPrefix(prefix) } }
}

extension MessageLog {
    /// Waits for a message on `topic` matching `condition` (the latest one is checked each time),
    /// among the messages from index `after` on (`count` taken earlier: only newer ones).
    func waitFor(
        _ topic: String, after: Int = 0, timeout: Duration = .seconds(30),
        where condition: @Sendable (MQTTMessage) -> Bool = { _ in true }
    ) async -> MQTTMessage? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let candidates = messages[min(after, messages.count)...]
            if let match = candidates.last(where: { $0.topic == topic && condition($0) }) { return match }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits for an event of `type` on `<base>/bridge/event`.
    func waitForEvent(_ base: String, type: String, timeout: Duration = .seconds(30)) async
        -> JSONValue?
    {
        let message = await waitFor("\(base)/bridge/event", timeout: timeout) {
            (try? JSONParser.parse($0.payload))?["type"]?.stringValue == type
        }
        return message.flatMap { try? JSONParser.parse($0.payload) }
    }
}

/// A real mosquitto, an in-process bridge, and an observer subscribed to everything.
final class BridgeFixture: Sendable {
    let broker: MosquittoBroker
    let observer: MQTTClient
    let log = MessageLog()
    let stateDirectory: TemporaryDirectory
    let logs = CapturingSink()
    let base: String
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let service = Mutex<BridgeService?>(nil)

    private init(
        broker: MosquittoBroker, observer: MQTTClient, stateDirectory: TemporaryDirectory, base: String
    ) {
        self.broker = broker
        self.observer = observer
        self.stateDirectory = stateDirectory
        self.base = base
    }

    /// - Parameter observerBackoff: how the observer reconnects (tests that restart the broker
    ///   want it back sooner than the bridge, so it sees what the bridge republishes).
    static func start(
        base: String = "tv2mqtt", observerBackoff: ReconnectBackoff = ReconnectBackoff()
    ) async throws
        -> BridgeFixture
    {
        let broker = try await MosquittoBroker.start()
        let observer = try MQTTClient(
            configuration: MQTTClientConfiguration(
                host: broker.host, port: broker.port,
                session: MQTTSessionConfiguration(clientID: "observer-\(broker.port)"),
                backoff: observerBackoff),
            logger: .disabled)
        let fixture = BridgeFixture(
            broker: broker, observer: observer,
            stateDirectory: try TemporaryDirectory(prefix: "bridge-state"),
            base: base)
        fixture.keep(Task { await observer.run() })
        fixture.keep(
            Task {
                for await message in observer.messages { await fixture.log.append(message) }
            })
        _ = await observer.waitUntilConnected()
        try await observer.subscribe("#", qos: .atLeastOnce)
        return fixture
    }

    func keep(_ task: Task<Void, Never>) { tasks.withLock { $0.append(task) } }

    /// The configuration a test bridge runs with: this broker, a private state directory,
    /// no SSDP or mDNS, Wake-on-LAN only to loopback.
    func configuration(_ adjust: (inout BridgeConfiguration) -> Void = { _ in })
        -> BridgeConfiguration
    {
        var configuration = BridgeConfiguration()
        configuration.mqtt.server = BrokerAddress(useTLS: false, host: broker.host, port: broker.port)
        configuration.mqtt.clientID = "tv2mqtt-test-\(broker.port)"
        configuration.baseTopic = base
        configuration.stateDir = stateDirectory.path
        configuration.discovery.ssdp = false
        configuration.discovery.mdns = false  // nothing may reach the machine's real networks
        configuration.wol.targets = [HostPort(host: "127.0.0.1", port: 9)]
        configuration.pollInterval = 1
        configuration.vendorSettings[SamsungSettings.self].eventPort = 0  // UPnP events on any free port: tests run side by side
        adjust(&configuration)
        return configuration
    }

    /// Starts a bridge; returns once it is connected and has said `online`.
    @discardableResult
    func startBridge(
        _ configuration: BridgeConfiguration, factory: any DriverFactory
    ) async throws -> BridgeService {
        let logger = Logger(label: "test", sink: logs, threshold: LogThreshold(.debug))
        let bridge = try BridgeService(configuration: configuration, logger: logger, factory: factory)
        service.withLock { $0 = bridge }
        let mark = await log.count
        let runner = Task { await bridge.run() }
        keep(runner)
        _ = await log.waitFor("\(base)/bridge/state", after: mark) { $0.text == "online" }
        return bridge
    }

    /// Stops the bridge (as on SIGTERM) and waits until it has.
    func stopBridge() async {
        guard let bridge = service.withLock({ $0 }) else { return }
        bridge.shutdown()
        _ = await log.waitFor("\(base)/bridge/state") { $0.text == "offline" }
        service.withLock { $0 = nil }
    }

    /// Publishes like `mosquitto_pub` would (through the observer's connection).
    func publish(_ topic: String, _ text: String, qos: MQTTQoS = .atLeastOnce, retain: Bool = false)
        async throws
    {
        try await observer.publish(topic, Array(text.utf8), qos: qos, retain: retain)
    }

    func stop() async {
        await stopBridge()
        await observer.stop()
        for task in tasks.withLock({ $0 }) { task.cancel() }
        await broker.stop()
        stateDirectory.remove()
    }
}

/// Runs `body` with a fixture and always stops it.
func withBridgeFixture(base: String = "tv2mqtt", _ body: (BridgeFixture) async throws -> Void)
    async throws
{
    let fixture = try await BridgeFixture.start(base: base)
    do {
        try await body(fixture)
    } catch {
        await fixture.stop()
        throw error
    }
    await fixture.stop()
}
