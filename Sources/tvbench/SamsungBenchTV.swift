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

    /// Ready once the bridge has subscribed to the TV's UPnP events (at its first poll): a
    /// change before that would be polled, not pushed.
    func waitUntilReady(timeout: Duration) async -> Bool {
        await log.waitFor(timeout: timeout) { $0["kind"] == "subscribe" && $0["action"] == "subscribe" } != nil
    }

    /// Volume 20 and 21 in turn, as the TV's own remote would: the simulator sends a UPnP
    /// NOTIFY to the bridge's subscription, which publishes it without waiting for a poll.
    func changeState(step: Int) throws -> (field: String, value: JSONValue) {
        let volume = Int64(20 + step % 2)
        try simulator.apply(.object(["volume": .integer(volume)]))
        return ("volume", .integer(volume))
    }

    func stop() async { await simulator.stop() }
}
