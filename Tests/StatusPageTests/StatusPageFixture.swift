import Bridge
import Configuration
import Drivers
import Harness
import Net
import StatusPage
import Support
import Synchronization
import TVModel
import TVSimulators
import TestSupport
import Wire

/// The TV a page test runs against: a simulated Roku (or Samsung) on a loopback address.
struct PageTV: Sendable {
    let id: String
    let log: CommandLog
    let configured: BridgeConfiguration.ConfiguredTV
    let roku: RokuSimulator?
    let samsung: SamsungSimulator?

    static func roku(_ host: String) async throws -> PageTV {
        let log = CommandLog.memory()
        let roku = try await RokuSimulator.start(RokuSimulatorOptions(host: host, port: 0), log: log)
        return PageTV(
            id: "roku_" + roku.serial.lowercased(), log: log,
            configured: .init(host: host, kind: TVKind(rawValue: "roku"), port: roku.port), roku: roku, samsung: nil)
    }

    /// A Samsung that asks before it accepts a remote (and accepts), configured as `living_room`.
    static func samsung(_ host: String) async throws -> PageTV {
        let log = CommandLog.memory()
        let samsung = try await SamsungSimulator.start(
            SamsungSimulatorOptions(host: host, portWS: 0, portWSS: 0, portUPnP: 0, name: "Living Room"), log: log)
        var configured = BridgeConfiguration.ConfiguredTV(
            host: host, kind: TVKind(rawValue: "samsung"), id: TVID("living_room"), port: samsung.portWS)
        configured.vendorOptions[SamsungTVOptions.self].secure = samsung.portWSS
        configured.vendorOptions[SamsungTVOptions.self].upnp = samsung.portUPnP
        return PageTV(id: "living_room", log: log, configured: configured, roku: nil, samsung: samsung)
    }

    func stop() async {
        await roku?.stop()
        await samsung?.stop()
    }
}

/// A real mosquitto, a simulated TV on a loopback address, a bridge driving it, and the
/// status page on a free loopback port.
final class StatusPageFixture: Sendable {
    let broker: MosquittoBroker
    let tv: PageTV
    let bridge: BridgeService
    let server: StatusServer
    let stateDirectory: TemporaryDirectory
    private let runner: Task<Void, Never>

    var tvID: String { tv.id }
    var log: CommandLog { tv.log }
    /// The simulated Roku (the fixture's default TV).
    var roku: RokuSimulator { tv.roku! }
    var port: UInt16 { server.port }

    private init(
        broker: MosquittoBroker, tv: PageTV, bridge: BridgeService, server: StatusServer,
        stateDirectory: TemporaryDirectory, runner: Task<Void, Never>
    ) {
        self.broker = broker
        self.tv = tv
        self.bridge = bridge
        self.server = server
        self.stateDirectory = stateDirectory
        self.runner = runner
    }

    static func start(
        token: String = "", tv: PageTV, limits: StatusPageLimits = StatusPageLimits(), allowFrom: [String] = [],
        hosts: [String] = []
    ) async throws -> StatusPageFixture {
        let broker = try await MosquittoBroker.start()
        let stateDirectory = try TemporaryDirectory(prefix: "status-page")
        var configuration = BridgeConfiguration()
        configuration.mqtt.server = BrokerAddress(useTLS: false, host: broker.host, port: broker.port)
        configuration.mqtt.clientID = "tv2mqtt-status-\(broker.port)"
        configuration.stateDir = stateDirectory.path
        configuration.discovery.ssdp = false
        configuration.discovery.mdns = false  // nothing may reach the machine's real networks
        configuration.wol.targets = [HostPort(host: "127.0.0.1", port: 9)]
        configuration.pollInterval = 1
        configuration.vendorSettings[SamsungSettings.self].eventPort = 0  // tests run side by side
        configuration.tvs = [tv.configured]
        configuration.addTV.allowLoopback = true
        configuration.addTV.ports = tv.configured.port.map { [$0] } ?? []
        configuration.http.listen = HostPort(host: "127.0.0.1", port: 0)
        configuration.http.token = token
        configuration.http.allowFrom = allowFrom
        configuration.http.hosts = hosts
        let feed = StatusFeed(baseTopic: configuration.baseTopic, limits: limits)
        let logger = Logger(label: "test", sink: feed.sink(wrapping: DiscardingSink()), threshold: LogThreshold(.debug))
        let bridge = try BridgeService(
            configuration: configuration, logger: logger,
            factory: VendorDriverFactory(configuration: configuration, vendors: .shipped, logger: .disabled),
            observer: feed)
        let server = try StatusServer.start(
            service: bridge, feed: feed, settings: configuration.http, logger: logger, limits: limits)
        let runner = Task { await bridge.run() }
        return StatusPageFixture(
            broker: broker, tv: tv, bridge: bridge, server: server, stateDirectory: stateDirectory,
            runner: runner)
    }

    func stop() async {
        bridge.shutdown()
        await runner.value
        await server.stop()
        await tv.stop()
        await broker.stop()
        stateDirectory.remove()
    }
}

/// Runs `body` with a fixture and always stops it.
func withStatusPage(
    token: String = "", rokuHost: String, limits: StatusPageLimits = StatusPageLimits(), allowFrom: [String] = [],
    hosts: [String] = [], _ body: (StatusPageFixture) async throws -> Void
) async throws {
    try await withStatusPage(
        token: token, tv: try await PageTV.roku(rokuHost), limits: limits, allowFrom: allowFrom, hosts: hosts, body)
}

/// Runs `body` with a fixture for `tv` and always stops both.
func withStatusPage(
    token: String = "", tv: PageTV, limits: StatusPageLimits = StatusPageLimits(), allowFrom: [String] = [],
    hosts: [String] = [], _ body: (StatusPageFixture) async throws -> Void
) async throws {
    let fixture: StatusPageFixture
    do {
        fixture = try await StatusPageFixture.start(
            token: token, tv: tv, limits: limits, allowFrom: allowFrom, hosts: hosts)
    } catch {
        await tv.stop()
        throw error
    }
    do {
        try await body(fixture)
    } catch {
        await fixture.stop()
        throw error
    }
    await fixture.stop()
}
