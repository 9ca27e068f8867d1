import Bridge
import Drivers
import Harness
import Net
import StatusPage
import Support
import Synchronization
import TVModel
import TVSimulators
import Wire

/// A real mosquitto, a simulated Roku on a loopback address, a bridge driving it, and the
/// status page on a free loopback port.
final class StatusPageFixture: Sendable {
    let broker: MosquittoBroker
    let roku: RokuSimulator
    let log: CommandLog
    let bridge: BridgeService
    let server: StatusServer
    let stateDirectory: TemporaryDirectory
    private let runner: Task<Void, Never>

    var tvID: String { "roku_" + roku.serial.lowercased() }
    var port: UInt16 { server.port }

    private init(
        broker: MosquittoBroker, roku: RokuSimulator, log: CommandLog, bridge: BridgeService, server: StatusServer,
        stateDirectory: TemporaryDirectory, runner: Task<Void, Never>
    ) {
        self.broker = broker
        self.roku = roku
        self.log = log
        self.bridge = bridge
        self.server = server
        self.stateDirectory = stateDirectory
        self.runner = runner
    }

    static func start(
        token: String = "", rokuHost: String, limits: StatusPageLimits = StatusPageLimits()
    ) async throws -> StatusPageFixture {
        let broker = try await MosquittoBroker.start()
        let log = CommandLog.memory()
        let roku = try await RokuSimulator.start(RokuSimulatorOptions(host: rokuHost, port: 0), log: log)
        let stateDirectory = try TemporaryDirectory(prefix: "status-page")
        var configuration = BridgeConfiguration()
        configuration.mqtt.server = BrokerAddress(useTLS: false, host: broker.host, port: broker.port)
        configuration.mqtt.clientID = "tv2mqtt-status-\(broker.port)"
        configuration.stateDir = stateDirectory.path
        configuration.discovery.ssdp = false
        configuration.wol.targets = [HostPort(host: "127.0.0.1", port: 9)]
        configuration.pollInterval = 1
        configuration.tvs = [.init(host: rokuHost, kind: TVKind(rawValue: "roku"), port: roku.port)]
        configuration.http.listen = HostPort(host: "127.0.0.1", port: 0)
        configuration.http.token = token
        let feed = StatusFeed(baseTopic: configuration.baseTopic, limits: limits)
        let logger = Logger(label: "test", sink: feed.sink(wrapping: DiscardingSink()), threshold: LogThreshold(.debug))
        let bridge = try BridgeService(
            configuration: configuration, logger: logger,
            factory: VendorDriverFactory(configuration: configuration, logger: .disabled), observer: feed)
        let server = try StatusServer.start(
            service: bridge, feed: feed, settings: configuration.http, logger: logger, limits: limits)
        let runner = Task { await bridge.run() }
        return StatusPageFixture(
            broker: broker, roku: roku, log: log, bridge: bridge, server: server, stateDirectory: stateDirectory,
            runner: runner)
    }

    func stop() async {
        bridge.shutdown()
        await runner.value
        await server.stop()
        await roku.stop()
        await broker.stop()
        stateDirectory.remove()
    }
}

/// Runs `body` with a fixture and always stops it.
func withStatusPage(
    token: String = "", rokuHost: String, limits: StatusPageLimits = StatusPageLimits(),
    _ body: (StatusPageFixture) async throws -> Void
) async throws {
    let fixture = try await StatusPageFixture.start(token: token, rokuHost: rokuHost, limits: limits)
    do {
        try await body(fixture)
    } catch {
        await fixture.stop()
        throw error
    }
    await fixture.stop()
}
