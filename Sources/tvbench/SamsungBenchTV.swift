import TVSimulators
import Wire

/// A `SamsungSimulator` on its standard ports (8001 REST, 8002 TLS remote channel, 9197 UPnP)
/// at its own loopback address, so the bridge finds it with a bare `samsung:HOST`, as a user
/// configures one.
///
/// Pairing: the simulator approves at once (`pairing: accept`, the user pressing Allow), so
/// the bridge's first command pairs and gets its token during the warm-up; every measured
/// command goes over the paired TLS channel the driver keeps open.
final class SamsungBenchTV: KeyLoggingBenchTV {
    static let keyKind = "remote_key"

    let simulator: SamsungSimulator
    let log: CommandLog

    private init(simulator: SamsungSimulator, log: CommandLog) {
        self.simulator = simulator
        self.log = log
    }

    static func start(host: String) async throws -> SamsungBenchTV {
        let log = CommandLog.memory()
        let simulator = try await SamsungSimulator.start(
            SamsungSimulatorOptions(host: host, pairing: .accept), log: log)
        return SamsungBenchTV(simulator: simulator, log: log)
    }

    var host: String { simulator.host }
    var port: UInt16 { simulator.portWS }
    var bridgeFlag: String { "samsung:\(simulator.host)" }

    /// state-latency measures push with ECP-2 and poll with HTTP ECP: both Roku transports.
    func changeState(step: Int) throws -> (field: String, value: String) {
        throw BenchError("state-latency does not use the Samsung simulator")
    }

    func stop() async { await simulator.stop() }
}
