import Harness
import Synchronization
import TVSimulators
import Wire

@testable import Bridge

/// Simulated Rokus on their own loopback addresses for one test, sharing an SSDP port and a
/// Wake-on-LAN port that no other test uses, held from `make()` to `stopAll()` (TVs come and
/// go meanwhile; tests reach them by broadcast to 127.255.255.255); always stopped by `withRokus`.
final class SimulatedRokus: Sendable {
    private let ssdp: SharedUDPPort
    private let wol: SharedUDPPort
    var ssdpPort: UInt16 { ssdp.port }
    var wolPort: UInt16 { wol.port }
    let log = CommandLog.memory()
    private let running: Mutex<[String: RokuSimulator]>

    private init(ssdp: SharedUDPPort, wol: SharedUDPPort) {
        self.ssdp = ssdp
        self.wol = wol
        running = Mutex([:])
    }

    static func make() throws -> SimulatedRokus {
        SimulatedRokus(ssdp: try SharedUDPPort(), wol: try SharedUDPPort())
    }

    /// Starts a Roku on `host` (port chosen by the system unless given); `ecp2` serves ECP-2;
    /// `ecpSetting` is its "Control by mobile apps" (`RokuECPSetting`).
    @discardableResult
    func start(
        _ host: String, kind: RokuDeviceKind = .tv, port: UInt16 = 0, limited: Bool = false, name: String? = nil,
        ecp2: Bool = false, ecpSetting: RokuECPSetting? = nil
    ) async throws -> RokuSimulator {
        var options = RokuSimulatorOptions()
        options.host = host
        options.port = port
        options.kind = kind
        options.name = name
        options.limited = limited
        options.ecp2 = ecp2
        options.ecpSetting = ecpSetting
        options.ssdpPort = ssdpPort
        options.wolPort = wolPort
        let simulator = try await RokuSimulator.start(options, log: log)
        running.withLock { $0[host] = simulator }
        return simulator
    }

    func simulator(_ host: String) -> RokuSimulator? { running.withLock { $0[host] } }

    func stop(_ host: String) async {
        guard let simulator = running.withLock({ $0.removeValue(forKey: host) }) else { return }
        await simulator.stop()
    }

    /// Stops every TV and gives the shared ports up.
    func stopAll() async {
        for simulator in running.withLock({ Array($0.values) }) { await simulator.stop() }
        running.withLock { $0.removeAll() }
        ssdp.close()
        wol.close()
    }

    /// The bridge's TV id for a simulator (`roku_<serial>`).
    static func id(_ simulator: RokuSimulator) -> String { "roku_" + simulator.serial.lowercased() }

    /// Log entries of `kind` for one simulated TV.
    func entries(_ kind: String, of simulator: RokuSimulator) -> [JSONValue] {
        log.entries.filter { $0["kind"]?.stringValue == kind && $0["tv"]?.stringValue == simulator.serial }
    }
}

/// Runs `body` with a bridge fixture and simulated Rokus, and always stops both.
func withRokus(_ body: (BridgeFixture, SimulatedRokus) async throws -> Void) async throws {
    let rokus = try SimulatedRokus.make()
    do {
        try await withBridgeFixture { fixture in try await body(fixture, rokus) }
    } catch {
        await rokus.stopAll()
        throw error
    }
    await rokus.stopAll()
}
